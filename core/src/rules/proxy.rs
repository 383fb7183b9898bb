//! Proxying to the application: the upstream block and the proxied location.

use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::{Upstream, Workload};
use crate::plan::{LocationRole, Scope, TableRole};
use crate::policy::Feature;
use crate::size::ByteSize;

/// The location that proxies: the named `@app` of the mixed workload, else `/`.
pub(super) fn location(c: &Ctx) -> Scope {
    let location = if c.i.workload == Workload::Mixed {
        LocationRole::App
    } else {
        LocationRole::Root
    };
    Scope::Location {
        server: c.content_server(),
        location,
    }
}

fn proxies(c: &Ctx) -> bool {
    c.i.workload.proxies()
}

/// A size as nginx writes it (`32k`, `4m`), else in bytes.
pub(super) fn size(s: ByteSize) -> String {
    s.nginx().unwrap_or_else(|| s.as_u64().to_string())
}

/// nginx looks this application server's name up again as its DNS answer expires: asked
/// for (`upstream_resolve`, which needs nginx 1.27.3) and a name a DNS server answers
/// (`localhost` is the hosts file's, which nginx's resolver does not read).
pub(super) fn resolves(c: &Ctx, upstream: &Upstream) -> bool {
    c.i.upstream_resolve && proxies(c) && upstream.is_dns_name()
}

/// Some application server is looked up again ([`resolves`]).
pub(super) fn any_resolves(c: &Ctx) -> bool {
    c.i.upstreams.iter().any(|u| resolves(c, u))
}

pub(super) static UPSTREAM_ZONE: Rule = Rule {
    name: "zone",
    texts: &[Text::new(
        "upstream.zone",
        "Looking names up again keeps the servers' addresses in memory all workers share; 1 MiB holds hundreds and is above nginx's smallest zone, eight pages, on every page size (64 KiB pages: 512 KiB).",
    )
    .inputs(&["upstream_resolve", "upstreams"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if any_resolves(c) {
            out.set(Scope::Upstream, &["app", "1m"], &UPSTREAM_ZONE.texts[0]);
        }
    }),
};

pub(super) static UPSTREAM_SERVER: Rule = Rule {
    name: "server",
    texts: &[
        Text::new("upstream.server", "An application server.").inputs(&["upstreams"]),
        Text::new(
            "upstream.server.resolve",
            "An application server by name, looked up again as its DNS answer expires (resolve, since nginx {UpstreamResolve}): a container or service that restarts with a new address gets requests without a reload, and nginx starts before the name resolves (502 until it does), where it used to refuse to start.",
        )
        .inputs(&["upstreams", "upstream_resolve"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) {
            for upstream in &c.i.upstreams {
                if resolves(c, upstream) {
                    let args = vec![upstream.to_string().into(), "resolve".into()];
                    out.set_args(Scope::Upstream, args, &UPSTREAM_SERVER.texts[1], None);
                } else {
                    out.set_value(Scope::Upstream, upstream, &UPSTREAM_SERVER.texts[0], None);
                }
            }
        }
    }),
};

pub(super) static UPSTREAM_RESOLVER: Rule = Rule {
    name: "resolver",
    texts: &[
        Text::new(
            "upstream.resolver",
            "The DNS server asked for the application's names, every 10 s at most whatever TTL it gives (Docker's embedded DNS gives 600 s), so a new address reaches nginx within seconds. nginx's resolver reads neither the hosts file nor search domains: names are given in full.",
        )
        .inputs(&["upstream_resolve", "resolver"]),
        Text::new(
            "upstream.resolver.layout",
            "The layout's DNS server (Docker's embedded one in a container, else systemd-resolved's stub), asked for the application's names every 10 s at most whatever TTL it gives (Docker's gives 600 s), so a new address reaches nginx within seconds; pass --resolver if this host uses another (Podman's is its network's gateway).",
        )
        .inputs(&["upstream_resolve", "layout"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if any_resolves(c) {
            let (server, given) = super::tls::resolver(c);
            let text = &UPSTREAM_RESOLVER.texts[usize::from(!given)];
            out.set_args(Scope::Upstream, vec![server, "valid=10s".into()], text, None);
        }
    }),
};

pub(super) static KEEPALIVE: Rule = Rule {
    name: "keepalive",
    texts: &[Text::new(
        "keepalive",
        "Idle connections to the application kept open per worker, so requests skip the TCP handshake and do not exhaust ephemeral ports.",
    )
    .inputs(&["workload", "clients", "vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(n), Some(f)) = (c.t.upstream_keepalive, &c.t.formulas.upstream_keepalive) {
            out.set_value(Scope::Upstream, n, &KEEPALIVE.texts[0], Some(f.clone()));
        }
    }),
};

/// How long a pooled connection to the application may idle: below the shortest idle
/// timeout of application servers in common use (gunicorn's 2 s).
const UPSTREAM_IDLE: &str = "1s";

pub(super) static UPSTREAM_KEEPALIVE_TIMEOUT: Rule = Rule {
    name: "keepalive_timeout",
    texts: &[Text::new(
        "upstream.keepalive_timeout",
        "A pooled connection to the application is closed after 1 s idle, before the application closes it: application servers close idle connections on their own timer (gunicorn after 2 s, Node.js and uvicorn after 5 s), and a request nginx sends on one as it closes is lost; nginx retries a GET, a POST gets 502. nginx's default keeps them 60 s. Under load they never idle that long; otherwise a new connection costs one TCP handshake.",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.t.upstream_keepalive.is_some() {
            out.set(
                Scope::Upstream,
                &[UPSTREAM_IDLE],
                &UPSTREAM_KEEPALIVE_TIMEOUT.texts[0],
            );
        }
    }),
};

pub(super) static PROXY_READ_TIMEOUT: Rule = Rule {
    name: "proxy_read_timeout",
    texts: &[Text::new(
        "omit.proxy_read_timeout",
        "nginx's 60 s stays: an application that has not answered for a minute gets a 504, not a connection held for long. The same limit closes a WebSocket on which nothing arrives from the application for 60 s; WebSocket servers ping sooner (socket.io every 25 s, the websockets library and Django Channels every 20 s). One that does not needs proxy_read_timeout raised in this location.",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) {
            out.omit(location(c), &PROXY_READ_TIMEOUT.texts[0]);
        }
    }),
};

pub(super) static PROXY_PASS: Rule = Rule {
    name: "proxy_pass",
    texts: &[Text::new(
        "proxy_pass",
        "Hand the request to the application servers of the upstream block.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) {
            out.set(location(c), &["http://app"], &PROXY_PASS.texts[0]);
        }
    }),
};

