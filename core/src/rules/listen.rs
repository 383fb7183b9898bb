//! The listen sockets: one `listen` per address of `--listen` on each server, the
//! catch-all servers that own the options nginx allows once per address and port, and the
//! load balancer's health probe on every server.

use std::borrow::Cow;

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::digits::keyed;
use crate::inputs::AccessLog;
use crate::plan::{LocationRole, Scope, ServerRole};
use crate::policy::Feature;

pub(super) const CATCH_ALL_TLS: Scope = Scope::Server {
    server: ServerRole::CatchAllTls,
};
pub(super) const SITE: Scope = Scope::Server {
    server: ServerRole::Site,
};
pub(super) const SITE_TLS: Scope = Scope::Server {
    server: ServerRole::SiteTls,
};

const LISTEN_OPTIONS: &str = "Options that apply to the whole address and port, set once on the catch-all server. deferred (TCP_DEFER_ACCEPT) wakes nginx only when a connection's first bytes arrive, and the request is read at once: measured 1.26× the new connections per second at 50 clients (a quarter less CPU per connection). Until then the connection waits in the listen queue (backlog), so the queue is at least the kernel's default cap, larger for a reconnect storm, paired with net.core.somaxconn: with 1000 clients connecting at once, p99 was 18 ms at 4096 and 69 ms at 512. reuseport, where written, gives each worker its own queue";
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
    args.push("deferred".into());
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
        ServerRole::Alias => !c.aliases().is_empty(),
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

pub(super) static LISTEN_ALIAS: Rule = Rule {
    name: "listen",
    texts: &[Text::new(
        "listen.alias",
        "The site's other names on its own port: HTTPS with TLS (plain HTTP redirects every name to HTTPS on the first at once), else plain HTTP.",
    )
    .inputs(&["canonical", "tls", "listen", "tls_port"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.aliases().is_empty() {
            let t = &LISTEN_ALIAS.texts[0];
            let port = if c.i.tls { Port::Tls } else { Port::Http };
            listens(c, out, ServerRole::Alias, port, [t, t]);
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

#[cfg(test)]
mod tests {
    use super::{CATCH_ALL_TLS, SITE, SITE_TLS};
    use crate::plan::{LocationRole, ServerRole};
    use crate::rules::testing::{CATCH_ALL, at, formula, plan, values, values_in};

    #[test]
    fn catch_all_owns_the_listen_options_on_every_address() {
        let p = plan("{}");
        assert_eq!(
            values_in(&p, CATCH_ALL, "listen"),
            [
                "80 default_server reuseport deferred backlog=4096 fastopen=256",
                "[::]:80 default_server reuseport deferred backlog=4096 fastopen=256"
            ]
        );
        assert!(formula(&p, "listen").starts_with(
            "backlog = max(pow2(10000 clients / 2 s × 0.2 s), somaxconn 4096) = 4096"
        ));
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
        assert!(values_in(&small, CATCH_ALL, "listen")[0].contains("backlog=4096"));
        assert!(formula(&small, "listen").contains("max(pow2("));
        let many = plan(r#"{"vcpu":8,"ram":"64G","clients":100000}"#);
        assert!(values_in(&many, CATCH_ALL, "listen")[0].contains("backlog=16384"));
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
    fn deferred_accept_on_every_tcp_port_never_on_quic() {
        let p = plan(r#"{"tls":true,"http3":true,"nginx_version":"1.30.0","listen":["80"]}"#);
        let owned: Vec<String> = values_in(&p, CATCH_ALL, "listen")
            .into_iter()
            .chain(values_in(&p, CATCH_ALL_TLS, "listen"))
            .collect();
        let (quic, tcp): (Vec<_>, Vec<_>) = owned.iter().partition(|l| l.contains(" quic"));
        assert_eq!((quic.len(), tcp.len()), (1, 2), "{owned:?}");
        assert!(tcp.iter().all(|l| l.contains(" deferred ")), "{tcp:?}");
        assert!(!quic[0].contains("deferred"), "{}", quic[0]);
        // Only the catch-all, which owns the port's options, writes it.
        assert!(
            values_in(&p, SITE, "listen")
                .iter()
                .all(|l| !l.contains("deferred"))
        );
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
            ["443 ssl default_server reuseport deferred backlog=4096 fastopen=256"]
        );
        let misdirected = at(ServerRole::CatchAllTls, LocationRole::Root);
        assert_eq!(values_in(&new, misdirected, "return"), ["421"]);
        let old = plan(r#"{"tls":true,"nginx_version":"1.18.0","listen":["80"]}"#);
        assert_eq!(
            values_in(&old, CATCH_ALL_TLS, "listen"),
            ["443 ssl http2 default_server reuseport deferred backlog=4096 fastopen=256"]
        );
        assert_eq!(values_in(&old, CATCH_ALL_TLS, "return"), ["444"]);
        assert!(values_in(&old, misdirected, "return").is_empty());
    }

    #[test]
    fn health_probe_on_every_server_behind_a_load_balancer() {
        let p = plan(
            r#"{"behind_lb":true,"tls":true,"workload":"proxy","canonical":true,"server_names":["a.example","www.a.example"]}"#,
        );
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
    fn an_existing_default_server_keeps_its_place() {
        let p = plan(r#"{"existing_default_server":true,"listen":["80"]}"#);
        let listen = &values_in(&p, CATCH_ALL, "listen")[0];
        assert!(
            !listen.contains("default_server") && listen.contains("backlog="),
            "{listen}"
        );
        assert!(p.warnings.iter().any(|w| w.id == "existing_default_server"));
    }
}
