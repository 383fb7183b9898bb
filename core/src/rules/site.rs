//! The site file's servers: the catch-alls that own the listen options, the site on HTTP
//! and HTTPS, and its document root and locations.

use std::borrow::Cow;

use super::listen::{SITE, SITE_TLS};
use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::{AccessLog, Hsts, ServerName, Workload};
use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
use crate::policy::Feature;

const SERVER_NAME_TEXT: Text =
    Text::new("server_name", "The names this site answers to.").inputs(&["server_names"]);

fn server_names(names: &[ServerName], out: &mut Out, scope: Scope, text: &Text) {
    let names = names.iter().map(|n| n.as_str().to_owned().into()).collect();
    out.set_args(scope, names, text, None);
}

pub(super) static SERVER_NAME: Rule = Rule {
    name: "server_name",
    texts: &[SERVER_NAME_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        // With TLS, plain HTTP answers every name (its redirect and the ACME challenges).
        let names = if c.i.tls {
            &c.i.server_names
        } else {
            c.served_names()
        };
        server_names(names, out, SITE, &SERVER_NAME_TEXT);
    }),
};

pub(super) static SERVER_NAME_ALIAS: Rule = Rule {
    name: "server_name",
    texts: &[Text::new(
        "server_name.alias",
        "The site's other names, each sent to the first.",
    )
    .inputs(&["server_names", "canonical"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.aliases().is_empty() {
            server_names(c.aliases(), out, ALIAS, &SERVER_NAME_ALIAS.texts[0]);
        }
    }),
};

const ALIAS: Scope = Scope::Server {
    server: ServerRole::Alias,
};

/// Where the other names' requests go: the first name, on the scheme and with the port
/// the client used (`$client_port`: the port named in its Host header, none for the
/// scheme's own, so a port a container publishes is kept). Over plain HTTP behind a
/// balancer or CDN that ends TLS, the scheme is the one the client used there.
fn alias_target(c: &Ctx) -> String {
    let first = c.i.server_names[0].as_str();
    let scheme = match (c.i.tls, c.i.forwarded()) {
        (true, _) => "https",
        (false, true) => "$forwarded_scheme",
        (false, false) => "http",
    };
    format!("{scheme}://{first}$client_port$request_uri")
}

pub(super) static RETURN_ALIAS: Rule = Rule {
    name: "return",
    texts: &[Text::new(
        "return.alias",
        "Requests for the other names go to the first, on the scheme and port the client used, with the same path and query, so every page has one address for search engines, caches and cookies; 308 keeps the method and body. Inside location / so that a load balancer's health probe still answers.",
    )
    .inputs(&["canonical", "server_names", "tls", "behind_lb", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.aliases().is_empty() {
            let target = alias_target(c);
            let scope = Scope::Location {
                server: ServerRole::Alias,
                location: LocationRole::Root,
            };
            out.set_args(scope, vec!["308".into(), target.into()], &RETURN_ALIAS.texts[0], None);
        }
    }),
};

pub(super) static ACME_ROOT: Rule = Rule {
    name: "root",
    texts: &[Text::new(
        "acme.root",
        "ACME HTTP-01 challenges (certbot --webroot -w /var/www/_letsencrypt) are answered on plain HTTP, before the redirect, so certificates are issued and renewed.",
    )],
    decide: Decide::When {
        // With --bootstrap, TLS is off in the rules' inputs until the certificate exists.
        when: |c| c.i.tls || c.i.bootstrap,
        scope: Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Acme,
        },
        args: &["/var/www/_letsencrypt"],
    },
};

pub(super) static RETURN_HTTPS: Rule = Rule {
    name: "return",
    texts: &[
        Text::new(
            "return.https",
            "Send plain-HTTP visitors to HTTPS, to the same name, port and path; 308 keeps the method and body. Inside location / so that the ACME location above still answers.",
        )
        .inputs(&["tls_port"]),
        Text::new(
            "return.https.canonical",
            "Send plain-HTTP visitors to HTTPS on the first name, same port and path, in one hop from every name; 308 keeps the method and body. Inside location / so that the ACME location above still answers for every name. (With hsts subdomains or preload each name goes to HTTPS on itself first, where browsers learn the header.)",
        )
        .inputs(&["tls_port", "canonical", "server_names", "hsts"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        // HSTS for the subdomains (and the preload list) is learned on the bare domain's
        // own HTTPS answer: with those, every name goes to HTTPS on itself first.
        let one_hop = !c.aliases().is_empty()
            && !matches!(c.i.hsts, Hsts::Subdomains | Hsts::Preload);
        let (host, text) = if one_hop {
            (c.i.server_names[0].as_str(), &RETURN_HTTPS.texts[1])
        } else {
            ("$host", &RETURN_HTTPS.texts[0])
        };
        let target = match c.i.tls_port {
            443 => format!("https://{host}$request_uri"),
            port => format!("https://{host}:{port}$request_uri"),
        };
        let scope = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Root,
        };
        out.set_args(scope, vec!["308".into(), target.into()], text, None);
    }),
};

pub(super) static HTTP3: Rule = Rule {
    name: "http3",
    texts: &[Text::new("http3", "Serve HTTP/3 on the QUIC listener.").inputs(&["http3"])],
    decide: Decide::When {
        when: |c| c.i.tls && c.i.http3,
        scope: SITE_TLS,
        args: &["on"],
    },
};

const HTTP2_TEXT: Text = Text::new(
    "http2",
    "HTTP/2 for TLS clients; nginx ≥ {Http2Directive} switches it on with this directive (the listen parameter is deprecated).",
)
.inputs(&["nginx_version"]);

pub(super) static HTTP2: Rule = Rule {
    name: "http2",
    texts: &[HTTP2_TEXT],
    decide: Decide::When {
        when: |c| c.i.tls && c.v.has(Feature::Http2Directive),
        scope: SITE_TLS,
        args: &["on"],
    },
};

pub(super) static SERVER_NAME_TLS: Rule = Rule {
    name: "server_name",
    texts: &[SERVER_NAME_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls {
            server_names(c.served_names(), out, SITE_TLS, &SERVER_NAME_TEXT);
        }
    }),
};

