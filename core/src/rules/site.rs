//! The site file's servers: the catch-alls that own the listen options, the site on HTTP
//! and HTTPS, and its document root and locations.

use std::borrow::Cow;

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::digits::keyed;
use crate::inputs::{AccessLog, Workload};
use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
use crate::policy::Feature;

const CATCH_ALL_TLS: Scope = Scope::Server {
    server: ServerRole::CatchAllTls,
};
const SITE: Scope = Scope::Server {
    server: ServerRole::Site,
};
const SITE_TLS: Scope = Scope::Server {
    server: ServerRole::SiteTls,
};

const LISTEN_OPTIONS: &str = "Options that apply to the whole address and port, set once on the catch-all server: a listen queue (backlog) sized for a reconnect storm, paired with net.core.somaxconn; reuseport, where written, gives each worker its own queue";
const LISTEN_INPUTS: &[&str] = &["clients", "vcpu", "listen", "workload", "behind_lb"];
const LISTEN_OPTIONS_TEXT: Text =
    Text::new("listen.catch_all", LISTEN_OPTIONS).inputs(LISTEN_INPUTS);

/// One `listen` per address of `--listen`: on the plain-HTTP port, or on the TLS port
/// with `ssl` (and `http2` before its directive) or with `quic`; the server that owns
/// the port adds its options. Writes them to `server` with the first text, or with the
/// options' text (and the backlog's formula) where it owns the port.
fn listens(c: &Ctx, out: &mut Out, server: ServerRole, port: Port, texts: [&Text; 2]) {
    let owns = c.listen_owner(port != Port::Http) == server;
    // HTTPS listens on the addresses of the plain ones, each address once: two plain ports
    // on one address give one TLS socket.
    let mut seen = Vec::with_capacity(c.i.listen.len());
    for listen in &c.i.listen {
        if port != Port::Http {
            if seen.contains(&listen.addr) {
                continue;
            }
            seen.push(listen.addr);
        }
        let mut args: Vec<Cow<'static, str>> = Vec::with_capacity(6);
        match port {
            Port::Http => args.push(listen.with_port(listen.port).into()),
            Port::Tls => {
                args.push(listen.with_port(c.i.tls_port).into());
                args.push("ssl".into());
                if !c.v.has(Feature::Http2Directive) {
                    args.push("http2".into());
                }
            }
            Port::Quic => {
                args.push(listen.with_port(c.i.tls_port).into());
                args.push("quic".into());
            }
        }
        // An L4 balancer in front: every connection starts with the PROXY protocol header
        // (QUIC cannot carry it, refused in validation).
        if c.i.proxy_protocol && port != Port::Quic {
            args.push("proxy_protocol".into());
        }
        let scope = Scope::Server { server };
        if !owns {
            out.set_args(scope, args, texts[0], None);
        } else if port == Port::Quic {
            if !c.i.existing_default_server {
                args.push("default_server".into());
            }
            args.push("reuseport".into());
            let buffer = super::kernel::QUIC_SOCKET_BUFFER;
            args.push(keyed("rcvbuf=", buffer.into()).into());
            args.push(keyed("sndbuf=", buffer.into()).into());
            out.set_args(scope, args, texts[0], None);
        } else {
            let (f, fastopen) = listen_options(c, &mut args, port == Port::Tls);
            let text = if fastopen {
                texts[1]
            } else {
                &LISTEN_OPTIONS_TEXT
            };
            out.set_args(scope, args, text, Some(f));
        }
    }
}

/// Which socket a `listen` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Port {
    /// Plain HTTP on the `--listen` port.
    Http,
    /// TLS over TCP on `--tls-port`.
    Tls,
    /// QUIC over UDP on `--tls-port`.
    Quic,
}

/// The listen options nginx allows once per address and port, written on the catch-all
/// server that owns the port, with the formula of the backlog (and Fast Open's queue).
fn listen_options(c: &Ctx, args: &mut Vec<Cow<'static, str>>, tls: bool) -> (Formula, bool) {
    let t = c.t;
    // An existing site already is the default server (reported as a warning): two would
    // fail `nginx -t`, so ours only owns the options.
    if !c.i.existing_default_server {
        args.push("default_server".into());
    }
    if t.reuseport {
        args.push("reuseport".into());
    }
    args.push(keyed("backlog=", t.backlog.into()).into());
    let mut f = t.formulas.backlog.clone();
    // Fast Open where clients fetch the content: the TLS port when TLS is on (port 80 then
    // only redirects), else the plain-HTTP port.
    let fastopen = match (t.fastopen, tls == c.i.tls) {
        (Some(queue), true) => {
            args.push(keyed("fastopen=", queue.into()).into());
            f = f.and(&Formula::input("fastopen", queue));
            true
        }
        _ => false,
    };
    (f, fastopen)
}

