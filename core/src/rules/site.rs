//! The site file's servers: the catch-alls that own the listen options, the site on HTTP
//! and HTTPS, and its document root and locations.

use std::borrow::Cow;

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::Workload;
use crate::plan::{LocationRole, Scope, ServerRole};
use crate::policy::Feature;

const CATCH_ALL: Scope = Scope::Server {
    server: ServerRole::CatchAll,
};
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

/// The listen options nginx allows once per address and port, written on the catch-all
/// server that owns the port, with the formula of the backlog (and Fast Open's queue).
fn listen_options(c: &Ctx, args: &mut Vec<Cow<'static, str>>, tls: bool) -> (Formula, bool) {
    let t = c.t;
    args.push("default_server".into());
    if t.reuseport {
        args.push("reuseport".into());
    }
    args.push(format!("backlog={}", t.backlog).into());
    let mut f = t.formulas.backlog.clone();
    let fastopen = match (t.fastopen, tls) {
        (Some(queue), false) => {
            args.push(format!("fastopen={queue}").into());
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
        Text::new("listen.catch_all", LISTEN_OPTIONS).inputs(LISTEN_INPUTS),
        Text::new("listen.catch_all.fastopen", LISTEN_OPTIONS).inputs(LISTEN_INPUTS),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        // The address and at most four options.
        let mut args = Vec::with_capacity(5);
        args.push(c.i.listen.to_string().into());
        let (f, fastopen) = listen_options(c, &mut args, false);
        let text = &LISTEN_CATCH_ALL.texts[usize::from(fastopen)];
        out.set_args(CATCH_ALL, args, text, Some(f));
    }),
};

const RETURN_444: Text = Text::new(
    "return.catch_all",
    "Close connections for host names this server does not serve, instead of showing the first site to scanners.",
);

pub(super) static RETURN_CATCH_ALL: Rule = Rule {
    name: "return",
    texts: &[RETURN_444],
    decide: Decide::Fixed {
        scope: CATCH_ALL,
        args: &["444"],
    },
};

pub(super) static LISTEN_CATCH_ALL_TLS: Rule = Rule {
    name: "listen",
    texts: &[Text::new("listen.catch_all", LISTEN_OPTIONS).inputs(LISTEN_INPUTS)],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        // The address, `ssl`, `http2` and at most three options.
        let mut args = Vec::with_capacity(6);
        args.push(c.i.listen.with_port(c.i.tls_port).into());
        args.push("ssl".into());
        if !c.v.has(Feature::Http2Directive) {
            args.push("http2".into());
        }
        let (f, _) = listen_options(c, &mut args, true);
        out.set_args(CATCH_ALL_TLS, args, &LISTEN_CATCH_ALL_TLS.texts[0], Some(f));
    }),
};

