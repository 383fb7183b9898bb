//! Micro-caching of the application's responses (`--cache micro`): a page is kept for a
//! second, so a burst of requests for it reaches the application once a second, and only
//! one of them at a time.

use std::borrow::Cow;

use super::formula::{Formula, Term};
use super::{Ctx, Decide, Out, Rule, Text, proxy};
use crate::inputs::Cache;
use crate::plan::{Scope, TableRole};
use crate::size::ByteSize;

/// The zone's name, in `proxy_cache_path` and `proxy_cache`.
const ZONE: &str = "micro";
/// Keys a MiB of the keys zone holds (nginx's documentation: about 8000).
const KEYS_PER_MIB: u64 = 8000;

fn on(c: &Ctx) -> bool {
    c.i.cache == Cache::Micro && c.i.workload.proxies()
}

/// The cache's size on disk and its keys zone, with their formulas.
fn sizes(c: &Ctx) -> (ByteSize, ByteSize, Formula) {
    let mib = |n: u64| Term::size(ByteSize::mib(n));
    let max = Term::input_size(c.i.ram)
        .label("RAM")
        .over(Term::num(16u32))
        .clamp(mib(16), mib(1024));
    let zone = Term::size(ByteSize::bytes(max.value()))
        .label("max_size")
        .over(Term::input_size(c.i.response_size).label("per page"))
        .over(Term::num(KEYS_PER_MIB).label("keys"))
        .ceil()
        .times(mib(1))
        .at_least(mib(1));
    let formula = Formula::equals_size(&max)
        .named("max_size")
        .and(&Formula::equals_mib(&zone).named("keys_zone"));
    (
        ByteSize::bytes(max.value()),
        ByteSize::bytes(zone.value()),
        formula,
    )
}

pub(super) static PROXY_CACHE_PATH: Rule = Rule {
    name: "proxy_cache_path",
    texts: &[Text::new(
        "proxy_cache_path",
        "Cached pages are files the kernel keeps in its page cache: a sixteenth of RAM (16 MiB to 1 GiB) holds what a second's caching keeps, and the keys zone (8000 keys a MiB) indexes that many typical pages. Files are written in place (use_temp_path=off), not copied from the temporary directory.",
    )
    .inputs(&["cache", "ram", "response_size", "layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if on(c) {
            let (max, zone, formula) = sizes(c);
            let args: Vec<Cow<'static, str>> = vec![
                [c.i.layout.cache_parent(), "/micro-cache"].concat().into(),
                "levels=1:2".into(),
                format!("keys_zone={ZONE}:{}m", zone.as_u64() >> 20).into(),
                ["max_size=", &proxy::size(max)].concat().into(),
                "use_temp_path=off".into(),
            ];
            let text = &PROXY_CACHE_PATH.texts[0];
            out.set_args(Scope::Http, args, text, Some(formula));
        }
    }),
};

pub(super) static BYPASS_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.cache_bypass",
        "A request with a cookie or credentials may get a page made for its user: it is neither answered from the cache nor stored in it.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if on(c) {
            let scope = Scope::Table {
                table: TableRole::CacheBypass,
            };
            let args = &["$http_cookie$http_authorization", "$cache_bypass"];
            out.set(scope, args, &BYPASS_MAP.texts[0]);
        }
    }),
};

