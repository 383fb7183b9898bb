//! Rate and connection limits per client address (`--rate-limit`): the zones at http
//! level, the limits on the server that serves the content (on a mixed or php site in the
//! locations that reach the application or PHP), 429 for both, shorter client timeouts.
//! The key is `$binary_remote_addr`, which the realip module has already set to the real
//! client behind a trusted balancer, CDN or PROXY protocol, and never to a header from
//! anyone else; where nginx answers asset URIs itself, they are not counted
//! (`$limit_client` on a static site; on a mixed or php site, no limit in the assets'
//! location).

use std::borrow::Cow;

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::{SafePath, Workload};
use crate::plan::{LocationRole, Scope, TableRole};
use crate::tuning::rate::{CLIENT_TIMEOUT_SECONDS, PATH_BURST, PATH_RATE, RateLimits};

const H: Scope = Scope::Http;

fn limits(c: &Ctx) -> Option<RateLimits> {
    c.i.rate_limit
        .then(|| RateLimits::compute(c.i, c.t.clients))
}

/// Asset URIs go uncounted by the key where nginx answers them itself and none reaches an
/// application: static sites. A mixed or php site's missing asset reaches the application
/// (or `index.php`), and a script's path info may end like an asset (`/index.php/a.js`):
/// there the assets go uncounted by where the limits are ([`limited`]) instead, and every
/// URI the application answers counts, so a `/login.js` cannot skip the limits.
fn exempts_assets(c: &Ctx) -> bool {
    c.i.workload == Workload::Static
}

/// The zones' key.
fn client_key(c: &Ctx) -> &'static str {
    if exempts_assets(c) {
        "$limit_client"
    } else {
        "$binary_remote_addr"
    }
}

/// Where the limits are. Static, proxy and api sites: the server that serves the content.
/// A mixed site: `/` and the application's location, a php site: `/` and PHP's location,
/// not the assets': an asset on disk goes uncounted, a missing one falls back to the
/// application and counts there. nginx counts a request once, in the first location with
/// limits it reaches, so a page that falls back from `/` is not counted twice.
fn limited(c: &Ctx) -> Vec<Scope> {
    let server = c.content_server();
    let app = match c.i.workload {
        Workload::Mixed => LocationRole::App,
        Workload::Php => LocationRole::Php,
        _ => return vec![Scope::Server { server }],
    };
    [LocationRole::Root, app]
        .map(|location| Scope::Location { server, location })
        .to_vec()
}

/// Writes one limit in every place [`limited`] names; a mixed and a php site's have the
/// reasons that say where (`texts[1]`, `texts[2]`).
fn set_limit(
    c: &Ctx,
    out: &mut Out,
    args: &[Cow<'static, str>],
    texts: &[Text],
    formula: Option<&Formula>,
) {
    let text = match (texts, c.i.workload) {
        ([_, mixed, ..], Workload::Mixed) => mixed,
        ([_, _, php], Workload::Php) => php,
        ([text, ..], _) => text,
        ([], _) => return,
    };
    for scope in limited(c) {
        out.set_args(scope, args.to_vec(), text, formula.cloned());
    }
}

pub(super) static LIMIT_CLIENT_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.limit_client",
        "The client's address, except for a URI with an asset's extension (the assets' location's pattern), which neither limit counts: a page asks for dozens at once, and over HTTP/2 each request in flight counts as a connection. Only where nginx answers such URIs itself (a static site); an application's URIs all count, so a /login.js cannot skip the limits.",
    )
    .inputs(&["rate_limit", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if limits(c).is_some() && exempts_assets(c) {
            let scope = Scope::Table {
                table: TableRole::LimitClient,
            };
            out.set(scope, &["$uri", "$limit_client"], &LIMIT_CLIENT_MAP.texts[0]);
        }
    }),
};

pub(super) static LIMIT_REQ_ZONE: Rule = Rule {
    name: "limit_req_zone",
    texts: &[Text::new(
        "limit_req_zone",
        "Requests per client address: the rate one client of this workload needs (its connections, each loading a page's requests), in a zone that holds a state (128 bytes) for every planned client's address.",
    )
    .inputs(&["rate_limit", "workload", "clients", "vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(l) = limits(c) {
            let args = vec![
                client_key(c).into(),
                format!("zone=req_client:{}m", l.req_zone_mib).into(),
                format!("rate={}r/s", l.rate).into(),
            ];
            out.set_args(H, args, &LIMIT_REQ_ZONE.texts[0], Some(l.formulas[0].clone()));
        }
    }),
};