fn keepalive_by_hand(c: &Ctx) -> bool {
    proxies(c) && !c.v.has(Feature::UpstreamKeepaliveByDefault)
}

pub(super) static PROXY_HTTP_VERSION: Rule = Rule {
    name: "proxy_http_version",
    texts: &[Text::new(
        "proxy_http_version",
        "Upstream keepalive needs HTTP/1.1 before nginx {UpstreamKeepaliveByDefault}.",
    )
    .inputs(&["nginx_version"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if keepalive_by_hand(c) {
            out.set(location(c), &["1.1"], &PROXY_HTTP_VERSION.texts[0]);
        }
    }),
};

/// `proxy_set_header NAME VALUE` in the proxied location.
fn header(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if proxies(c) {
        out.set(location(c), args, text);
    }
}

pub(super) static UPGRADE_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.connection_upgrade",
        "WebSocket requests ask the application for an upgrade; every other request sends no Connection header, so the upstream connection stays in the keepalive pool, and no other protocol's Upgrade header is marked as one to act on (a switch to h2c would let a client speak HTTP/2 to the application past nginx's rules).",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) {
            let scope = Scope::Table {
                table: TableRole::ConnectionUpgrade,
            };
            out.set(
                scope,
                &["$http_upgrade", "$connection_upgrade"],
                &UPGRADE_MAP.texts[0],
            );
        }
    }),
};

pub(super) static FORWARDED_FOR_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.forwarded_for",
        "Through a trusted load balancer (the realip module then changed the address) the application gets the balancer's chain plus the balancer's address; from anyone else only the connection's address, so a client cannot forge the chain.",
    )
    .inputs(&["behind_lb", "trusted_proxies", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) && c.i.forwarded() {
            let scope = Scope::Table {
                table: TableRole::ForwardedFor,
            };
            let args = &["$remote_addr=$realip_remote_addr", "$forwarded_for_chain"];
            out.set(scope, args, &FORWARDED_FOR_MAP.texts[0]);
        }
    }),
};