pub(super) static LISTEN_CATCH_ALL: Rule = Rule {
    name: "listen",
    texts: &[
        LISTEN_OPTIONS_TEXT,
        Text::new("listen.catch_all.fastopen", LISTEN_OPTIONS).inputs(LISTEN_INPUTS),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.catch_all() {
            let t = &LISTEN_CATCH_ALL.texts;
            listens(c, out, ServerRole::CatchAll, Port::Http, [&t[0], &t[1]]);
        }
    }),
};

const RETURN_444: Text = Text::new(
    "return.catch_all",
    "Close connections for host names this server does not serve, instead of showing the first site to scanners.",
);

pub(super) static RETURN_CATCH_ALL: Rule = Rule {
    name: "return",
    texts: &[RETURN_444],
    decide: Decide::When {
        when: |c| c.catch_all(),
        scope: Scope::Location {
            server: ServerRole::CatchAll,
            location: LocationRole::Root,
        },
        args: &["444"],
    },
};

pub(super) static LISTEN_CATCH_ALL_TLS: Rule = Rule {
    name: "listen",
    texts: &[LISTEN_OPTIONS_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.catch_all_tls() {
            let t = &LISTEN_CATCH_ALL_TLS.texts[0];
            listens(c, out, ServerRole::CatchAllTls, Port::Tls, [t, t]);
        }
    }),
};

pub(super) static LISTEN_QUIC_CATCH_ALL: Rule = Rule {
    name: "listen",
    texts: &[Text::new(
        "listen.quic",
        "HTTP/3 over UDP on the same port; reuseport is required for QUIC with several workers. rcvbuf= and sndbuf= give its sockets room for bursts of datagrams (nginx sets socket buffers only when told; the sysctl file raises the kernel's maximum to match).",
    )
    .inputs(&["http3"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.catch_all_tls() && c.i.http3 {
            let t = &LISTEN_QUIC_CATCH_ALL.texts[0];
            listens(c, out, ServerRole::CatchAllTls, Port::Quic, [t, t]);
        }
    }),
};

pub(super) static RETURN_MISDIRECTED: Rule = Rule {
    name: "return",
    texts: &[Text::new(
        "return.misdirected",
        "A browser may reuse the site's HTTP/2 connection for another host name; such requests land here and get 421 Misdirected Request, so the browser opens a proper connection.",
    )],
    decide: Decide::When {
        when: |c| c.catch_all_tls() && (c.i.behind_lb || c.v.has(Feature::SslRejectHandshake)),
        scope: Scope::Location {
            server: ServerRole::CatchAllTls,
            location: LocationRole::Root,
        },
        args: &["421"],
    },
};

pub(super) static RETURN_CATCH_ALL_TLS: Rule = Rule {
    name: "return",
    texts: &[RETURN_444],
    decide: Decide::When {
        when: |c| c.catch_all_tls() && !c.i.behind_lb && !c.v.has(Feature::SslRejectHandshake),
        scope: CATCH_ALL_TLS,
        args: &["444"],
    },
};

/// The servers that exist for these inputs.
fn servers<'c>(c: &'c Ctx<'c>) -> impl Iterator<Item = ServerRole> + 'c {
    ServerRole::ALL.into_iter().filter(move |s| match s {
        ServerRole::CatchAll => c.catch_all(),
        ServerRole::CatchAllTls => c.catch_all_tls(),
        ServerRole::Site => true,
        ServerRole::SiteTls => c.i.tls,
        ServerRole::Status => false,
    })
}

/// Behind a load balancer, every server answers its health probe, whatever the Host
/// header (often the instance's IP address) or SNI (often none).
fn health(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if c.i.behind_lb {
        for server in servers(c) {
            let scope = Scope::Location {
                server,
                location: LocationRole::Health,
            };
            out.set(scope, args, text);
        }
    }
}

pub(super) static HEALTH_RETURN: Rule = Rule {
    name: "return",
    texts: &[Text::new(
        "return.health",
        "The load balancer's health probe, answered by nginx on every server and port, whatever the Host header or SNI the probe sends; the application's own health shows in its error responses.",
    )
    .inputs(&["behind_lb"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        health(c, out, &["200", "ok"], &HEALTH_RETURN.texts[0]);
    }),
};

pub(super) static HEALTH_TYPE: Rule = Rule {
    name: "default_type",
    texts: &[Text::new(
        "default_type.health",
        "The probe's answer is plain text.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        health(c, out, &["text/plain"], &HEALTH_TYPE.texts[0]);
    }),
};

pub(super) static HEALTH_LOG: Rule = Rule {
    name: "access_log",
    texts: &[Text::new(
        "access_log.health",
        "Probes arrive every few seconds from every load balancer node; logging them buries real requests.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.access_log != AccessLog::Off {
            health(c, out, &["off"], &HEALTH_LOG.texts[0]);
        }
    }),
};

pub(super) static LISTEN_SITE: Rule = Rule {
    name: "listen",
    texts: &[
        Text::new("listen.site", "The site on plain HTTP.").inputs(&["listen"]),
        Text::new("listen.catch_all.fastopen", LISTEN_OPTIONS).inputs(LISTEN_INPUTS),
        LISTEN_OPTIONS_TEXT,
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let t = &LISTEN_SITE.texts;
        listens(c, out, ServerRole::Site, Port::Http, [&t[0], &t[1]]);
    }),
};