pub(super) static HTTP2_ALIAS: Rule = Rule {
    name: "http2",
    texts: &[HTTP2_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls && c.v.has(Feature::Http2Directive) && !c.aliases().is_empty() {
            out.set(ALIAS, &["on"], &HTTP2_TEXT);
        }
    }),
};

fn serves_files(c: &Ctx) -> bool {
    c.i.workload.serves_files()
}

pub(super) static ROOT: Rule = Rule {
    name: "root",
    texts: &[Text::new("root", "Where the site's files are.").inputs(&["root", "layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            let root = c.i.document_root();
            let scope = Scope::Server {
                server: c.content_server(),
            };
            out.set_args(scope, vec![root.to_owned().into()], &ROOT.texts[0], None);
        }
    }),
};

pub(super) static CHARSET: Rule = Rule {
    name: "charset",
    texts: &[Text::new(
        "charset",
        "Text files say they are UTF-8 (Content-Type: text/plain; charset=utf-8). Without it a browser reads a .txt or .css in its locale's legacy encoding and shows non-ASCII characters garbled, and security.txt must carry it (RFC 9116). In the locations of files only: the application's responses keep the charset it names, or none.",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        for scope in file_locations(c) {
            out.set(scope, &["utf-8"], &CHARSET.texts[0]);
        }
    }),
};

/// The locations that serve files from disk (`/` and the assets', whose nested images'
/// location inherits from it); none where nginx serves no files. The application's and
/// PHP's locations are not among them.
fn file_locations(c: &Ctx) -> Vec<Scope> {
    if !serves_files(c) {
        return Vec::new();
    }
    let server = c.content_server();
    [LocationRole::Root, LocationRole::Assets]
        .map(|location| Scope::Location { server, location })
        .to_vec()
}

pub(super) static CHARSET_TYPES: Rule = Rule {
    name: "charset_types",
    texts: &[Text::new(
        "charset_types",
        "The types the charset is added to besides HTML: nginx's own list lacks style sheets and JavaScript modules (text/javascript).",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        for scope in file_locations(c) {
            let types = &[
                "text/css",
                "text/plain",
                "text/xml",
                "text/javascript",
                "application/javascript",
                "application/rss+xml",
                "application/atom+xml",
            ];
            out.set(scope, types, &CHARSET_TYPES.texts[0]);
        }
    }),
};

pub(super) static INDEX: Rule = Rule {
    name: "index",
    texts: &[
        Text::new("index", "The file served for a directory."),
        Text::new("index.php", "The script or file served for a directory.").inputs(&["workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let scope = Scope::Server {
            server: c.content_server(),
        };
        if c.i.workload == Workload::Php {
            out.set(scope, &["index.php", "index.html"], &INDEX.texts[1]);
        } else if c.i.workload == Workload::Static {
            out.set(scope, &["index.html"], &INDEX.texts[0]);
        }
    }),
};

pub(super) static TRY_FILES: Rule = Rule {
    name: "try_files",
    texts: &[
        Text::new(
            "try_files",
            "Serve the file if it exists, or for a URI ending in / the directory's index.html, otherwise the application: a directory without an index page is the application's (with $uri/ it answered 403, and the application never got / or its routes that match a folder).",
        )
        .inputs(&["workload"]),
        Text::new(
            "omit.try_files",
            "nginx already serves the file, the directory's index or 404; try_files would only add a file lookup to every request (measured 5-10% of throughput on small pages).",
        ),
        Text::new(
            "try_files.spa",
            "A single-page application's routes (/dashboard, /users/7) are no files: each gets /index.html, whose script draws the page. A directory's own index.html comes first (pre-rendered pages), without the redirect to a trailing slash; a missing script, style or image stays a 404 in the asset location, so a stale page never runs HTML as a script. The price is a file lookup per request.",
        )
        .inputs(&["spa", "workload"]),
        Text::new(
            "try_files.php",
            "Serve the file if it exists, otherwise the directory's index, otherwise the application's index.php with the query.",
        )
        .inputs(&["workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let root = Scope::Location {
            server: c.content_server(),
            location: LocationRole::Root,
        };
        match c.i.workload {
            Workload::Mixed => out.set(
                root,
                &["$uri", "${uri}index.html", "@app"],
                &TRY_FILES.texts[0],
            ),
            Workload::Static if c.i.spa => out.set(
                root,
                &["$uri", "$uri/index.html", "/index.html"],
                &TRY_FILES.texts[2],
            ),
            Workload::Static => out.omit(root, &TRY_FILES.texts[1]),
            Workload::Php => out.set(
                root,
                &["$uri", "$uri/", "/index.php$is_args$args"],
                &TRY_FILES.texts[3],
            ),
            Workload::Proxy | Workload::Api => {}
        }
    }),
};