pub(super) static FORWARDED_SCHEME_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.forwarded_scheme",
        "Through a trusted load balancer that ends TLS, the scheme the client used is the balancer's X-Forwarded-Proto; from anyone else it is this connection's, so an HTTPS-only application neither loops nor trusts a forged header.",
    )
    .inputs(&["behind_lb", "trusted_proxies", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        // PHP gets it too (fastcgi_param HTTPS and REQUEST_SCHEME), and the redirect of
        // the site's other names over plain HTTP.
        if (c.i.workload.dynamic() || !c.aliases().is_empty()) && c.i.forwarded() {
            let scope = Scope::Table {
                table: TableRole::ForwardedScheme,
            };
            let args = &[
                "$remote_addr=$realip_remote_addr=$http_x_forwarded_proto",
                "$forwarded_scheme",
            ];
            out.set(scope, args, &FORWARDED_SCHEME_MAP.texts[0]);
        }
    }),
};

pub(super) static UPGRADE: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
        "proxy_set_header.upgrade",
        "Pass a WebSocket upgrade request on (the header is hop-by-hop, so nginx drops it otherwise).",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        header(c, out, &["Upgrade", "$http_upgrade"], &UPGRADE.texts[0]);
    }),
};

pub(super) static CONNECTION: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
        "proxy_set_header.connection",
        "upgrade for WebSockets; otherwise empty, which keeps the upstream connection open (before nginx {UpstreamKeepaliveByDefault} nginx would send Connection: close).",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        header(
            c,
            out,
            &["Connection", "$connection_upgrade"],
            &CONNECTION.texts[0],
        );
    }),
};

pub(super) static HOST: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
        "proxy_set_header.host",
        "The requested host name as nginx validated it ($http_host could be spoofed), with the port the client asked for when it named one: on a port other than the scheme's own (8443, or one a container publishes), an application that builds an absolute URL (a redirect after sign-in) keeps it instead of sending the client to port 80 or 443.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        header(c, out, &["Host", "$host$client_port"], &HOST.texts[0]);
    }),
};

pub(super) static CLIENT_PORT_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.client_port",
        "The port the client named in its Host header (browsers name none for the scheme's own port), digits only; over HTTP/3, which brings no Host header, the port it connected to. It goes to the application with the host name, into the micro-cache's key, so a page built for one port is never sent to clients of another, and into the redirect of the site's other names.",
    )
    .inputs(&["workload", "cache", "canonical"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) || c.i.cache != crate::inputs::Cache::Off || !c.aliases().is_empty() {
            let scope = Scope::Table {
                table: TableRole::ClientPort,
            };
            let args = &["$http_host|$server_port", "$client_port"];
            out.set(scope, args, &CLIENT_PORT_MAP.texts[0]);
        }
    }),
};

pub(super) static REAL_IP: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
        "proxy_set_header.real_ip",
        "The client's address for the application.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        header(c, out, &["X-Real-IP", "$remote_addr"], &REAL_IP.texts[0]);
    }),
};

pub(super) static FORWARDED_FOR: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
            "proxy_set_header.forwarded_for",
            "The client's address; a chain the client sent itself is dropped, because nothing in front of this server vouches for it.",
        ),
        Text::new(
            "proxy_set_header.forwarded_for.lb",
            "The chain of addresses through the trusted load balancer (see the map of $forwarded_for_chain).",
        )
        .inputs(&["behind_lb", "cdn"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.forwarded() {
            let args = &["X-Forwarded-For", "$forwarded_for_chain"];
            header(c, out, args, &FORWARDED_FOR.texts[1]);
        } else {
            header(c, out, &["X-Forwarded-For", "$remote_addr"], &FORWARDED_FOR.texts[0]);
        }
    }),
};