pub(super) static LISTEN_QUIC_CATCH_ALL: Rule = Rule {
    name: "listen",
    texts: &[Text::new(
        "listen.quic",
        "HTTP/3 over UDP on the same port; reuseport is required for QUIC with several workers.",
    )
    .inputs(&["http3"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls && c.i.http3 {
            let port = c.i.listen.with_port(c.i.tls_port);
            let args = vec![
                port.into(),
                "quic".into(),
                "default_server".into(),
                "reuseport".into(),
            ];
            out.set_args(CATCH_ALL_TLS, args, &LISTEN_QUIC_CATCH_ALL.texts[0], None);
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
        when: |c| c.i.tls && c.v.has(Feature::SslRejectHandshake),
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
        when: |c| c.i.tls && !c.v.has(Feature::SslRejectHandshake),
        scope: CATCH_ALL_TLS,
        args: &["444"],
    },
};

pub(super) static LISTEN_SITE: Rule = Rule {
    name: "listen",
    texts: &[Text::new("listen.site", "The site on plain HTTP.").inputs(&["listen"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        out.set_args(
            SITE,
            vec![c.i.listen.to_string().into()],
            &LISTEN_SITE.texts[0],
            None,
        );
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
        "Let ACME HTTP-01 challenges through on plain HTTP so certificates renew.",
    )],
    decide: Decide::When {
        when: |c| c.i.tls,
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
        "Send plain-HTTP visitors to HTTPS; 308 keeps the method and body.",
    )],
    decide: Decide::When {
        when: |c| c.i.tls,
        scope: SITE,
        args: &["308", "https://$host$request_uri"],
    },
};

pub(super) static LISTEN_SITE_TLS: Rule = Rule {
    name: "listen",
    texts: &[Text::new(
        "listen.tls",
        "The site on HTTPS; before nginx {Http2Directive} HTTP/2 is switched on here.",
    )
    .inputs(&["tls_port", "nginx_version"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let mut args = vec![c.i.listen.with_port(c.i.tls_port).into(), "ssl".into()];
        if !c.v.has(Feature::Http2Directive) {
            args.push("http2".into());
        }
        out.set_args(SITE_TLS, args, &LISTEN_SITE_TLS.texts[0], None);
    }),
};

pub(super) static LISTEN_QUIC_SITE: Rule = Rule {
    name: "listen",
    texts: &[Text::new("listen.quic.site", "The site on HTTP/3.").inputs(&["http3"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls && c.i.http3 {
            let args = vec![c.i.listen.with_port(c.i.tls_port).into(), "quic".into()];
            out.set_args(SITE_TLS, args, &LISTEN_QUIC_SITE.texts[0], None);
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
    texts: &[Text::new("index", "The file served for a directory.")],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if serves_files(c) {
            out.set(
                Scope::Server {
                    server: c.content_server(),
                },
                &["index.html"],
                &INDEX.texts[0],
            );
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
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let root = Scope::Location {
            server: c.content_server(),
            location: LocationRole::Root,
        };
        match c.i.workload {
            Workload::Mixed => out.set(root, &["$uri", "$uri/", "@app"], &TRY_FILES.texts[0]),
            Workload::Static => out.omit(root, &TRY_FILES.texts[1]),
            Workload::Proxy | Workload::Api => {}
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
        if serves_files(c) {
            out.set(assets(c), &["off"], &ACCESS_LOG_ASSETS.texts[0]);
        }
    }),
};

#[cfg(test)]
mod tests {
    use super::{CATCH_ALL, CATCH_ALL_TLS, SITE, SITE_TLS};
    use crate::plan::{LocationRole, Scope, ServerRole};
    use crate::rules::testing::{formula, omitted, plan, value, values, values_in};

    #[test]
    fn catch_all_owns_the_listen_options() {
        let p = plan("{}");
        assert_eq!(
            values_in(&p, CATCH_ALL, "listen"),
            ["80 default_server reuseport backlog=1024 fastopen=256"]
        );
        assert_eq!(
            formula(&p, "listen"),
            "backlog = pow2(10000 clients / 2 s × 0.2 s) = 1024; fastopen = 256"
        );
        assert_eq!(values_in(&p, CATCH_ALL, "return"), ["444"]);
        assert_eq!(values_in(&p, SITE, "listen"), ["80"]);
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
        let new = plan(r#"{"tls":true,"nginx_version":"1.26.0"}"#);
        assert_eq!(
            values_in(&new, CATCH_ALL_TLS, "listen"),
            ["443 ssl default_server reuseport backlog=1024"]
        );
        let misdirected = Scope::Location {
            server: ServerRole::CatchAllTls,
            location: LocationRole::Root,
        };
        assert_eq!(values_in(&new, misdirected, "return"), ["421"]);
        let old = plan(r#"{"tls":true,"nginx_version":"1.18.0"}"#);
        assert_eq!(
            values_in(&old, CATCH_ALL_TLS, "listen"),
            ["443 ssl http2 default_server reuseport backlog=1024"]
        );
        assert_eq!(values_in(&old, CATCH_ALL_TLS, "return"), ["444"]);
        assert!(values_in(&old, misdirected, "return").is_empty());
    }

    #[test]
    fn quic_listeners_only_with_http3() {
        let h3 = plan(r#"{"tls":true,"http3":true,"nginx_version":"1.26.0"}"#);
        assert_eq!(
            values_in(&h3, CATCH_ALL_TLS, "listen")[1],
            "443 quic default_server reuseport"
        );
        assert_eq!(values_in(&h3, SITE_TLS, "listen"), ["443 ssl", "443 quic"]);
        assert_eq!(value(&h3, "http3").as_deref(), Some("on"));
        let h2 = plan(r#"{"tls":true,"nginx_version":"1.26.0"}"#);
        assert_eq!(values_in(&h2, SITE_TLS, "listen"), ["443 ssl"]);
        assert_eq!(value(&h2, "http3"), None);
    }

    #[test]
    fn http2_directive_from_1_25_1() {
        assert_eq!(
            value(&plan(r#"{"tls":true,"nginx_version":"1.25.1"}"#), "http2").as_deref(),
            Some("on")
        );
        let old = plan(r#"{"tls":true,"nginx_version":"1.25.0"}"#);
        assert_eq!(value(&old, "http2"), None);
        assert_eq!(values_in(&old, SITE_TLS, "listen"), ["443 ssl http2"]);
    }

    #[test]
    fn tls_site_redirects_and_keeps_acme() {
        let p = plan(r#"{"tls":true,"server_names":["example.com","www.example.com"]}"#);
        assert_eq!(
            values_in(&p, SITE, "return"),
            ["308 https://$host$request_uri"]
        );
        let acme = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Acme,
        };
        assert_eq!(values_in(&p, acme, "root"), ["/var/www/_letsencrypt"]);
        assert_eq!(
            values(&p, "server_name"),
            ["example.com www.example.com", "example.com www.example.com"]
        );
        // Content moves to the HTTPS server.
        assert_eq!(values_in(&p, SITE_TLS, "root"), ["/var/www/html"]);
        assert!(values_in(&p, SITE, "root").is_empty());
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
        assert_eq!(value(&m, "try_files").as_deref(), Some("$uri $uri/ @app"));
        let p = plan(r#"{"workload":"proxy"}"#);
        for name in ["root", "index", "try_files", "expires"] {
            assert!(values(&p, name).is_empty(), "{name}");
        }
        assert!(!omitted(&p, "try_files"));
    }
}