pub(super) static HIDDEN: Rule = Rule {
    name: "return",
    texts: &[
        Text::new(
            "return.hidden",
            "Hidden files (.env, .git/, .htaccess) and editors' and dumps' leftovers (*.bak, *~, *.swp, *.sql) are never served, not even to the application; /.well-known/ stays public. 404 does not confirm they exist.",
        )
        .inputs(&["workload"]),
        Text::new(
            "return.repository",
            "Version-control directories (/.git/, /.svn/, /.hg/, /.bzr/) and a root .env (.env.local and the like too) never reach the application: one that serves its own folder (Apache and PHP behind nginx, a framework's public folder) would hand out its history and secrets. Narrower than the rule for served files: the application owns its other paths, such as a Git forge's /repo/src/branch/main/.gitignore or a file store's /files/backup.sql.",
        )
        .inputs(&["workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let (location, text) = if c.i.workload == Workload::Php {
            (LocationRole::HiddenPhp, &HIDDEN.texts[0])
        } else if serves_files(c) {
            (LocationRole::Hidden, &HIDDEN.texts[0])
        } else {
            (LocationRole::Repository, &HIDDEN.texts[1])
        };
        let server = c.content_server();
        out.set(Scope::Location { server, location }, &["404"], text);
    }),
};

pub(super) static CLIENT_MAX_BODY_SIZE: Rule = Rule {
    name: "client_max_body_size",
    texts: &[
        Text::new(
            "client_max_body_size",
            "Request bodies (uploads, form posts) up to this size reach the application; a larger one gets 413 before it is read.",
        )
        .inputs(&["max_body_size"]),
        Text::new(
            "client_max_body_size.redirect",
            "The site's limit on its redirect too: nginx checks a body's size before it redirects, so an upload sent over plain HTTP or to another name gets its 308, not a 413.",
        )
        .inputs(&["max_body_size", "tls", "canonical", "server_names"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.workload.dynamic() {
            return;
        }
        let value = super::proxy::size(c.i.max_body_size);
        let scope = Scope::Server {
            server: c.content_server(),
        };
        out.set_value(scope, &value, &CLIENT_MAX_BODY_SIZE.texts[0], None);
        let redirects = [
            c.i.tls.then_some(SITE),
            (!c.aliases().is_empty()).then_some(ALIAS),
        ];
        for scope in redirects.into_iter().flatten() {
            out.set_value(scope, &value, &CLIENT_MAX_BODY_SIZE.texts[1], None);
        }
    }),
};

pub(super) static TYPES: Rule = Rule {
    name: "types",
    texts: &[Text::new(
        "types",
        "Content types the distributions' mime.types lacks: JavaScript modules (.mjs; browsers refuse a module script sent as application/octet-stream) and web app manifests.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            let scope = Scope::Table {
                table: TableRole::Types,
            };
            out.set(scope, &[], &TYPES.texts[0]);
        }
    }),
};

fn assets(c: &Ctx) -> Scope {
    Scope::Location {
        server: c.content_server(),
        location: LocationRole::Assets,
    }
}

pub(super) static EXPIRES: Rule = Rule {
    name: "expires",
    texts: &[
        Text::new(
            "expires",
            "Browsers keep styles, scripts, images and fonts for a week.",
        ),
        Text::new(
            "expires.pages",
            "Browsers check an HTML page with the server on every visit (Cache-Control: no-cache; a 304 when it is unchanged), so a deploy shows at once. Without a lifetime they keep a page for a tenth of its age since Last-Modified: a day for a page edited ten days before.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            out.set(assets(c), &["7d"], &EXPIRES.texts[0]);
            let root = Scope::Location {
                server: c.content_server(),
                location: LocationRole::Root,
            };
            out.set(root, &["$page_expires"], &EXPIRES.texts[1]);
        }
    }),
};

pub(super) static PAGE_EXPIRES_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.page_expires",
        "epoch (Cache-Control: no-cache) for HTML pages, and for their 304 answers, which carry no type and are known by the URI; off, no header, for every other type, whose lifetime stays the browser's choice. The types nginx sets itself are exact keys, looked up without a regular expression.",
    )],
    decide: Decide::When {
        // With the expires it feeds.
        when: serves_files,
        scope: Scope::Table {
            table: TableRole::PageExpires,
        },
        args: &["$sent_http_content_type", "$page_expires"],
    },
};

pub(super) static PAGE_BY_URI_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.page_by_uri",
        "For a 304, which carries no type: epoch when the URI is a page's (a directory or .html), off otherwise.",
    )],
    decide: Decide::When {
        // With the map that reads it.
        when: serves_files,
        scope: Scope::Table {
            table: TableRole::PageByUri,
        },
        args: &["$uri", "$page_by_uri"],
    },
};

pub(super) static ACCESS_LOG_ASSETS: Rule = Rule {
    name: "access_log",
    texts: &[Text::new(
        "access_log.assets",
        "Asset requests add little to the log but cost a write each.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) && c.i.access_log != AccessLog::Off {
            out.set(assets(c), &["off"], &ACCESS_LOG_ASSETS.texts[0]);
        }
    }),
};