pub(super) static FORWARDED_PROTO: Rule = Rule {
    name: "proxy_set_header",
    texts: &[Text::new(
            "proxy_set_header.forwarded_proto",
            "Whether the client used HTTPS, for redirects and secure cookies.",
        ),
        Text::new(
            "proxy_set_header.forwarded_proto.lb",
            "Whether the client used HTTPS, as the trusted load balancer says (see the map of $forwarded_scheme).",
        )
        .inputs(&["behind_lb", "cdn"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.forwarded() {
            let args = &["X-Forwarded-Proto", "$forwarded_scheme"];
            header(c, out, args, &FORWARDED_PROTO.texts[1]);
        } else {
            header(c, out, &["X-Forwarded-Proto", "$scheme"], &FORWARDED_PROTO.texts[0]);
        }
    }),
};

pub(super) static PROXY_BUFFER_SIZE: Rule = Rule {
    name: "proxy_buffer_size",
    texts: &[Text::new(
        "proxy_buffer_size",
        "Room for the application's response headers, cookies and tokens included, and up to 32k for the typical response itself: a response that fits here is read and sent from this one buffer. For a 30 KB page through the proxy, 32k measured 4.7% more requests per second than 16k, and 16k 2% less CPU than 8k (docs/benchmarks.md).",
    )
    .inputs(&["response_size", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), Some(f), true) = (c.t.proxy, &c.t.formulas.proxy, proxies(c)) {
            let text = &PROXY_BUFFER_SIZE.texts[0];
            out.set_args(location(c), vec![size(b.header).into()], text, f.header.clone());
        }
    }),
};

pub(super) static PROXY_BUFFERS: Rule = Rule {
    name: "proxy_buffers",
    texts: &[Text::new(
        "proxy_buffers",
        "A typical response body fits in memory, so the upstream is released at once instead of waiting for a slow client; few large buffers read it in one or two calls (measured faster than 8 4k). At most 256 KiB per request stays in memory: the rest of a larger one goes to a temporary file (proxy_max_temp_file_size, 1 GiB by default), still freeing the upstream early.",
    )
    .inputs(&["response_size", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), Some(f), true) = (c.t.proxy, &c.t.formulas.proxy, proxies(c)) {
            let args = vec![b.count.to_string().into(), size(b.size).into()];
            out.set_args(location(c), args, &PROXY_BUFFERS.texts[0], Some(f.buffers.clone()));
        }
    }),
};

pub(super) static PROXY_BUSY_BUFFERS_SIZE: Rule = Rule {
    name: "proxy_busy_buffers_size",
    texts: &[Text::new(
        "proxy_busy_buffers_size",
        "What may be busy sending to the client; nginx requires it between the largest buffer and all buffers but one.",
    )
    .inputs(&["response_size", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), Some(f), true) = (c.t.proxy, &c.t.formulas.proxy, proxies(c)) {
            let text = &PROXY_BUSY_BUFFERS_SIZE.texts[0];
            out.set_args(location(c), vec![size(b.busy).into()], text, Some(f.busy.clone()));
        }
    }),
};

pub(super) static PROXY_CONNECT_TIMEOUT: Rule = Rule {
    name: "proxy_connect_timeout",
    texts: &[Text::new(
        "proxy_connect_timeout",
        "Fail over to the next application server quickly when one does not accept connections.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxies(c) {
            out.set(location(c), &["5s"], &PROXY_CONNECT_TIMEOUT.texts[0]);
        }
    }),
};

#[cfg(test)]
mod tests {
    use super::UPSTREAM_IDLE;
    use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
    use crate::rules::testing::{formula, omitted, plan, value, values, values_in};