/// The stricter paths' limits apply: some are named (with or without the general ones).
fn paths(c: &Ctx) -> Option<RateLimits> {
    c.i.limit_paths
        .is_some()
        .then(|| RateLimits::compute(c.i, c.t.clients))
}

/// Some limit answers: the general ones or the named paths'.
fn any_limit(c: &Ctx) -> bool {
    c.i.rate_limit || c.i.limit_paths.is_some()
}

pub(super) static LIMIT_PATH_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.limit_path",
        "The client's address for a URI under one of the named paths, else empty, which the stricter zone does not count: the named prefixes, `>` and the URI, matched by a back-reference (no path can contain `|` or `>`).",
    )
    .inputs(&["limit_paths"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if paths(c).is_some() {
            let named = c.i.limit_paths.as_deref().unwrap_or_default();
            let prefixes: Vec<&str> = named.iter().map(SafePath::as_str).collect();
            let source = format!("{}>$uri", prefixes.join("|"));
            let scope = Scope::Table {
                table: TableRole::LimitPath,
            };
            let args = vec![source.into(), "$limit_path_key".into()];
            out.set_args(scope, args, &LIMIT_PATH_MAP.texts[0], None);
        }
    }),
};

pub(super) static LIMIT_REQ_ZONE_PATHS: Rule = Rule {
    name: "limit_req_zone",
    texts: &[Text::new(
        "limit_req_zone.paths",
        "The stricter rate of the named paths (sign-in, an expensive API): about one request a second per client address, in a zone as large as the first.",
    )
    .inputs(&["limit_paths", "clients", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(l) = paths(c) {
            let args = vec![
                "$limit_path_key".into(),
                format!("zone=req_path:{}m", l.req_zone_mib).into(),
                format!("rate={PATH_RATE}r/s").into(),
            ];
            let f = Some(l.formulas[4].clone());
            out.set_args(H, args, &LIMIT_REQ_ZONE_PATHS.texts[0], f);
        }
    }),
};

pub(super) static LIMIT_CONN_ZONE: Rule = Rule {
    name: "limit_conn_zone",
    texts: &[Text::new(
        "limit_conn_zone",
        "Connections per client address, a state (64 bytes) for every planned client's address.",
    )
    .inputs(&["rate_limit", "workload", "clients", "vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(l) = limits(c) {
            let args = vec![
                client_key(c).into(),
                format!("zone=conn_client:{}m", l.conn_zone_mib).into(),
            ];
            out.set_args(
                H,
                args,
                &LIMIT_CONN_ZONE.texts[0],
                Some(l.formulas[1].clone()),
            );
        }
    }),
};

pub(super) static LIMIT_REQ_STATUS: Rule = Rule {
    name: "limit_req_status",
    texts: &[Text::new(
        "limit_req_status",
        "429 Too Many Requests, which clients and crawlers know to retry later, instead of nginx's 503, which reads as an outage.",
    )
    .inputs(&["rate_limit", "limit_paths"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if any_limit(c) {
            out.set(H, &["429"], &LIMIT_REQ_STATUS.texts[0]);
        }
    }),
};

pub(super) static LIMIT_CONN_STATUS: Rule = Rule {
    name: "limit_conn_status",
    texts: &[
        Text::new("limit_conn_status", "429 for too many connections too.").inputs(&["rate_limit"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.rate_limit {
            out.set(H, &["429"], &LIMIT_CONN_STATUS.texts[0]);
        }
    }),
};

/// `client_header_timeout`, `client_body_timeout` and `send_timeout`.
fn client_timeout(c: &Ctx, out: &mut Out, text: &Text) {
    if c.i.rate_limit {
        let arg = format!("{CLIENT_TIMEOUT_SECONDS}s");
        out.set_args(H, vec![arg.into()], text, None);
    }
}

pub(super) static CLIENT_HEADER_TIMEOUT: Rule = Rule {
    name: "client_header_timeout",
    texts: &[Text::new(
        "client_header_timeout",
        "A client that sends its request headers slowly (slowloris) holds a connection for 10 s, not 60.",
    )
    .inputs(&["rate_limit"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        client_timeout(c, out, &CLIENT_HEADER_TIMEOUT.texts[0]);
    }),
};

pub(super) static CLIENT_BODY_TIMEOUT: Rule = Rule {
    name: "client_body_timeout",
    texts: &[Text::new(
        "client_body_timeout",
        "At most 10 s between two reads of a request body, not 60.",
    )
    .inputs(&["rate_limit"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        client_timeout(c, out, &CLIENT_BODY_TIMEOUT.texts[0]);
    }),
};

pub(super) static SEND_TIMEOUT: Rule = Rule {
    name: "send_timeout",
    texts: &[Text::new(
        "send_timeout",
        "A client that stops reading the response is dropped after 10 s, not 60.",
    )
    .inputs(&["rate_limit"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        client_timeout(c, out, &SEND_TIMEOUT.texts[0]);
    }),
};

pub(super) static LIMIT_REQ: Rule = Rule {
    name: "limit_req",
    texts: &[
        Text::new(
            "limit_req",
            "Two seconds of the rate may arrive at once and are served without delay; beyond that, 429.",
        )
        .inputs(&["rate_limit", "workload"]),
        Text::new(
            "limit_req.app",
            "Two seconds of the rate may arrive at once and are served without delay; beyond that, 429. In / and the application's location (@app), not the assets': an asset on disk is not counted (a page asks for dozens at once), a missing one falls back to the application and counts there, once, so a /login.js cannot skip the limits.",
        )
        .inputs(&["rate_limit", "workload"]),
        Text::new(
            "limit_req.php",
            "Two seconds of the rate may arrive at once and are served without delay; beyond that, 429. In / and PHP's location, not the assets': an asset on disk is not counted (a page asks for dozens at once), a missing one goes to index.php and counts there, once, and so does a script with path info that ends like an asset (/index.php/a.js).",
        )
        .inputs(&["rate_limit", "workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(l) = limits(c) {
            let args = [
                "zone=req_client".into(),
                format!("burst={}", l.burst).into(),
                "nodelay".into(),
            ];
            set_limit(c, out, &args, LIMIT_REQ.texts, Some(&l.formulas[2]));
        }
    }),
};

pub(super) static LIMIT_REQ_PATHS: Rule = Rule {
    name: "limit_req",
    texts: &[Text::new(
        "limit_req.paths",
        "The named paths also count against their stricter zone: five at once, then 429.",
    )
    .inputs(&["limit_paths"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if paths(c).is_some() {
            let args = [
                "zone=req_path".into(),
                format!("burst={PATH_BURST}").into(),
                "nodelay".into(),
            ];
            set_limit(c, out, &args, LIMIT_REQ_PATHS.texts, None);
        }
    }),
};

pub(super) static LIMIT_CONN: Rule = Rule {
    name: "limit_conn",
    texts: &[
        Text::new(
            "limit_conn",
            "Connections per client address (over HTTP/2 and HTTP/3, requests in flight): a client's own, for a few clients behind one address (an office, a carrier NAT).",
        )
        .inputs(&["rate_limit", "workload"]),
        Text::new(
            "limit_conn.app",
            "Connections per client address (over HTTP/2 and HTTP/3, requests in flight): a client's own, for a few clients behind one address (an office, a carrier NAT). Like limit_req, in / and @app: a page's assets on disk are not counted.",
        )
        .inputs(&["rate_limit", "workload"]),
        Text::new(
            "limit_conn.php",
            "Connections per client address (over HTTP/2 and HTTP/3, requests in flight): a client's own, for a few clients behind one address (an office, a carrier NAT). Like limit_req, in / and PHP's location: a page's assets on disk are not counted.",
        )
        .inputs(&["rate_limit", "workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(l) = limits(c) {
            let args = ["conn_client".into(), l.conn.to_string().into()];
            set_limit(c, out, &args, LIMIT_CONN.texts, Some(&l.formulas[3]));
        }
    }),
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{plan, value, values_in};

    #[test]
    fn assets_are_not_counted() {
        use crate::plan::{LocationRole, TableRole};
        let p = plan(r#"{"workload":"static","rate_limit":true}"#);
        let table = crate::plan::Scope::Table {
            table: TableRole::LimitClient,
        };
        assert_eq!(values_in(&p, table, "map"), ["$uri $limit_client"]);
        // The assets' location's own pattern, case-insensitive as there, maps to empty.
        let [_, (pattern, empty)] = TableRole::LimitClient.rows() else {
            panic!("two rows");
        };
        let assets = LocationRole::Assets.matcher();
        assert_eq!(*pattern, format!("{}{}", assets[0], assets[1]));
        assert_eq!(*empty, [""]);
        assert!(values_in(&plan("{}"), table, "map").is_empty());
        assert!(value(&p, "limit_req_zone").is_some_and(|z| z.starts_with("$limit_client ")));
        // Where an asset URI may reach an application, every request counts (php: a
        // missing asset goes to index.php, and /index.php/a.js runs the script).
        for workload in ["mixed", "proxy", "api", "php"] {
            let w = plan(&format!(r#"{{"workload":"{workload}","rate_limit":true}}"#));
            assert!(values_in(&w, table, "map").is_empty(), "{workload}");
            for zone in ["limit_req_zone", "limit_conn_zone"] {
                let z = value(&w, zone).unwrap_or_default();
                assert!(z.starts_with("$binary_remote_addr "), "{workload}: {z}");
            }
        }
    }

    #[test]
    fn a_php_site_limits_in_php_s_location_not_the_assets() {
        use crate::plan::{LocationRole, Scope, ServerRole};
        let p = plan(r#"{"workload":"php","rate_limit":true}"#);
        let at = |location| Scope::Location {
            server: ServerRole::Site,
            location,
        };
        for name in ["limit_req", "limit_conn"] {
            for location in [LocationRole::Root, LocationRole::Php] {
                assert_eq!(values_in(&p, at(location), name).len(), 1, "{name}");
            }
            for location in [LocationRole::Assets, LocationRole::Media] {
                assert!(values_in(&p, at(location), name).is_empty(), "{name}");
            }
        }
    }

    #[test]
    fn a_mixed_site_limits_where_the_application_answers() {
        use crate::plan::{LocationRole, Scope, ServerRole};
        let p = plan(r#"{"workload":"mixed","rate_limit":true,"limit_paths":["/login"]}"#);
        let at = |location| Scope::Location {
            server: ServerRole::Site,
            location,
        };
        let server = Scope::Server {
            server: ServerRole::Site,
        };
        for name in ["limit_req", "limit_conn"] {
            assert!(values_in(&p, server, name).is_empty(), "{name}");
            // An asset on disk: no limit where nginx serves it.
            assert!(
                values_in(&p, at(LocationRole::Assets), name).is_empty(),
                "{name}"
            );
            assert!(
                values_in(&p, at(LocationRole::Media), name).is_empty(),
                "{name}"
            );
        }
        // The pages and the application count, the named paths' stricter zone with them
        // (a location's limit_req replaces the server's, so both are written in each).
        for location in [LocationRole::Root, LocationRole::App] {
            let req = values_in(&p, at(location), "limit_req");
            assert_eq!(req.len(), 2, "{location:?}: {req:?}");
            assert!(req[0].starts_with("zone=req_client "), "{req:?}");
            assert!(req[1].starts_with("zone=req_path "), "{req:?}");
            assert_eq!(values_in(&p, at(location), "limit_conn").len(), 1);
        }
        // Other workloads keep the server's.
        let api = plan(r#"{"workload":"api","rate_limit":true}"#);
        assert_eq!(values_in(&api, server, "limit_req").len(), 1);
    }

    #[test]
    fn limits_only_when_asked() {
        let p = plan("{}");
        for name in [
            "limit_req_zone",
            "limit_conn_zone",
            "limit_req",
            "limit_conn",
            "limit_req_status",
            "limit_conn_status",
            "client_header_timeout",
            "client_body_timeout",
            "send_timeout",
        ] {
            assert_eq!(value(&p, name), None, "{name}");
        }
    }

    #[test]
    fn sized_from_the_workload_and_the_clients() {
        let api = plan(r#"{"rate_limit":true,"workload":"api","clients":100000}"#);
        // 100000 clients / 2 connections = 50000 addresses × 128 B = 6.1 MiB → 7m.
        assert_eq!(
            value(&api, "limit_req_zone").as_deref(),
            Some("$binary_remote_addr zone=req_client:7m rate=10r/s")
        );
        assert_eq!(
            value(&api, "limit_conn_zone").as_deref(),
            Some("$binary_remote_addr zone=conn_client:4m")
        );
        let site = crate::plan::Scope::Server {
            server: crate::plan::ServerRole::Site,
        };
        assert_eq!(
            values_in(&api, site, "limit_req"),
            ["zone=req_client burst=20 nodelay"]
        );
        assert_eq!(values_in(&api, site, "limit_conn"), ["conn_client 8"]);
        assert_eq!(value(&api, "limit_req_status").as_deref(), Some("429"));
        assert_eq!(value(&api, "limit_conn_status").as_deref(), Some("429"));
        for name in [
            "client_header_timeout",
            "client_body_timeout",
            "send_timeout",
        ] {
            assert_eq!(value(&api, name).as_deref(), Some("10s"), "{name}");
        }
        // A static site: 6 connections × 5 requests/s; the content is on HTTPS with TLS.
        let tls = plan(r#"{"rate_limit":true,"tls":true}"#);
        assert!(
            value(&tls, "limit_req_zone")
                .unwrap()
                .ends_with("zone=req_client:1m rate=30r/s")
        );
        let https = crate::plan::Scope::Server {
            server: crate::plan::ServerRole::SiteTls,
        };
        assert_eq!(
            values_in(&tls, https, "limit_req"),
            ["zone=req_client burst=60 nodelay"]
        );
        assert!(values_in(&tls, site, "limit_req").is_empty());
        // A proxied application serves its pages' assets too: a page's rate, and its
        // requests in flight at once over HTTP/2, four clients to an address.
        let proxy = plan(r#"{"rate_limit":true,"workload":"proxy","vcpu":2,"ram":"2G"}"#);
        assert_eq!(
            values_in(&proxy, site, "limit_req"),
            ["zone=req_client burst=60 nodelay"]
        );
        assert_eq!(values_in(&proxy, site, "limit_conn"), ["conn_client 128"]);
        assert_eq!(
            crate::rules::testing::formula(&proxy, "limit_conn"),
            "32 requests in flight each × 4 clients per address = 128"
        );
    }

    #[test]
    fn named_paths_get_a_stricter_zone() {
        let p = plan(r#"{"rate_limit":true,"limit_paths":["/login","/api/"]}"#);
        // Alone: the stricter zone only, with 429.
        let alone = plan(r#"{"limit_paths":["/login"]}"#);
        assert_eq!(value(&alone, "limit_req_status").as_deref(), Some("429"));
        assert_eq!(
            value(&alone, "limit_req_zone").as_deref(),
            Some("$limit_path_key zone=req_path:1m rate=1r/s")
        );
        assert_eq!(value(&alone, "limit_conn"), None);
        let limit_path = crate::plan::Scope::Table {
            table: crate::plan::TableRole::LimitPath,
        };
        assert_eq!(
            values_in(&p, limit_path, "map"),
            ["/login|/api/>$uri $limit_path_key"]
        );
        let zones = crate::rules::testing::values(&p, "limit_req_zone");
        assert_eq!(zones[1], "$limit_path_key zone=req_path:1m rate=1r/s");
        let site = crate::plan::Scope::Server {
            server: crate::plan::ServerRole::Site,
        };
        assert_eq!(
            values_in(&p, site, "limit_req"),
            [
                "zone=req_client burst=60 nodelay",
                "zone=req_path burst=5 nodelay"
            ]
        );
        // The row's back-reference: a whole prefix the URI starts with.
        let row = crate::plan::TableRole::LimitPath.rows()[0].0;
        assert_eq!(row, r"~(?:^|\|)([^|>]+)(?:\|[^>]*)?>\1");
        assert!(values_in(&plan(r#"{"rate_limit":true}"#), limit_path, "map").is_empty());
    }
}