const SERVER_NAME_TEXT: Text =
    Text::new("server_name", "The names this site answers to.").inputs(&["server_names"]);

fn server_names(c: &Ctx, out: &mut Out, scope: Scope, text: &Text) {
    let names =
        c.i.server_names
            .iter()
            .map(|n| n.as_str().to_owned().into())
            .collect();
    out.set_args(scope, names, text, None);
}

pub(super) static SERVER_NAME: Rule = Rule {
    name: "server_name",
    texts: &[SERVER_NAME_TEXT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| server_names(c, out, SITE, &SERVER_NAME_TEXT)),
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
    texts: &[Text::new(
        "return.https",
        "Send plain-HTTP visitors to HTTPS, to the same name, port and path; 308 keeps the method and body. Inside location / so that the ACME location above still answers.",
    )
    .inputs(&["tls_port"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let target = if c.i.tls_port == 443 {
            Cow::Borrowed("https://$host$request_uri")
        } else {
            Cow::Owned(format!("https://$host:{}$request_uri", c.i.tls_port))
        };
        let scope = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Root,
        };
        out.set_args(scope, vec!["308".into(), target], &RETURN_HTTPS.texts[0], None);
    }),
};

pub(super) static LISTEN_SITE_TLS: Rule = Rule {
    name: "listen",
    texts: &[
        Text::new(
            "listen.tls",
            "The site on HTTPS; before nginx {Http2Directive} HTTP/2 is switched on here.",
        )
        .inputs(&["tls_port", "nginx_version"]),
        LISTEN_OPTIONS_TEXT,
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls {
            let t = &LISTEN_SITE_TLS.texts[0];
            listens(c, out, ServerRole::SiteTls, Port::Tls, [t, t]);
        }
    }),
};

pub(super) static LISTEN_QUIC_SITE: Rule = Rule {
    name: "listen",
    texts: &[Text::new("listen.quic.site", "The site on HTTP/3.").inputs(&["http3"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls && c.i.http3 {
            let t = &LISTEN_QUIC_SITE.texts[0];
            listens(c, out, ServerRole::SiteTls, Port::Quic, [t, t]);
        }
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

pub(super) static HTTP2: Rule = Rule {
    name: "http2",
    texts: &[Text::new(
        "http2",
        "HTTP/2 for TLS clients; nginx ≥ {Http2Directive} switches it on with this directive (the listen parameter is deprecated).",
    )
    .inputs(&["nginx_version"])],
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
            server_names(c, out, SITE_TLS, &SERVER_NAME_TEXT);
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
            let root =
                c.i.root
                    .as_ref()
                    .map_or(c.i.layout.default_root(), |r| r.as_str());
            let scope = Scope::Server {
                server: c.content_server(),
            };
            out.set_args(scope, vec![root.to_owned().into()], &ROOT.texts[0], None);
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
        } else if serves_files(c) {
            out.set(scope, &["index.html"], &INDEX.texts[0]);
        }
    }),
};

pub(super) static TRY_FILES: Rule = Rule {
    name: "try_files",
    texts: &[
        Text::new(
            "try_files",
            "Serve the file if it exists, otherwise the directory's index, otherwise the application.",
        )
        .inputs(&["workload"]),
        Text::new(
            "omit.try_files",
            "nginx already serves the file, the directory's index or 404; try_files would only add a file lookup to every request (measured 5-10% of throughput on small pages).",
        ),
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
            Workload::Mixed => out.set(root, &["$uri", "$uri/", "@app"], &TRY_FILES.texts[0]),
            Workload::Static => out.omit(root, &TRY_FILES.texts[1]),
            Workload::Php => out.set(
                root,
                &["$uri", "$uri/", "/index.php$is_args$args"],
                &TRY_FILES.texts[2],
            ),
            Workload::Proxy | Workload::Api => {}
        }
    }),
};

