//! Micro-caching of the application's responses (`--cache micro`): a page is kept for a
//! second, so a burst of requests for it reaches the application once a second, and only
//! one of them at a time. A proxied application's pages go through `proxy_cache_*` in the
//! proxied location, PHP's through `fastcgi_cache_*` in the scripts' location; both caches
//! are sized alike and skip the same requests (`$cache_bypass`).

use std::borrow::Cow;

use super::formula::{Formula, Term};
use super::{Ctx, Decide, Out, Rule, Text, php, proxy};
use crate::inputs::{Cache, Workload};
use crate::plan::{Scope, TableRole};
use crate::size::ByteSize;

/// The zone's name, in `proxy_cache_path` and `proxy_cache`.
const ZONE: &str = "micro";
/// PHP's zone, in `fastcgi_cache_path` and `fastcgi_cache`.
const PHP_ZONE: &str = "php_micro";
/// Keys a MiB of the keys zone holds (nginx's documentation: about 8000).
const KEYS_PER_MIB: u64 = 8000;

/// Micro-caching is on (validation allows it for every workload with an application).
fn on(c: &Ctx) -> bool {
    c.i.cache == Cache::Micro && c.i.workload != Workload::Static
}

/// Micro-caching of a proxied application.
fn proxied(c: &Ctx) -> bool {
    on(c) && c.i.workload.proxies()
}

/// Micro-caching of PHP's pages.
fn php_on(c: &Ctx) -> bool {
    on(c) && c.i.workload == Workload::Php
}

/// The cache's size on disk and its keys zone, with their formulas.
fn sizes(c: &Ctx) -> (ByteSize, ByteSize, Formula) {
    let mib = |n: u64| Term::size(ByteSize::mib(n));
    let max = crate::tuning::page_cache_memory(c.i)
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

static CACHE_PATH: Text = Text::new(
    "cache_path",
    "Cached pages are files the kernel keeps in its page cache: a sixteenth of the RAM the host's other services leave (16 MiB to 1 GiB) holds what a second's caching keeps, and the keys zone (8000 keys a MiB) indexes that many typical pages. Files are written in place (use_temp_path=off), not copied from the temporary directory.",
)
.inputs(&["cache", "ram", "other_memory", "response_size", "layout"]);

/// `proxy_cache_path` or `fastcgi_cache_path`: the directory `dir` under the layout's cache
/// parent, the zone `zone`, both sized by [`sizes`].
fn cache_path(c: &Ctx, out: &mut Out, dir: &str, zone: &str) {
    let (max, zone_size, formula) = sizes(c);
    let args: Vec<Cow<'static, str>> = vec![
        [c.i.layout.cache_parent(), dir].concat().into(),
        "levels=1:2".into(),
        format!("keys_zone={zone}:{}m", zone_size.as_u64() >> 20).into(),
        ["max_size=", &proxy::size(max)].concat().into(),
        "use_temp_path=off".into(),
    ];
    out.set_args(Scope::Http, args, &CACHE_PATH, Some(formula));
}

pub(super) static PROXY_CACHE_PATH: Rule = Rule {
    name: "proxy_cache_path",
    texts: &[CACHE_PATH],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if proxied(c) {
            cache_path(c, out, "/micro-cache", ZONE);
        }
    }),
};