pub(super) static ASSET_FALLBACK: Rule = Rule {
    name: "try_files",
    texts: &[
        Text::new(
            "try_files.assets",
            "An asset URL with no file on disk (generated images, bundles served by the application) goes to the application instead of 404.",
        )
        .inputs(&["workload"]),
        Text::new(
            "try_files.assets_php",
            "An asset URL with no file on disk goes to the application's index.php instead of 404: Drupal makes its image styles on the first request, WordPress answers /favicon.ico itself.",
        )
        .inputs(&["workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let (args, text): (&'static [&'static str], _) = match c.i.workload {
            Workload::Mixed => (&["$uri", "@app"], &ASSET_FALLBACK.texts[0]),
            Workload::Php => (
                &["$uri", "/index.php$is_args$args"],
                &ASSET_FALLBACK.texts[1],
            ),
            _ => return,
        };
        // Again for images and fonts: a nested location does not inherit try_files.
        for scope in [assets(c), media(c)] {
            out.set(scope, args, text);
        }
    }),
};

pub(super) static OWN_ADDITIONS: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.own",
        "Your own additions to this site (a location of your own, a redirect, auth_basic for the whole site), as .conf files in this directory: apply and rollback never write there, check leaves their locations alone, and nginx -t checks them with the site before anything is installed. A directive this file already sets cannot be set there again, and a prefix location of yours loses to the regular-expression locations here (scripts, assets) unless written with ^~.",
    )
    .inputs(&["server_names"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let scope = Scope::Server {
            server: c.content_server(),
        };
        let dir = c.i.site_file(".d/*.conf");
        out.set_args(scope, vec![dir.into()], &OWN_ADDITIONS.texts[0], None);
    }),
};

/// The images and fonts, nested in the asset location (they keep its `expires` and
/// `access_log`, which nested locations inherit).
fn media(c: &Ctx) -> Scope {
    Scope::Location {
        server: c.content_server(),
        location: LocationRole::Media,
    }
}

pub(super) static GZIP_STATIC_MEDIA: Rule = Rule {
    name: "gzip_static",
    texts: &[Text::new(
        "gzip_static.media",
        "Images and fonts are compressed already and get no .gz: not looking for one saves a lookup per browser request (1.14× an image's requests/s when each was a failed open(), before open_file_cache_errors).",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            out.set(media(c), &["off"], &GZIP_STATIC_MEDIA.texts[0]);
        }
    }),
};

pub(super) static BROTLI_STATIC_MEDIA: Rule = Rule {
    name: "brotli_static",
    texts: &[Text::new("brotli_static.media", "Nor a .br.").inputs(&["brotli", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) && c.i.brotli {
            out.set(media(c), &["off"], &BROTLI_STATIC_MEDIA.texts[0]);
        }
    }),
};

const STATUS: Scope = Scope::Server {
    server: ServerRole::Status,
};

/// One reason for the whole status server: its settings only make sense together.
const STATUS_TEXT: Text = Text::new(
    "stub_status",
    "Connection and request counters for monitoring agents, on any path of 127.0.0.1 only, not logged.",
)
.inputs(&["status_port"]);

fn status_on(c: &Ctx) -> bool {
    c.i.status_port != 0
}

pub(super) static STATUS_LISTEN: Rule = Rule {
    name: "listen",
    texts: &[STATUS_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if status_on(c) {
            let at = Cow::Owned(format!("127.0.0.1:{}", c.i.status_port));
            out.set_args(STATUS, vec![at], &STATUS_TEXT, None);
        }
    }),
};

pub(super) static STUB_STATUS: Rule = Rule {
    name: "stub_status",
    texts: &[STATUS_TEXT],
    decide: Decide::When {
        when: status_on,
        scope: STATUS,
        args: &[],
    },
};

pub(super) static STATUS_ALLOW: Rule = Rule {
    name: "allow",
    texts: &[STATUS_TEXT],
    decide: Decide::When {
        when: status_on,
        scope: STATUS,
        args: &["127.0.0.1"],
    },
};

pub(super) static STATUS_DENY: Rule = Rule {
    name: "deny",
    texts: &[STATUS_TEXT],
    decide: Decide::When {
        when: status_on,
        scope: STATUS,
        args: &["all"],
    },
};

pub(super) static STATUS_LOG: Rule = Rule {
    name: "access_log",
    texts: &[STATUS_TEXT],
    decide: Decide::When {
        when: |c| status_on(c) && c.i.access_log != AccessLog::Off,
        scope: STATUS,
        args: &["off"],
    },
};

#[cfg(test)]
mod tests {
    use super::{ALIAS, SITE, SITE_TLS, STATUS};
    use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
    use crate::rules::listen::CATCH_ALL_TLS;
    use crate::rules::testing::{CATCH_ALL, at, omitted, plan, value, values, values_in};