/// A directive of the proxied location, with micro-caching on.
fn location_setting(c: &Ctx, out: &mut Out, args: &[&'static str], text: &Text) {
    if on(c) {
        out.set(proxy::location(c), args, text);
    }
}

pub(super) static PROXY_CACHE: Rule = Rule {
    name: "proxy_cache",
    texts: &[Text::new("proxy_cache", "Answer from the micro-cache.").inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        location_setting(c, out, &[ZONE], &PROXY_CACHE.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_KEY: Rule = Rule {
    name: "proxy_cache_key",
    texts: &[Text::new(
        "proxy_cache_key",
        "One entry per host name and URL: the default key names the upstream block, which every server name shares.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = &["$scheme$host$request_uri"];
        location_setting(c, out, args, &PROXY_CACHE_KEY.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_VALID: Rule = Rule {
    name: "proxy_cache_valid",
    texts: &[Text::new(
        "proxy_cache_valid",
        "A page is fresh for one second, unless the application says otherwise (Cache-Control, Expires, Set-Cookie); error pages are not kept.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = &["200", "301", "1s"];
        location_setting(c, out, args, &PROXY_CACHE_VALID.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_LOCK: Rule = Rule {
    name: "proxy_cache_lock",
    texts: &[Text::new(
        "proxy_cache_lock",
        "Concurrent requests for a page not yet cached wait for the first one's response instead of all reaching the application.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        location_setting(c, out, &["on"], &PROXY_CACHE_LOCK.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_USE_STALE: Rule = Rule {
    name: "proxy_cache_use_stale",
    texts: &[Text::new(
        "proxy_cache_use_stale",
        "While a page is refreshed, and while the application fails, clients get the page of a moment ago.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = &["updating", "error", "timeout", "http_502", "http_503", "http_504"];
        location_setting(c, out, args, &PROXY_CACHE_USE_STALE.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_BACKGROUND_UPDATE: Rule = Rule {
    name: "proxy_cache_background_update",
    texts: &[Text::new(
        "proxy_cache_background_update",
        "An expired page is refreshed by a subrequest while its client gets the stale copy at once.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        location_setting(c, out, &["on"], &PROXY_CACHE_BACKGROUND_UPDATE.texts[0]);
    }),
};

pub(super) static PROXY_CACHE_BYPASS: Rule = Rule {
    name: "proxy_cache_bypass",
    texts: &[Text::new(
        "proxy_cache_bypass",
        "Requests with a cookie or credentials go to the application; other methods than GET and HEAD always do.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        location_setting(c, out, &["$cache_bypass"], &PROXY_CACHE_BYPASS.texts[0]);
    }),
};

pub(super) static PROXY_NO_CACHE: Rule = Rule {
    name: "proxy_no_cache",
    texts: &[
        Text::new("proxy_no_cache", "Their responses are not stored either.").inputs(&["cache"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        location_setting(c, out, &["$cache_bypass"], &PROXY_NO_CACHE.texts[0]);
    }),
};

pub(super) static CACHE_STATUS: Rule = Rule {
    name: "add_header",
    texts: &[Text::new(
        "header.cache_status",
        "HIT, MISS, EXPIRED, STALE, UPDATING or BYPASS: whether the micro-cache answered. Set beside the other headers; responses nginx makes itself carry none.",
    )
    .inputs(&["cache_status"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if on(c) && c.i.cache_status {
            let scope = Scope::Server {
                server: c.content_server(),
            };
            let args = &["X-Cache-Status", "$upstream_cache_status"];
            out.set(scope, args, &CACHE_STATUS.texts[0]);
        }
    }),
};

#[cfg(test)]
mod tests {
    use crate::plan::{LocationRole, Scope, ServerRole};
    use crate::rules::testing::{formula, plan, value, values, values_in};

    #[test]
    fn off_by_default_and_sized_from_ram_and_page_size() {
        assert_eq!(
            value(&plan(r#"{"workload": "proxy"}"#), "proxy_cache"),
            None
        );
        let p = plan(r#"{"workload": "proxy", "cache": "micro", "ram": "8G"}"#);
        // 8 GiB / 16 = 512 MiB; 512 MiB / 32 KiB = 16384 pages; / 8000 → 3 MiB of keys.
        let path = value(&p, "proxy_cache_path").unwrap();
        assert_eq!(
            path,
            "/var/lib/nginx/micro-cache levels=1:2 keys_zone=micro:3m max_size=512m use_temp_path=off"
        );
        assert!(formula(&p, "proxy_cache_path").starts_with("max_size = clamp(8G RAM / 16, 16m, 1g) = 512m; keys_zone = ceil(512m max_size / 32K per page / 8000 keys) × 1m = 3m"));
        let root = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Root,
        };
        assert_eq!(values_in(&p, root, "proxy_cache"), ["micro"]);
        assert_eq!(values(&p, "proxy_cache_bypass"), ["$cache_bypass"]);
        let small =
            plan(r#"{"workload": "api", "cache": "micro", "ram": "256M", "layout": "docker"}"#);
        let path = value(&small, "proxy_cache_path").unwrap();
        assert!(path.starts_with("/var/cache/nginx/micro-cache "), "{path}");
        assert!(path.contains("keys_zone=micro:1m max_size=16m"), "{path}");
        let huge = plan(r#"{"workload": "mixed", "cache": "micro", "ram": "256G"}"#);
        let path = value(&huge, "proxy_cache_path").unwrap();
        assert!(path.contains("keys_zone=micro:5m max_size=1g"), "{path}");
        let app = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::App,
        };
        assert_eq!(values_in(&huge, app, "proxy_cache_lock"), ["on"]);
    }

    #[test]
    fn the_location_answers_from_the_cache_but_not_for_users() {
        let p = plan(r#"{"workload": "proxy", "cache": "micro"}"#);
        let written: Vec<(&str, String)> = [
            "proxy_cache",
            "proxy_cache_key",
            "proxy_cache_valid",
            "proxy_cache_lock",
            "proxy_cache_use_stale",
            "proxy_cache_background_update",
            "proxy_cache_bypass",
            "proxy_no_cache",
        ]
        .into_iter()
        .map(|name| (name, value(&p, name).unwrap_or_default()))
        .collect();
        assert_eq!(
            written,
            [
                ("proxy_cache", "micro".into()),
                ("proxy_cache_key", "$scheme$host$request_uri".into()),
                ("proxy_cache_valid", "200 301 1s".into()),
                ("proxy_cache_lock", "on".into()),
                (
                    "proxy_cache_use_stale",
                    "updating error timeout http_502 http_503 http_504".into()
                ),
                ("proxy_cache_background_update", "on".into()),
                ("proxy_cache_bypass", "$cache_bypass".into()),
                ("proxy_no_cache", "$cache_bypass".into()),
            ]
        );
        let maps = values(&p, "map");
        assert!(maps.contains(&"$http_cookie$http_authorization $cache_bypass".to_string()));
    }

    #[test]
    fn the_status_header_only_when_asked() {
        let header = |json: &str| {
            values(&plan(json), "add_header")
                .iter()
                .any(|v| v.starts_with("X-Cache-Status"))
        };
        assert!(!header(r#"{"workload": "proxy", "cache": "micro"}"#));
        assert!(header(
            r#"{"workload": "proxy", "cache": "micro", "cache_status": true}"#
        ));
    }
}