pub(super) static HIDDEN: Rule = Rule {
    name: "return",
    texts: &[Text::new(
        "return.hidden",
        "Hidden files (.env, .git/, .htaccess) and editors' and dumps' leftovers (*.bak, *~, *.swp, *.sql) are never served, not even to the application; /.well-known/ stays public. 404 does not confirm they exist.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let scope = Scope::Location {
            server: c.content_server(),
            location: LocationRole::Hidden,
        };
        out.set(scope, &["404"], &HIDDEN.texts[0]);
    }),
};

pub(super) static CLIENT_MAX_BODY_SIZE: Rule = Rule {
    name: "client_max_body_size",
    texts: &[Text::new(
        "client_max_body_size",
        "Request bodies (uploads, form posts) up to this size reach the application; a larger one gets 413 before it is read.",
    )
    .inputs(&["max_body_size"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload.dynamic() {
            let size = c.i.max_body_size;
            let value = size.nginx().unwrap_or_else(|| size.as_u64().to_string());
            let scope = Scope::Server {
                server: c.content_server(),
            };
            out.set_value(scope, value, &CLIENT_MAX_BODY_SIZE.texts[0], None);
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
    texts: &[Text::new(
        "expires",
        "Browsers keep styles, scripts, images and fonts for a week.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            out.set(assets(c), &["7d"], &EXPIRES.texts[0]);
        }
    }),
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
    texts: &[Text::new(
        "try_files.assets",
        "An asset URL with no file on disk (generated images, bundles served by the application) goes to the application instead of 404.",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload == Workload::Mixed {
            out.set(assets(c), &["$uri", "@app"], &ASSET_FALLBACK.texts[0]);
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
    use super::{CATCH_ALL_TLS, SITE, SITE_TLS, STATUS};
    use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
    use crate::rules::testing::{formula, omitted, plan, value, values, values_in};

    const CATCH_ALL: Scope = Scope::Server {
        server: ServerRole::CatchAll,
    };

    fn at(server: ServerRole, location: LocationRole) -> Scope {
        Scope::Location { server, location }
    }

    #[test]
    fn catch_all_owns_the_listen_options_on_every_address() {
        let p = plan("{}");
        assert_eq!(
            values_in(&p, CATCH_ALL, "listen"),
            [
                "80 default_server reuseport backlog=1024 fastopen=256",
                "[::]:80 default_server reuseport backlog=1024 fastopen=256"
            ]
        );
        assert!(
            formula(&p, "listen").starts_with("backlog = pow2(10000 clients / 2 s × 0.2 s) = 1024")
        );
        assert_eq!(
            values_in(&p, at(ServerRole::CatchAll, LocationRole::Root), "return"),
            ["444"]
        );
        assert_eq!(values_in(&p, SITE, "listen"), ["80", "[::]:80"]);
        let v4 = plan(r#"{"listen":["127.0.0.1:8080"]}"#);
        assert_eq!(values_in(&v4, SITE, "listen"), ["127.0.0.1:8080"]);
    }

    #[test]
    fn backlog_bounds_show_in_the_formula() {
        let small = plan(r#"{"vcpu":1,"clients":10}"#);
        assert!(values_in(&small, CATCH_ALL, "listen")[0].contains("backlog=512"));
        assert!(formula(&small, "listen").contains("max(pow2("));
        let big = plan(r#"{"vcpu":64,"ram":"1T","clients":10000000}"#);
        assert!(values_in(&big, CATCH_ALL, "listen")[0].contains("backlog=65535"));
        assert!(formula(&big, "listen").contains("min(pow2("));
    }

    #[test]
    fn one_tls_socket_per_address() {
        let p = plan(r#"{"tls":true,"listen":["80","8080","[::]:80"],"nginx_version":"1.30.0"}"#);
        assert_eq!(values_in(&p, CATCH_ALL, "listen").len(), 3);
        assert_eq!(
            values_in(&p, SITE_TLS, "listen"),
            ["443 ssl", "[::]:443 ssl"]
        );
    }

    #[test]
    fn fast_open_where_the_content_is_served() {
        let plain = plan(r#"{"listen":["80"]}"#);
        assert!(values_in(&plain, CATCH_ALL, "listen")[0].contains("fastopen=256"));
        let tls = plan(r#"{"listen":["80"],"tls":true,"nginx_version":"1.30.0"}"#);
        assert!(!values_in(&tls, CATCH_ALL, "listen")[0].contains("fastopen"));
        assert!(values_in(&tls, CATCH_ALL_TLS, "listen")[0].contains("fastopen=256"));
    }

    #[test]
    fn no_reuseport_below_four_workers_and_no_fastopen_for_proxies() {
        let two = plan(r#"{"vcpu":2,"workload":"proxy"}"#);
        let listen = &values_in(&two, CATCH_ALL, "listen")[0];
        assert!(
            !listen.contains("reuseport") && !listen.contains("fastopen"),
            "{listen}"
        );
    }

    #[test]
    fn tls_catch_all_by_nginx_version() {
        let new = plan(r#"{"tls":true,"nginx_version":"1.26.0","listen":["80"]}"#);
        assert_eq!(
            values_in(&new, CATCH_ALL_TLS, "listen"),
            ["443 ssl default_server reuseport backlog=1024 fastopen=256"]
        );
        let misdirected = at(ServerRole::CatchAllTls, LocationRole::Root);
        assert_eq!(values_in(&new, misdirected, "return"), ["421"]);
        let old = plan(r#"{"tls":true,"nginx_version":"1.18.0","listen":["80"]}"#);
        assert_eq!(
            values_in(&old, CATCH_ALL_TLS, "listen"),
            ["443 ssl http2 default_server reuseport backlog=1024 fastopen=256"]
        );
        assert_eq!(values_in(&old, CATCH_ALL_TLS, "return"), ["444"]);
        assert!(values_in(&old, misdirected, "return").is_empty());
    }

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
    fn health_probe_on_every_server_behind_a_load_balancer() {
        let p = plan(r#"{"behind_lb":true,"tls":true,"workload":"proxy"}"#);
        for server in ServerRole::ALL
            .into_iter()
            .filter(|&s| s != ServerRole::Status)
        {
            let health = at(server, LocationRole::Health);
            assert_eq!(values_in(&p, health, "return"), ["200 ok"], "{server:?}");
            assert_eq!(values_in(&p, health, "default_type"), ["text/plain"]);
            assert_eq!(values_in(&p, health, "access_log"), ["off"]);
        }
        // Probes come without SNI: the TLS catch-all completes the handshake.
        assert!(values(&p, "ssl_reject_handshake").is_empty());
        assert_eq!(values_in(&p, CATCH_ALL_TLS, "ssl_certificate").len(), 1);
        let edge = plan(r#"{"tls":true,"workload":"proxy"}"#);
        let health = at(ServerRole::SiteTls, LocationRole::Health);
        assert!(values_in(&edge, health, "default_type").is_empty());
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
    fn an_existing_default_server_keeps_its_place() {
        let p = plan(r#"{"existing_default_server":true,"listen":["80"]}"#);
        let listen = &values_in(&p, CATCH_ALL, "listen")[0];
        assert!(
            !listen.contains("default_server") && listen.contains("backlog="),
            "{listen}"
        );
        assert!(p.warnings.iter().any(|w| w.id == "existing_default_server"));
    }

    #[test]
    fn hidden_files_are_404_in_every_workload() {
        for workload in ["static", "proxy", "api", "mixed"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert_eq!(
                values_in(&p, at(ServerRole::Site, LocationRole::Hidden), "return"),
                ["404"]
            );
        }
        let re = LocationRole::Hidden.matcher()[1];
        assert!(re.contains("(?!well-known/)"), "{re}");
    }

    #[test]
    fn body_size_where_the_application_reads_bodies() {
        let p = plan(r#"{"workload":"proxy","max_body_size":"2M"}"#);
        assert_eq!(values_in(&p, SITE, "client_max_body_size"), ["2m"]);
        assert!(values(&plan(r#"{"workload":"static"}"#), "client_max_body_size").is_empty());
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
    fn content_by_workload() {
        let s = plan(r#"{"workload":"static","root":"/srv/www"}"#);
        assert_eq!(values_in(&s, SITE, "root"), ["/srv/www"]);
        assert_eq!(value(&s, "index").as_deref(), Some("index.html"));
        assert!(omitted(&s, "try_files"));
        assert_eq!(value(&s, "expires").as_deref(), Some("7d"));
        assert_eq!(values(&s, "access_log")[1], "off");
        let m = plan(r#"{"workload":"mixed"}"#);
        assert_eq!(values(&m, "try_files"), ["$uri $uri/ @app", "$uri @app"]);
        let p = plan(r#"{"workload":"proxy"}"#);
        for name in ["root", "index", "try_files", "expires"] {
            assert!(values(&p, name).is_empty(), "{name}");
        }
        assert!(!omitted(&p, "try_files"));
    }
}