    #[test]
    fn quic_listeners_only_with_http3() {
        let h3 = plan(r#"{"tls":true,"http3":true,"nginx_version":"1.26.0","listen":["80"]}"#);
        assert_eq!(
            values_in(&h3, CATCH_ALL_TLS, "listen")[1],
            "443 quic default_server reuseport rcvbuf=7500000 sndbuf=7500000"
        );
        assert_eq!(values_in(&h3, SITE_TLS, "listen"), ["443 ssl", "443 quic"]);
        assert_eq!(value(&h3, "http3").as_deref(), Some("on"));
        let h2 = plan(r#"{"tls":true,"nginx_version":"1.26.0"}"#);
        assert_eq!(
            values_in(&h2, SITE_TLS, "listen"),
            ["443 ssl", "[::]:443 ssl"]
        );
        assert_eq!(value(&h2, "http3"), None);
    }

    #[test]
    fn http2_directive_from_1_25_1() {
        assert_eq!(
            value(&plan(r#"{"tls":true,"nginx_version":"1.25.1"}"#), "http2").as_deref(),
            Some("on")
        );
        let old = plan(r#"{"tls":true,"nginx_version":"1.25.0","listen":["80"]}"#);
        assert_eq!(value(&old, "http2"), None);
        assert_eq!(values_in(&old, SITE_TLS, "listen"), ["443 ssl http2"]);
    }

    #[test]
    fn redirect_is_inside_location_so_acme_answers_and_keeps_the_port() {
        let p = plan(r#"{"tls":true,"server_names":["example.com","www.example.com"]}"#);
        // A server-level return would run before any location is chosen.
        assert!(values_in(&p, SITE, "return").is_empty());
        assert_eq!(
            values_in(&p, at(ServerRole::Site, LocationRole::Root), "return"),
            ["308 https://$host$request_uri"]
        );
        let acme = at(ServerRole::Site, LocationRole::Acme);
        assert_eq!(values_in(&p, acme, "root"), ["/var/www/_letsencrypt"]);
        assert_eq!(
            values(&p, "server_name"),
            ["example.com www.example.com", "example.com www.example.com"]
        );
        // Content moves to the HTTPS server.
        assert_eq!(values_in(&p, SITE_TLS, "root"), ["/var/www/html"]);
        assert!(values_in(&p, SITE, "root").is_empty());
        let port = plan(r#"{"tls":true,"tls_port":8443}"#);
        assert_eq!(
            values_in(&port, at(ServerRole::Site, LocationRole::Root), "return"),
            ["308 https://$host:8443$request_uri"]
        );
    }

    #[test]
    fn canonical_sends_the_other_names_to_the_first_in_one_hop() {
        let alias = Scope::Server {
            server: ServerRole::Alias,
        };
        let root = |server| at(server, LocationRole::Root);
        let p = plan(
            r#"{"tls":true,"canonical":true,"server_names":["example.com","www.example.com"],"listen":["80"],"nginx_version":"1.30.0"}"#,
        );
        // Plain HTTP answers every name (the ACME challenges) and sends each to HTTPS on
        // the first at once; HTTPS serves the first, and the others' server redirects.
        assert_eq!(
            values_in(&p, SITE, "server_name"),
            ["example.com www.example.com"]
        );
        assert_eq!(
            values_in(&p, root(ServerRole::Site), "return"),
            ["308 https://example.com$request_uri"]
        );
        assert_eq!(values_in(&p, SITE_TLS, "server_name"), ["example.com"]);
        assert_eq!(values_in(&p, alias, "server_name"), ["www.example.com"]);
        assert_eq!(values_in(&p, alias, "listen"), ["443 ssl"]);
        assert_eq!(values_in(&p, alias, "http2"), ["on"]);
        assert_eq!(
            values_in(&p, alias, "ssl_certificate"),
            values_in(&p, SITE_TLS, "ssl_certificate")
        );
        assert_eq!(
            values_in(&p, alias, "ssl_certificate_key"),
            values_in(&p, SITE_TLS, "ssl_certificate_key")
        );
        assert_eq!(
            values_in(&p, alias, "add_header"),
            ["Strict-Transport-Security max-age=63072000 always"]
        );
        // Inside location /, so a health probe's location still answers.
        assert!(values_in(&p, alias, "return").is_empty());
        // On the scheme and the port the client used (a published port kept).
        assert_eq!(
            values_in(&p, root(ServerRole::Alias), "return"),
            ["308 https://example.com$client_port$request_uri"]
        );
        assert!(
            values(&p, "map")
                .iter()
                .any(|m| m == "$http_host|$server_port $client_port")
        );
        // With HSTS for the subdomains, every name goes to HTTPS on itself first, where
        // the bare domain's header is learned; stapling and the body limit where set.
        let preload = plan(
            r#"{"tls":true,"canonical":true,"hsts":"preload","ocsp_stapling":true,"workload":"proxy","max_body_size":"64M","server_names":["www.example.com","example.com"]}"#,
        );
        assert_eq!(
            values_in(&preload, root(ServerRole::Site), "return"),
            ["308 https://$host$request_uri"]
        );
        for name in [
            "ssl_stapling",
            "ssl_stapling_verify",
            "ssl_trusted_certificate",
            "resolver",
        ] {
            assert_eq!(
                values_in(&preload, alias, name),
                values_in(&preload, SITE_TLS, name),
                "{name}"
            );
            assert_eq!(values_in(&preload, alias, name).len(), 1, "{name}");
        }
        assert_eq!(values_in(&preload, alias, "client_max_body_size"), ["64m"]);
        let lb = plan(
            r#"{"tls":true,"canonical":true,"behind_lb":true,"server_names":["example.com","www.example.com"]}"#,
        );
        let health = at(ServerRole::Alias, LocationRole::Health);
        assert_eq!(values_in(&lb, health, "return"), ["200 ok"]);
        // Old nginx: HTTP/2 on the listen line; another TLS port is named.
        let old = plan(
            r#"{"tls":true,"canonical":true,"tls_port":8443,"server_names":["example.com","www.example.com"],"listen":["80"],"nginx_version":"1.22.1"}"#,
        );
        assert_eq!(values_in(&old, alias, "listen"), ["8443 ssl http2"]);
        assert_eq!(
            values_in(&old, root(ServerRole::Site), "return"),
            ["308 https://example.com:8443$request_uri"]
        );
        // Plain HTTP only: the others' server listens on the plain ports; behind a
        // balancer that ends TLS, the client's scheme there.
        let plain = plan(
            r#"{"canonical":true,"server_names":["example.com","www.example.com","*.example.org"],"listen":["80","8080"]}"#,
        );
        assert_eq!(values_in(&plain, SITE, "server_name"), ["example.com"]);
        assert_eq!(
            values_in(&plain, alias, "server_name"),
            ["www.example.com *.example.org"]
        );
        assert_eq!(values_in(&plain, alias, "listen"), ["80", "8080"]);
        assert_eq!(
            values_in(&plain, root(ServerRole::Alias), "return"),
            ["308 http://example.com$client_port$request_uri"]
        );
        let behind = plan(
            r#"{"canonical":true,"behind_lb":true,"server_names":["example.com","www.example.com"]}"#,
        );
        assert_eq!(
            values_in(&behind, root(ServerRole::Alias), "return"),
            ["308 $forwarded_scheme://example.com$client_port$request_uri"]
        );
        assert!(
            values(&behind, "map")
                .iter()
                .any(|m| m.ends_with("$forwarded_scheme"))
        );
        assert!(values_in(&plain, alias, "ssl_certificate").is_empty());
        // Without canonical, or while bootstrapping (every name serves the ACME
        // challenges itself until the certificate exists), no such server.
        let no_alias = |p: &crate::Plan| {
            p.settings.iter().all(|s| {
                !matches!(
                    s.scope,
                    Scope::Server {
                        server: ServerRole::Alias
                    } | Scope::Location {
                        server: ServerRole::Alias,
                        ..
                    }
                )
            })
        };
        let names = r#""server_names":["example.com","www.example.com"]"#;
        assert!(no_alias(&plan(&format!(r#"{{"tls":true,{names}}}"#))));
        let boot = plan(&format!(
            r#"{{"tls":true,"bootstrap":true,"canonical":true,{names}}}"#
        ));
        assert!(no_alias(&boot));
        assert_eq!(
            values_in(&boot, SITE, "server_name"),
            ["example.com www.example.com"]
        );
    }

    #[test]
    fn bootstrap_serves_http_only_with_the_acme_location() {
        let p = plan(r#"{"tls":true,"bootstrap":true}"#);
        assert!(values_in(&p, SITE_TLS, "listen").is_empty());
        assert!(values_in(&p, CATCH_ALL_TLS, "listen").is_empty());
        assert!(values(&p, "ssl_certificate").is_empty());
        assert_eq!(values_in(&p, SITE, "root"), ["/var/www/html"]);
        let acme = at(ServerRole::Site, LocationRole::Acme);
        assert_eq!(values_in(&p, acme, "root"), ["/var/www/_letsencrypt"]);
        assert!(p.warnings.iter().any(|w| w.id == "bootstrap"));
        assert!(p.command.contains("--bootstrap") && p.command.contains("--tls"));
    }

    #[test]
    fn underscore_makes_the_site_the_default_server() {
        let p =
            plan(r#"{"server_names":["_"],"tls":true,"listen":["80"],"nginx_version":"1.30.0"}"#);
        assert!(values_in(&p, CATCH_ALL, "listen").is_empty());
        assert!(values_in(&p, CATCH_ALL_TLS, "listen").is_empty());
        assert!(values_in(&p, SITE, "listen")[0].starts_with("80 default_server"));
        assert!(values_in(&p, SITE_TLS, "listen")[0].starts_with("443 ssl default_server"));
        assert!(values(&p, "ssl_reject_handshake").is_empty());
    }

    #[test]
    fn an_ip_name_makes_the_site_the_tls_default_server() {
        let p = plan(
            r#"{"server_names":["192.0.2.10"],"tls":true,"listen":["80"],"nginx_version":"1.30.0"}"#,
        );
        assert!(values_in(&p, CATCH_ALL, "listen")[0].contains("default_server"));
        assert!(values_in(&p, CATCH_ALL_TLS, "listen").is_empty());
        assert!(values_in(&p, SITE_TLS, "listen")[0].starts_with("443 ssl default_server"));
    }

    #[test]
    fn status_counters_on_loopback_only() {
        let p = plan("{}");
        let status = |p, name| values_in(p, STATUS, name);
        assert_eq!(status(&p, "listen"), ["127.0.0.1:81"]);
        assert_eq!(status(&p, "stub_status"), [""]);
        assert_eq!(status(&p, "allow"), ["127.0.0.1"]);
        assert_eq!(status(&p, "deny"), ["all"]);
        assert_eq!(status(&p, "access_log"), ["off"]);
        let other = plan(r#"{"status_port":9113}"#);
        assert_eq!(status(&other, "listen"), ["127.0.0.1:9113"]);
        let off = plan(r#"{"status_port":0}"#);
        assert!(off.in_scope(STATUS).next().is_none());
        // Without an access log, nothing turns it off.
        let quiet = plan(r#"{"access_log":"off","behind_lb":true}"#);
        assert!(status(&quiet, "access_log").is_empty());
        let health = at(ServerRole::Site, LocationRole::Health);
        assert!(values_in(&quiet, health, "access_log").is_empty());
        let assets = at(ServerRole::Site, LocationRole::Assets);
        assert!(values_in(&quiet, assets, "access_log").is_empty());
        // Its port is nobody else's.
        for taken in [
            r#"{"status_port":8080,"listen":["8080"]}"#,
            r#"{"status_port":8443,"tls":true,"tls_port":8443}"#,
            r#"{"status_port":3000,"workload":"proxy","upstreams":["127.0.0.1:3000"]}"#,
        ] {
            let err = crate::Inputs::from_json(taken).unwrap_err();
            assert!(err.for_field("status_port").is_some(), "{taken}");
        }
        assert!(crate::Inputs::from_json(r#"{"upstreams":["192.0.2.1:81"]}"#).is_ok());
    }

    #[test]
    fn hidden_files_are_404_where_files_are_served() {
        let hidden = at(ServerRole::Site, LocationRole::Hidden);
        let hidden_php = at(ServerRole::Site, LocationRole::HiddenPhp);
        for (workload, at) in [("static", hidden), ("mixed", hidden), ("php", hidden_php)] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert_eq!(values_in(&p, at, "return"), ["404"], "{workload}");
            let other = if at == hidden { hidden_php } else { hidden };
            assert!(p.in_scope(other).next().is_none(), "{workload}");
        }
        // The application's own paths are its to answer, but for version control and a
        // root .env.
        let repository = at(ServerRole::Site, LocationRole::Repository);
        for workload in ["proxy", "api"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert!(p.in_scope(hidden).next().is_none(), "{workload}");
            assert_eq!(values_in(&p, repository, "return"), ["404"], "{workload}");
        }
        assert!(
            plan("{}").in_scope(repository).next().is_none(),
            "served files have the wider rule"
        );
        let re = LocationRole::HiddenPhp.matcher()[1];
        assert!(re.contains("(?!well-known/)"), "{re}");
        // A script's path info names no file: the rule stops at `.php/`.
        assert!(re.starts_with(r"(?s)^(?:(?!\.php/).)*?"), "{re}");
        // Elsewhere the same alternatives, unanchored: PCRE starts only where they can.
        let simple = LocationRole::Hidden.matcher()[1];
        assert!(re.ends_with(&format!("(?:{simple})")), "{simple}");
    }

    #[test]
    fn text_files_say_utf_8_where_files_are_served() {
        for workload in ["static", "mixed", "php"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            for location in [LocationRole::Root, LocationRole::Assets] {
                let l = at(ServerRole::Site, location);
                assert_eq!(values_in(&p, l, "charset"), ["utf-8"], "{workload}");
                let types = values_in(&p, l, "charset_types");
                assert!(types[0].starts_with("text/css text/plain"), "{types:?}");
            }
            // Not the server's: the application's responses are its own.
            assert!(values_in(&p, SITE, "charset").is_empty(), "{workload}");
        }
        // An application's responses are its own.
        for workload in ["proxy", "api"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert!(values(&p, "charset").is_empty(), "{workload}");
        }
    }

    #[test]
    fn a_single_page_application_gets_its_index_for_routes() {
        let root = at(ServerRole::Site, LocationRole::Root);
        let spa = plan(r#"{"workload":"static","spa":true}"#);
        assert_eq!(
            values_in(&spa, root, "try_files"),
            ["$uri $uri/index.html /index.html"]
        );
        // Missing assets stay 404: their location has no fallback.
        let assets = at(ServerRole::Site, LocationRole::Assets);
        assert!(values_in(&spa, assets, "try_files").is_empty());
        assert!(omitted(&plan(r#"{"workload":"static"}"#), "try_files"));
    }

    #[test]
    fn the_site_s_own_additions_have_a_directory_of_their_own() {
        let p = plan(r#"{"tls":true,"server_names":["*.example.org","example.org"]}"#);
        assert_eq!(
            values_in(&p, SITE_TLS, "include"),
            ["/etc/nginx/conf.d/example.org.d/*.conf"]
        );
        assert!(
            values_in(&p, SITE, "include").is_empty(),
            "the redirect only"
        );
    }

    #[test]
    fn body_size_where_the_application_reads_bodies() {
        let p = plan(r#"{"workload":"proxy","max_body_size":"2M"}"#);
        assert_eq!(values_in(&p, SITE, "client_max_body_size"), ["2m"]);
        assert!(values(&plan(r#"{"workload":"static"}"#), "client_max_body_size").is_empty());
        // Every server that redirects an upload: plain HTTP, and the other names.
        let tls = plan(
            r#"{"workload":"php","tls":true,"max_body_size":"64M","canonical":true,
                "server_names":["example.com","www.example.com"]}"#,
        );
        for scope in [SITE_TLS, SITE, ALIAS] {
            assert_eq!(values_in(&tls, scope, "client_max_body_size"), ["64m"]);
        }
        let boot = plan(r#"{"workload":"proxy","tls":true,"bootstrap":true}"#);
        assert_eq!(values_in(&boot, SITE, "client_max_body_size"), ["16m"]);
        assert!(
            values(
                &plan(r#"{"workload":"static","tls":true}"#),
                "client_max_body_size"
            )
            .is_empty()
        );
    }

    #[test]
    fn module_scripts_and_manifests_get_their_types() {
        let types = Scope::Table {
            table: TableRole::Types,
        };
        assert_eq!(values_in(&plan("{}"), types, "types"), [""]);
        assert!(values(&plan(r#"{"workload":"api"}"#), "types").is_empty());
        assert!(
            TableRole::Types
                .rows()
                .iter()
                .any(|(t, e)| *t == "text/javascript" && e == &["mjs"])
        );
    }

    #[test]
    fn images_and_fonts_nested_in_assets_without_precompressed_lookups() {
        let media = at(ServerRole::Site, LocationRole::Media);
        let s = plan(r#"{"workload":"static","brotli":true}"#);
        assert_eq!(values_in(&s, media, "gzip_static"), ["off"]);
        assert_eq!(values_in(&s, media, "brotli_static"), ["off"]);
        // What the location inherits from the asset location is not repeated.
        assert!(values_in(&s, media, "expires").is_empty());
        assert_eq!(LocationRole::Media.parent(), Some(LocationRole::Assets));
        // Every type the precompress command compresses keeps its lookups.
        let precompressed = s.precompress.as_deref().unwrap();
        for ext in [
            "png", "jpg", "jpeg", "gif", "ico", "webp", "avif", "woff", "woff2",
        ] {
            assert!(!precompressed.contains(&format!("'*.{ext}'")), "{ext}");
        }
        let tls = plan(r#"{"workload":"static","tls":true}"#);
        let tls_media = at(ServerRole::SiteTls, LocationRole::Media);
        assert_eq!(values_in(&tls, tls_media, "gzip_static"), ["off"]);
        assert!(values_in(&tls, tls_media, "brotli_static").is_empty());
        // try_files is not inherited: the mixed workload's fallback is written again.
        let m = plan(r#"{"workload":"mixed"}"#);
        assert_eq!(values_in(&m, media, "try_files"), ["$uri @app"]);
        // PHP's missing assets go to its front controller.
        let php = plan(r#"{"workload":"php"}"#);
        assert_eq!(
            values_in(&php, media, "try_files"),
            ["$uri /index.php$is_args$args"]
        );
        let p = plan(r#"{"workload":"proxy"}"#);
        assert!(p.in_scope(media).next().is_none());
    }

    /// The extensions a `~* \.(?:a|b)$` matcher names.
    fn extensions(role: LocationRole) -> Vec<&'static str> {
        let re = role.matcher()[1];
        let list = re.strip_prefix(r"\.(?:").and_then(|r| r.strip_suffix(")$"));
        list.unwrap_or_else(|| panic!("{role:?}: {re}"))
            .split('|')
            .collect()
    }

    #[test]
    fn a_nested_location_only_matches_what_its_parent_does() {
        // nginx looks at a nested location only once its parent has matched: an extension
        // added to the images' list alone would never reach it.
        let assets = extensions(LocationRole::Assets);
        for role in LocationRole::ALL {
            if role.parent() == Some(LocationRole::Assets) {
                for ext in extensions(role) {
                    assert!(assets.contains(&ext), "{role:?}: {ext} is not an asset");
                }
            }
        }
    }

    #[test]
    fn content_by_workload() {
        let s = plan(r#"{"workload":"static","root":"/srv/www"}"#);
        assert_eq!(values_in(&s, SITE, "root"), ["/srv/www"]);
        assert_eq!(value(&s, "index").as_deref(), Some("index.html"));
        assert!(omitted(&s, "try_files"));
        assert_eq!(values(&s, "expires"), ["7d", "$page_expires"]);
        let pages = Scope::Table {
            table: TableRole::PageExpires,
        };
        assert_eq!(
            values_in(&s, pages, "map"),
            ["$sent_http_content_type $page_expires"]
        );
        let by_uri = Scope::Table {
            table: TableRole::PageByUri,
        };
        assert_eq!(values_in(&s, by_uri, "map"), ["$uri $page_by_uri"]);
        assert_eq!(values(&s, "access_log")[1], "off");
        let m = plan(r#"{"workload":"mixed"}"#);
        assert_eq!(
            values(&m, "try_files"),
            ["$uri ${uri}index.html @app", "$uri @app", "$uri @app"]
        );
        assert!(
            values(&m, "index").is_empty(),
            "no directory index: try_files names it"
        );
        let p = plan(r#"{"workload":"proxy"}"#);
        for name in ["root", "index", "try_files", "expires"] {
            assert!(values(&p, name).is_empty(), "{name}");
        }
        assert!(values_in(&p, pages, "map").is_empty());
        assert!(values_in(&p, by_uri, "map").is_empty());
        assert!(!omitted(&p, "try_files"));
    }
}