    #[test]
    fn upstream_servers_and_keepalive() {
        let p = plan(r#"{"workload":"proxy","upstreams":["127.0.0.1:3000","127.0.0.1:3001"]}"#);
        assert_eq!(values(&p, "server"), ["127.0.0.1:3000", "127.0.0.1:3001"]);
        assert_eq!(value(&p, "keepalive").as_deref(), Some("64"));
        assert_eq!(
            formula(&p, "keepalive"),
            "1.2 × 4000 clients / 4 workers × 5% in flight, rounded up to 8 = 64"
        );
        assert!(values(&plan("{}"), "server").is_empty());
    }

    #[test]
    fn names_are_looked_up_again_when_asked() {
        let resolve = |upstreams: &str, more: &str| {
            plan(&format!(
                r#"{{"workload":"proxy","upstream_resolve":true,"upstreams":{upstreams}{more}}}"#
            ))
        };
        let p = resolve(r#"["app:3000","10.0.0.2:3000","localhost:3001"]"#, "");
        // The name only: an address needs no lookup, localhost is the hosts file's.
        assert_eq!(
            values(&p, "server"),
            ["app:3000 resolve", "10.0.0.2:3000", "localhost:3001"]
        );
        // 1 MiB: at least eight pages of 64 KiB, nginx's smallest zone on such kernels.
        assert_eq!(value(&p, "zone").as_deref(), Some("app 1m"));
        assert_eq!(
            value(&p, "resolver").as_deref(),
            Some("127.0.0.53 valid=10s")
        );
        // `any` becomes the first nginx that can.
        assert_eq!(p.inputs.versions().nginx.to_string(), "1.27.3");
        // localhost is still looked up once: the warning stays for it.
        assert!(p.warnings.iter().any(|w| w.id == "upstream_dns"));
        let docker = resolve(r#"["app:3000"]"#, r#","layout":"docker""#);
        assert_eq!(
            value(&docker, "resolver").as_deref(),
            Some("127.0.0.11 valid=10s")
        );
        assert!(!docker.warnings.iter().any(|w| w.id == "upstream_dns"));
        let given = resolve(
            r#"["app.svc.cluster.local:80"]"#,
            r#","resolver":"10.96.0.10""#,
        );
        assert_eq!(
            value(&given, "resolver").as_deref(),
            Some("10.96.0.10 valid=10s")
        );
        // Not asked: resolved once, as nginx always did, with the warning.
        let once = plan(r#"{"workload":"proxy","upstreams":["app:3000"],"layout":"docker"}"#);
        assert_eq!(values(&once, "server"), ["app:3000"]);
        assert_eq!(value(&once, "zone"), None);
        assert_eq!(value(&once, "resolver"), None);
        assert!(once.warnings.iter().any(|w| w.id == "upstream_dns"));
    }

    #[test]
    fn keepalive_bounds() {
        let tiny = plan(r#"{"workload":"proxy","vcpu":1,"clients":10}"#);
        assert_eq!(value(&tiny, "keepalive").as_deref(), Some("8"));
        let big = plan(r#"{"workload":"api","vcpu":1,"ram":"1T","clients":1000000}"#);
        assert_eq!(value(&big, "keepalive").as_deref(), Some("512"));
        assert!(formula(&big, "keepalive").starts_with("min("));
        let mixed = plan(r#"{"workload":"mixed","vcpu":16,"ram":"32G"}"#);
        assert!(formula(&mixed, "keepalive").contains("× 0.5 proxied"));
    }

    #[test]
    fn pooled_connections_close_before_the_application_does() {
        for workload in ["proxy", "api", "mixed"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert_eq!(
                values_in(&p, Scope::Upstream, "keepalive_timeout"),
                [UPSTREAM_IDLE],
                "{workload}"
            );
        }
        // No pool, no timeout: files and PHP-FPM.
        for workload in ["static", "php"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert!(values_in(&p, Scope::Upstream, "keepalive_timeout").is_empty());
        }
    }

    #[test]
    fn the_read_timeout_stays_nginx_s_and_says_why() {
        for workload in ["proxy", "api", "mixed"] {
            let p = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert!(omitted(&p, "proxy_read_timeout"), "{workload}");
            assert!(values(&p, "proxy_read_timeout").is_empty());
        }
        assert!(!omitted(
            &plan(r#"{"workload":"php"}"#),
            "proxy_read_timeout"
        ));
    }

    #[test]
    fn proxied_location_by_workload() {
        let mixed = plan(r#"{"workload":"mixed"}"#);
        let app = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::App,
        };
        assert_eq!(values_in(&mixed, app, "proxy_pass"), ["http://app"]);
        let api = plan(r#"{"workload":"api","tls":true}"#);
        let root = Scope::Location {
            server: ServerRole::SiteTls,
            location: LocationRole::Root,
        };
        assert_eq!(values_in(&api, root, "proxy_pass"), ["http://app"]);
        assert_eq!(value(&api, "proxy_connect_timeout").as_deref(), Some("5s"));
    }

    #[test]
    fn http_1_1_by_hand_only_before_1_29_7() {
        let old = plan(r#"{"workload":"proxy","nginx_version":"1.29.6"}"#);
        assert_eq!(value(&old, "proxy_http_version").as_deref(), Some("1.1"));
        let new = plan(r#"{"workload":"proxy","nginx_version":"1.29.7"}"#);
        assert_eq!(value(&new, "proxy_http_version"), None);
    }

    #[test]
    fn websocket_upgrade_and_keepalive_share_one_connection_header() {
        for version in ["1.22.1", "1.29.6", "1.30.0"] {
            let p = plan(&format!(
                r#"{{"workload":"proxy","nginx_version":"{version}"}}"#
            ));
            let headers = values(&p, "proxy_set_header");
            assert_eq!(
                headers[..2],
                ["Upgrade $http_upgrade", "Connection $connection_upgrade"]
            );
            let upgrade = Scope::Table {
                table: TableRole::ConnectionUpgrade,
            };
            assert_eq!(
                values_in(&p, upgrade, "map"),
                ["$http_upgrade $connection_upgrade"]
            );
        }
        let static_site = plan(r#"{"workload":"static"}"#);
        let upgrade = Scope::Table {
            table: TableRole::ConnectionUpgrade,
        };
        assert!(values_in(&static_site, upgrade, "map").is_empty());
    }

    #[test]
    fn forwarded_headers_at_the_edge_ignore_the_client_s_own() {
        let p = plan(r#"{"workload":"proxy"}"#);
        assert_eq!(
            values(&p, "proxy_set_header")[2..],
            [
                "Host $host$client_port",
                "X-Real-IP $remote_addr",
                "X-Forwarded-For $remote_addr",
                "X-Forwarded-Proto $scheme"
            ]
        );
        // The WebSocket upgrade and the port the client named.
        assert_eq!(values(&p, "map").len(), 2);
    }

    #[test]
    fn the_port_the_client_named_reaches_the_application_in_host() {
        let p = plan(r#"{"workload":"proxy","listen":["80","8080"],"behind_lb":true}"#);
        assert!(values(&p, "proxy_set_header").contains(&"Host $host$client_port".to_owned()));
        let port = Scope::Table {
            table: TableRole::ClientPort,
        };
        assert_eq!(
            values_in(&p, port, "map"),
            ["$http_host|$server_port $client_port"]
        );
        // The rows, as nginx's PCRE reads them (the same syntax in Rust's regex crate is
        // not at hand: the cases are the point).
        let rows = TableRole::ClientPort.rows();
        assert_eq!(rows[1].0, r"~(:[0-9]+)\|");
        assert_eq!(rows[2], (r"~^\|(?!(?:80|443)$)([0-9]+)$", &[":$1"][..]));
        // PHP passes the client's Host itself: the map only for the micro-cache's key.
        assert!(values_in(&plan(r#"{"workload":"php"}"#), port, "map").is_empty());
        let cached = plan(r#"{"workload":"php","cache":"micro"}"#);
        assert_eq!(values_in(&cached, port, "map").len(), 1);
        assert!(values_in(&plan("{}"), port, "map").is_empty());
    }

    #[test]
    fn forwarded_headers_behind_a_load_balancer_come_from_it_only() {
        let p = plan(r#"{"workload":"api","behind_lb":true}"#);
        let headers = values(&p, "proxy_set_header");
        assert!(headers.contains(&"X-Forwarded-For $forwarded_for_chain".to_owned()));
        assert!(headers.contains(&"X-Forwarded-Proto $forwarded_scheme".to_owned()));
        let chain = Scope::Table {
            table: TableRole::ForwardedFor,
        };
        assert_eq!(
            values_in(&p, chain, "map"),
            ["$remote_addr=$realip_remote_addr $forwarded_for_chain"]
        );
        let scheme = Scope::Table {
            table: TableRole::ForwardedScheme,
        };
        assert_eq!(values_in(&p, scheme, "map").len(), 1);
        // The rows compare the two addresses: equal means realip did not trust the peer.
        assert!(TableRole::ForwardedFor.rows()[0].0.contains(r"\1"));
    }

    /// The keepalive pool is used on every version below the gate: 1.25-1.29.6 (Debian 13's
    /// 1.26.3 among them) and the portable form write both settings, 1.29.7 on neither.
    #[test]
    fn keepalive_headers_on_every_version_below_the_gate() {
        for version in ["1.18.0", "1.22.1", "1.25.0", "1.26.3", "1.29.6", "any"] {
            let p = plan(&format!(
                r#"{{"workload":"api","nginx_version":"{version}"}}"#
            ));
            assert_eq!(
                value(&p, "proxy_http_version").as_deref(),
                Some("1.1"),
                "{version}"
            );
            assert_eq!(
                values(&p, "proxy_set_header")[1],
                "Connection $connection_upgrade",
                "{version}"
            );
        }
        for release in ["debian-13", "ubuntu-24.04", "rhel-10"] {
            let p = plan(&format!(r#"{{"workload":"mixed","release":"{release}"}}"#));
            assert_eq!(values(&p, "proxy_http_version"), ["1.1"], "{release}");
        }
        for version in ["1.29.7", "1.30.0", "1.31.0"] {
            let p = plan(&format!(
                r#"{{"workload":"proxy","nginx_version":"{version}"}}"#
            ));
            assert_eq!(value(&p, "proxy_http_version"), None, "{version}");
        }
        let mainline = plan(r#"{"workload":"proxy","release":"nginx-org-mainline"}"#);
        assert_eq!(value(&mainline, "proxy_http_version"), None);
        // Given versions win over the release's.
        let given =
            plan(r#"{"workload":"proxy","release":"nginx-org-mainline","nginx_version":"1.29.6"}"#);
        assert_eq!(value(&given, "proxy_http_version").as_deref(), Some("1.1"));
    }

    #[test]
    fn buffers_fit_the_response_and_say_where_they_are_capped() {
        let p = plan(r#"{"workload":"proxy","response_size":"32K"}"#);
        assert_eq!(value(&p, "proxy_buffer_size").as_deref(), Some("32k"));
        assert_eq!(
            formula(&p, "proxy_buffer_size"),
            "clamp(pow2(32K), 16k, 32k) = 32k"
        );
        assert_eq!(value(&p, "proxy_buffers").as_deref(), Some("4 32k"));
        assert_eq!(value(&p, "proxy_busy_buffers_size").as_deref(), Some("64k"));
        assert_eq!(
            formula(&p, "proxy_busy_buffers_size"),
            "clamp(2 × 32k, 32k, (4 − 1) × 32k) = 64k"
        );
        // A large response is not held in memory: 256 KiB of it is, the rest goes through
        // a temporary file.
        let big = plan(r#"{"workload":"proxy","response_size":"4M"}"#);
        assert_eq!(value(&big, "proxy_buffers").as_deref(), Some("8 32k"));
        let f = formula(&big, "proxy_buffers");
        assert!(f.contains("min(max(ceil(4M / 32k) + 1, 4), 8 max)"), "{f}");
        assert!(f.ends_with("= 8"), "{f}");
        assert!(p.capacity.client_bytes < big.capacity.client_bytes);
    }

    #[test]
    fn the_first_buffer_holds_the_typical_response_between_16k_and_32k() {
        for (response, first) in [
            ("1K", "16k"),
            ("16K", "16k"),
            ("17K", "32k"),
            ("32K", "32k"),
            ("4M", "32k"),
        ] {
            let p = plan(&format!(
                r#"{{"workload":"proxy","response_size":"{response}"}}"#
            ));
            assert_eq!(
                value(&p, "proxy_buffer_size").as_deref(),
                Some(first),
                "{response}"
            );
            let f = formula(&p, "proxy_buffer_size");
            assert!(
                f.starts_with(&format!("clamp(pow2({response}), 16k, 32k)")),
                "{f}"
            );
        }
        // PHP's FastCGI buffer was not measured: it stays at 16k, with no formula.
        let php = plan(r#"{"workload":"php","response_size":"32K"}"#);
        assert_eq!(value(&php, "fastcgi_buffer_size").as_deref(), Some("16k"));
    }
}