pub(super) static FASTCGI_CACHE_PATH: Rule = Rule {
    name: "fastcgi_cache_path",
    texts: &[CACHE_PATH],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if php_on(c) {
            cache_path(c, out, "/php-micro-cache", PHP_ZONE);
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
fn location_setting(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if proxied(c) {
        out.set(proxy::location(c), args, text);
    }
}

/// A directive of the PHP scripts' location, with micro-caching on.
fn script_setting(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if php_on(c) {
        out.set(php::scripts(c), args, text);
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
        "One entry per host name, port the client named and URL: the default key names the upstream block, which every server name shares.",
    )
    .inputs(&["cache", "behind_lb", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = if c.i.forwarded() {
            &["$forwarded_scheme$host$client_port$request_uri"]
        } else {
            &["$scheme$host$client_port$request_uri"]
        };
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

pub(super) static FASTCGI_CACHE: Rule = Rule {
    name: "fastcgi_cache",
    texts: &[
        Text::new("fastcgi_cache", "Answer PHP's pages from the micro-cache.").inputs(&["cache"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &[PHP_ZONE], &FASTCGI_CACHE.texts[0]);
    }),
};

pub(super) static FASTCGI_CACHE_KEY: Rule = Rule {
    name: "fastcgi_cache_key",
    texts: &[Text::new(
        "fastcgi_cache_key",
        "One entry per scheme, host name, port the client named, method and URL (FastCGI has no default key); PHP sees the port in HTTP_HOST and may build links with it. Only GET and HEAD are cached, but the method still counts: PHP answers a HEAD with headers only, and without the method in the key that empty page would be stored and sent to the GETs after it.",
    )
    .inputs(&["cache", "behind_lb", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = if c.i.forwarded() {
            &["$forwarded_scheme$request_method$host$client_port$request_uri"]
        } else {
            &["$scheme$request_method$host$client_port$request_uri"]
        };
        script_setting(c, out, args, &FASTCGI_CACHE_KEY.texts[0]);
    }),
};

pub(super) static FASTCGI_CACHE_VALID: Rule = Rule {
    name: "fastcgi_cache_valid",
    texts: &[Text::new(
        "fastcgi_cache_valid",
        "A page is fresh for one second, unless PHP says otherwise (Cache-Control, Expires); error pages are not kept.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = &["200", "301", "1s"];
        script_setting(c, out, args, &FASTCGI_CACHE_VALID.texts[0]);
    }),
};

pub(super) static FASTCGI_IGNORE_HEADERS: Rule = Rule {
    name: "fastcgi_ignore_headers",
    texts: &[Text::new(
        "omit.fastcgi_ignore_headers",
        "A response that sets a cookie (a PHP session starting, a login) is never stored, so no visitor gets another's cookie; nor is one whose Cache-Control or Expires forbids it (PHP's sessions send both). Ignoring those headers would cache them.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if php_on(c) {
            out.omit(php::scripts(c), &FASTCGI_IGNORE_HEADERS.texts[0]);
        }
    }),
};

pub(super) static FASTCGI_CACHE_LOCK: Rule = Rule {
    name: "fastcgi_cache_lock",
    texts: &[Text::new(
        "fastcgi_cache_lock",
        "Concurrent requests for a page not yet cached wait for the first one's response instead of each taking a PHP-FPM child.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &["on"], &FASTCGI_CACHE_LOCK.texts[0]);
    }),
};

pub(super) static FASTCGI_CACHE_USE_STALE: Rule = Rule {
    name: "fastcgi_cache_use_stale",
    texts: &[Text::new(
        "fastcgi_cache_use_stale",
        "While a page is refreshed, and while PHP-FPM is unreachable, too slow or answers 500 or 503, clients get the page of a moment ago.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let args = &["updating", "error", "timeout", "http_500", "http_503"];
        script_setting(c, out, args, &FASTCGI_CACHE_USE_STALE.texts[0]);
    }),
};

pub(super) static FASTCGI_CACHE_BACKGROUND_UPDATE: Rule = Rule {
    name: "fastcgi_cache_background_update",
    texts: &[Text::new(
        "fastcgi_cache_background_update",
        "An expired page is refreshed by one PHP run in a subrequest while its client gets the stale copy at once.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &["on"], &FASTCGI_CACHE_BACKGROUND_UPDATE.texts[0]);
    }),
};

pub(super) static FASTCGI_CACHE_BYPASS: Rule = Rule {
    name: "fastcgi_cache_bypass",
    texts: &[Text::new(
        "fastcgi_cache_bypass",
        "Requests with a cookie (a PHP session) or credentials run PHP; other methods than GET and HEAD always do.",
    )
    .inputs(&["cache"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &["$cache_bypass"], &FASTCGI_CACHE_BYPASS.texts[0]);
    }),
};

pub(super) static FASTCGI_NO_CACHE: Rule = Rule {
    name: "fastcgi_no_cache",
    texts: &[
        Text::new("fastcgi_no_cache", "Their pages are not stored either.").inputs(&["cache"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &["$cache_bypass"], &FASTCGI_NO_CACHE.texts[0]);
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
    use crate::rules::testing::{formula, omitted, plan, value, values, values_in};

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
                (
                    "proxy_cache_key",
                    "$scheme$host$client_port$request_uri".into()
                ),
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

    #[test]
    fn php_gets_a_cache_of_its_own_sized_as_the_proxied_one() {
        assert_eq!(
            value(&plan(r#"{"workload": "php"}"#), "fastcgi_cache"),
            None
        );
        let json = |w: &str| format!(r#"{{"workload": "{w}", "cache": "micro", "ram": "8G"}}"#);
        let (php, proxied) = (plan(&json("php")), plan(&json("proxy")));
        assert_eq!(
            value(&php, "fastcgi_cache_path").unwrap(),
            "/var/lib/nginx/php-micro-cache levels=1:2 keys_zone=php_micro:3m max_size=512m use_temp_path=off"
        );
        // The same numbers and formula as the proxied cache's.
        assert_eq!(
            formula(&php, "fastcgi_cache_path"),
            formula(&proxied, "proxy_cache_path")
        );
        assert!(values(&php, "proxy_cache_path").is_empty());
        assert!(values(&proxied, "fastcgi_cache_path").is_empty());
        let rhel =
            plan(r#"{"workload": "php", "cache": "micro", "layout": "rhel", "ram": "256M"}"#);
        let path = value(&rhel, "fastcgi_cache_path").unwrap();
        assert!(
            path.contains("keys_zone=php_micro:1m max_size=16m"),
            "{path}"
        );
    }

    #[test]
    fn php_pages_are_cached_in_the_scripts_location_but_not_for_users() {
        let p = plan(r#"{"workload": "php", "cache": "micro", "tls": true}"#);
        let scripts = Scope::Location {
            server: ServerRole::SiteTls,
            location: LocationRole::Php,
        };
        let written: Vec<(&str, Vec<String>)> = [
            "fastcgi_cache",
            "fastcgi_cache_key",
            "fastcgi_cache_valid",
            "fastcgi_cache_lock",
            "fastcgi_cache_use_stale",
            "fastcgi_cache_background_update",
            "fastcgi_cache_bypass",
            "fastcgi_no_cache",
        ]
        .into_iter()
        .map(|name| (name, values_in(&p, scripts, name)))
        .collect();
        let one = |v: &str| vec![v.to_string()];
        assert_eq!(
            written,
            [
                ("fastcgi_cache", one("php_micro")),
                // The method too: PHP answers HEAD without a body.
                (
                    "fastcgi_cache_key",
                    one("$scheme$request_method$host$client_port$request_uri")
                ),
                ("fastcgi_cache_valid", one("200 301 1s")),
                ("fastcgi_cache_lock", one("on")),
                // fastcgi_cache_use_stale knows no http_502 or http_504.
                (
                    "fastcgi_cache_use_stale",
                    one("updating error timeout http_500 http_503")
                ),
                ("fastcgi_cache_background_update", one("on")),
                ("fastcgi_cache_bypass", one("$cache_bypass")),
                ("fastcgi_no_cache", one("$cache_bypass")),
            ]
        );
        // Responses with Set-Cookie stay uncached: nothing is ignored.
        assert!(omitted(&p, "fastcgi_ignore_headers"));
        assert!(values(&p, "fastcgi_ignore_headers").is_empty());
        assert!(!omitted(
            &plan(r#"{"workload": "php"}"#),
            "fastcgi_ignore_headers"
        ));
        let maps = values(&p, "map");
        assert!(maps.contains(&"$http_cookie$http_authorization $cache_bypass".to_string()));
        assert!(values(&p, "proxy_cache").is_empty());
        let status = plan(r#"{"workload": "php", "cache": "micro", "cache_status": true}"#);
        assert!(
            values(&status, "add_header").contains(&"X-Cache-Status $upstream_cache_status".into())
        );
    }

    /// Behind a balancer that ends TLS every request arrives over plain HTTP: the key
    /// holds the client's scheme, or a redirect to HTTPS stored for a plain-HTTP client
    /// would be answered to HTTPS clients, who would follow it in a loop.
    #[test]
    fn behind_a_balancer_the_key_holds_the_clients_scheme() {
        for (workload, name, key) in [
            (
                "proxy",
                "proxy_cache_key",
                "$forwarded_scheme$host$client_port$request_uri",
            ),
            (
                "php",
                "fastcgi_cache_key",
                "$forwarded_scheme$request_method$host$client_port$request_uri",
            ),
        ] {
            let input = format!(r#"{{"workload":"{workload}","cache":"micro","behind_lb":true}}"#);
            assert_eq!(
                value(&plan(&input), name).as_deref(),
                Some(key),
                "{workload}"
            );
            let cdn = format!(r#"{{"workload":"{workload}","cache":"micro","cdn":"cloudflare"}}"#);
            assert_eq!(value(&plan(&cdn), name).as_deref(), Some(key), "{workload}");
        }
    }
}
