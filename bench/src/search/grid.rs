//! The search's grid: which directives it varies for a scenario, and to which values.
//!
//! A knob is one directive (or one setting family, such as `open_file_cache` on, larger or
//! off) with a few alternative values; each alternative is a `--patch` of nginx-gen's own
//! output, so the renderer's origins place it and nothing is string-edited. The grid is a
//! coordinate search from nginx-gen's configuration: one knob at a time, every other
//! setting as nginx-gen wrote it. Alternatives equal to nginx-gen's value are left out.

use crate::scenario::Scenario;
use crate::site;
use crate::variants::{Family, Variant};

/// When a knob applies to a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    /// Every scenario of the families listed.
    Always,
    /// Only where nginx-gen's output has the directive (e.g. the upstream `keepalive`,
    /// which cannot be added outside an `upstream {}` block).
    IfSet,
    /// Only when the scenario's requests accept compression (`Accept-Encoding`).
    Compressed,
    /// Both: nginx-gen writes it and the requests accept compression (brotli).
    CompressedIfSet,
    /// Only with at least this many workers: it shares or splits the accepting between
    /// workers (`accept_mutex`, `reuseport`), so with one it changes nothing and would only
    /// measure the noise.
    Workers(usize),
    /// Only on responses larger than this many bytes (a limit per `sendfile` call): the
    /// site's files are all smaller ([`site::LARGEST`]), so it would change nothing and
    /// only measure the noise (as it did: `sendfile_max_chunk 256k` led the 150 KiB script
    /// by 1.020×, CI 0.996..1.045, in 40 rounds on 2026-12-07).
    ResponsesOver(usize),
}

/// One row of the grid's table.
struct Spec {
    directive: &'static str,
    families: &'static [Family],
    when: When,
    /// The patch bodies tried (`directive args`, `-directive`, `listen+ option`).
    alts: &'static [&'static str],
}

const ALL: &[Family] = &[Family::Static, Family::Tls, Family::Proxy];
const FILES: &[Family] = &[Family::Static, Family::Tls];
const TLS: &[Family] = &[Family::Tls];
const PROXY: &[Family] = &[Family::Proxy];

/// The grid, in order of expected effect (a budget cuts from the end).
const SPECS: &[Spec] = &[
    Spec {
        directive: "keepalive_requests",
        families: ALL,
        when: When::Always,
        alts: &["keepalive_requests 10000", "keepalive_requests 100"],
    },
    Spec {
        directive: "open_file_cache",
        families: FILES,
        when: When::Always,
        alts: &[
            "-open_file_cache",
            "open_file_cache max=10000 inactive=20s",
            "open_file_cache_min_uses 1",
        ],
    },
    Spec {
        directive: "ssl_buffer_size",
        families: TLS,
        when: When::Always,
        alts: &["ssl_buffer_size 4k", "ssl_buffer_size 8k"],
    },
    Spec {
        directive: "output_buffers",
        families: FILES,
        when: When::Always,
        alts: &["output_buffers 1 128k", "output_buffers 4 32k"],
    },
    Spec {
        directive: "sendfile_max_chunk",
        families: &[Family::Static],
        when: When::ResponsesOver(256 * 1024),
        alts: &["sendfile_max_chunk 256k", "sendfile_max_chunk 0"],
    },
    Spec {
        directive: "proxy_buffers",
        families: PROXY,
        when: When::IfSet,
        alts: &["proxy_buffers 8 16k", "proxy_buffers 4 64k"],
    },
    Spec {
        directive: "proxy_buffer_size",
        families: PROXY,
        when: When::IfSet,
        alts: &["proxy_buffer_size 16k", "proxy_buffer_size 64k"],
    },
    Spec {
        directive: "keepalive",
        families: PROXY,
        when: When::IfSet,
        alts: &["keepalive 16", "keepalive 256"],
    },
    Spec {
        directive: "ssl_session_cache",
        families: TLS,
        when: When::Always,
        alts: &["ssl_session_cache shared:SSL:20m", "ssl_session_cache off"],
    },
    Spec {
        directive: "ssl_session_tickets",
        families: TLS,
        when: When::Always,
        alts: &["ssl_session_tickets on"],
    },
    Spec {
        directive: "ssl_prefer_server_ciphers",
        families: TLS,
        when: When::Always,
        alts: &["ssl_prefer_server_ciphers off"],
    },
    Spec {
        directive: "reuseport",
        families: ALL,
        when: When::Workers(2),
        alts: &["listen+ reuseport"],
    },
    Spec {
        directive: "deferred",
        families: ALL,
        when: When::Always,
        alts: &["listen- deferred"],
    },
    Spec {
        directive: "multi_accept",
        families: ALL,
        when: When::Always,
        alts: &["multi_accept off", "multi_accept on"],
    },
    Spec {
        directive: "accept_mutex",
        families: ALL,
        when: When::Workers(2),
        alts: &["accept_mutex on"],
    },
    Spec {
        directive: "keepalive_timeout",
        families: ALL,
        when: When::Always,
        alts: &["keepalive_timeout 75s", "keepalive_timeout 10s"],
    },
    Spec {
        directive: "client_body_buffer_size",
        families: PROXY,
        when: When::IfSet,
        alts: &["client_body_buffer_size 8k", "client_body_buffer_size 64k"],
    },
    Spec {
        directive: "gzip_comp_level",
        families: ALL,
        when: When::Compressed,
        alts: &["gzip_comp_level 2", "gzip_comp_level 5"],
    },
    Spec {
        directive: "brotli_comp_level",
        families: ALL,
        when: When::CompressedIfSet,
        alts: &["brotli_comp_level 4", "brotli_comp_level 6"],
    },
];

/// The alternatives of the `--quick` smoke: cheap to run, and each exercises another kind
/// of patch (a replaced directive, a removed one, a listen option) or of leaving one out
/// (`reuseport`, run only with two workers or more).
pub const QUICK: &[&str] = &[
    "keepalive_requests 10000",
    "-open_file_cache",
    "listen+ reuseport",
    "listen- deferred",
];

/// One alternative: a patch of nginx-gen's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alt {
    /// The knob it belongs to (alternatives of one knob exclude each other).
    pub knob: &'static str,
    /// The patch body, as `--patch` takes it.
    pub body: String,
}

/// `a b; -c; listen+ d` → `[("a", "b"), ("-c", ""), ("listen+", "d")]`, as `--patch` parses.
pub fn split(body: &str) -> Vec<(String, String)> {
    body.split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let (n, a) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
            (n.to_string(), a.trim().to_string())
        })
        .collect()
}

/// One directive varied, with nginx-gen's value and the alternatives tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knob {
    pub directive: &'static str,
    /// nginx-gen's value (`None`: not written, nginx's default applies).
    pub current: Option<String>,
    pub alts: Vec<Alt>,
}

/// Does the patch body set what nginx-gen already has? (`multi_accept on` where the output
/// says `multi_accept on`; removing a directive nginx-gen does not write.)
fn same_as_current(body: &str, current: &dyn Fn(&str) -> Option<String>) -> bool {
    split(body).iter().all(|(name, args)| {
        if let Some(bare) = name.strip_prefix('-') {
            current(bare).is_none()
        } else if name.starts_with("listen") {
            false
        } else {
            current(name).as_deref() == Some(args.as_str())
        }
    })
}

/// The grid for `scenario` on `workers` workers: the knobs, and the alternatives left out
/// with the reason (a knob that cannot act with this many workers). `current(directive)` is
/// nginx-gen's value of a directive in the scenario's configuration (`None` when it does
/// not write it). With `quick`, only the [`QUICK`] alternatives.
pub fn grid(
    scenario: &Scenario,
    current: &dyn Fn(&str) -> Option<String>,
    quick: bool,
    workers: usize,
) -> (Vec<Knob>, Vec<(String, String)>) {
    let compressed = scenario
        .headers
        .iter()
        .any(|h| h.to_ascii_lowercase().starts_with("accept-encoding"));
    let mut knobs = Vec::new();
    let mut idle = Vec::new();
    for spec in SPECS
        .iter()
        .filter(|s| s.families.contains(&scenario.family))
    {
        let set = current(spec.directive).is_some();
        let applies = match spec.when {
            When::Always | When::Workers(_) | When::ResponsesOver(_) => true,
            When::IfSet => set,
            When::Compressed => compressed,
            When::CompressedIfSet => compressed && set,
        };
        let alts: Vec<Alt> = spec
            .alts
            .iter()
            .filter(|b| applies && !same_as_current(b, current))
            .filter(|b| !quick || QUICK.contains(b))
            .map(|b| Alt {
                knob: spec.directive,
                body: (*b).to_string(),
            })
            .collect();
        match spec.when {
            _ if alts.is_empty() => {}
            When::Workers(n) if workers < n => idle.extend(alts.into_iter().map(|a| {
                (
                    a.body,
                    format!(
                        "acts only between {n} or more workers; the run has {workers}, so it would measure the noise"
                    ),
                )
            })),
            When::ResponsesOver(n) if site::LARGEST <= n => {
                idle.extend(alts.into_iter().map(|a| {
                    (
                        a.body,
                        format!(
                            "acts only on responses larger than {} KiB; the site's largest file is {} KiB, so it would measure the noise",
                            n / 1024,
                            site::LARGEST / 1024
                        ),
                    )
                }));
            }
            _ => knobs.push(Knob {
                directive: spec.directive,
                current: current(spec.directive),
                alts,
            }),
        }
    }
    (knobs, idle)
}

/// The knob of `--try` patches: one, so they are never combined with each other.
pub const TRY: &str = "--try";

/// `--try` patches instead of the grid: each an alternative, in the order given.
pub fn tries(bodies: &[String]) -> Vec<Knob> {
    if bodies.is_empty() {
        return Vec::new();
    }
    vec![Knob {
        directive: TRY,
        current: None,
        alts: bodies
            .iter()
            .map(|b| Alt {
                knob: TRY,
                body: b.trim().to_string(),
            })
            .collect(),
    }]
}

/// A variant name safe in a path and in nginx's configuration (it names the instance's
/// prefix directory): `a03-keepalive_requests-10000`.
pub fn variant_name(index: usize, body: &str) -> String {
    let mut name = format!("a{index:02}-");
    let mut last_dash = true;
    for ch in body.chars() {
        let c = if ch.is_ascii_alphanumeric() || ch == '_' || ch == '.' {
            ch
        } else {
            '-'
        };
        if c == '-' && last_dash {
            continue;
        }
        last_dash = c == '-';
        name.push(c);
    }
    name.truncate(48);
    name.trim_end_matches('-').to_string()
}

/// The variant that tries the patch `body` under `name`: nginx-gen's output patched, or for
/// `@baseline` (`--try @guide`) that baseline's whole configuration.
pub fn variant(name: String, body: &str) -> Variant {
    let kind = whole_baseline(body)
        .map_or_else(|| crate::variants::Kind::Patched(split(body)), |b| b.kind);
    Variant { name, kind }
}

/// The baseline a body names as `@name` alone (`stock`, `guide`, `nginxconfig`, `h5bp`).
pub fn whole_baseline(body: &str) -> Option<Variant> {
    let name = body.trim().strip_prefix('@')?;
    Variant::builtin()
        .into_iter()
        .find(|v| v.is_baseline() && v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::by_id as scenario;
    use crate::variants::Kind;

    #[test]
    fn a_try_names_a_patch_or_a_whole_baseline() {
        let guide = variant("c1".into(), "@guide");
        assert!(matches!(guide.kind, Kind::Guide), "{guide:?}");
        assert_eq!(guide.name, "c1");
        assert!(matches!(variant("c2".into(), "@h5bp").kind, Kind::Peer(_)));
        // nginx-gen is no baseline, and a patch stays a patch.
        assert!(whole_baseline("@nginx-gen").is_none());
        let patched = variant("c3".into(), "access_log off");
        assert!(matches!(&patched.kind, Kind::Patched(d) if d[0].0 == "access_log"));
    }

    /// nginx-gen's values as the bench's configurations have them (policy 2026.12).
    fn gen_values(family: Family) -> impl Fn(&str) -> Option<String> {
        move |d: &str| {
            let v = match (family, d) {
                (_, "keepalive_requests") => "1000",
                (_, "keepalive_timeout") => "30s",
                (_, "multi_accept") => "on",
                (_, "gzip_comp_level") => "1",
                (Family::Static | Family::Tls, "open_file_cache") => "max=1200 inactive=60s",
                (Family::Tls, "ssl_session_cache") => "shared:SSL:3m",
                (Family::Tls, "ssl_session_tickets") => "off",
                (Family::Proxy, "proxy_buffers") => "4 32k",
                (Family::Proxy, "proxy_buffer_size") => "32k",
                (Family::Proxy, "client_body_buffer_size") => "16k",
                (Family::Proxy, "keepalive") => "64",
                _ => return None,
            };
            Some(v.to_string())
        }
    }

    fn directives(knobs: &[Knob]) -> Vec<&str> {
        knobs.iter().map(|k| k.directive).collect()
    }

    fn bodies(knobs: &[Knob]) -> Vec<&str> {
        knobs
            .iter()
            .flat_map(|k| &k.alts)
            .map(|a| a.body.as_str())
            .collect()
    }

    #[test]
    fn static_html_grid() {
        let (g, idle) = grid(&scenario("html"), &gen_values(Family::Static), false, 2);
        assert_eq!(
            directives(&g),
            [
                "keepalive_requests",
                "open_file_cache",
                "output_buffers",
                "reuseport",
                "deferred",
                "multi_accept",
                "accept_mutex",
                "keepalive_timeout",
            ]
        );
        // nginx-gen already writes `multi_accept on`: only `off` is an alternative.
        let multi = g
            .iter()
            .find(|k| k.directive == "multi_accept")
            .expect("knob");
        assert_eq!(multi.current.as_deref(), Some("on"));
        assert_eq!(bodies(std::slice::from_ref(multi)), ["multi_accept off"]);
        // Not written by nginx-gen: `current` is None and every alternative stays.
        let output = g
            .iter()
            .find(|k| k.directive == "output_buffers")
            .expect("knob");
        assert_eq!((output.current.as_deref(), output.alts.len()), (None, 2));
        assert_eq!(bodies(&g).len(), 13);
        // sendfile's chunk acts on no file of the site: left out, with the reason.
        let left: Vec<&str> = idle.iter().map(|(b, _)| b.as_str()).collect();
        assert_eq!(left, ["sendfile_max_chunk 256k", "sendfile_max_chunk 0"]);
        assert!(idle[0].1.contains("larger than 256 KiB"), "{}", idle[0].1);
        // No compression knob without Accept-Encoding, no TLS or proxy knob.
        assert!(
            !bodies(&g)
                .iter()
                .any(|b| b.starts_with("gzip") || b.starts_with("ssl_") || b.starts_with("proxy_"))
        );
    }

    #[test]
    fn tls_proxy_and_compression_grids() {
        let tls = grid(&scenario("tls"), &gen_values(Family::Tls), false, 1).0;
        let b = bodies(&tls);
        assert!(b.contains(&"ssl_session_tickets on") && b.contains(&"ssl_buffer_size 4k"));
        assert!(b.contains(&"ssl_session_cache off") && b.contains(&"output_buffers 1 128k"));
        // TLS never uses sendfile (no kTLS on this nginx): no chunking knob.
        assert!(!directives(&tls).contains(&"sendfile_max_chunk"));

        let proxy = grid(&scenario("proxy"), &gen_values(Family::Proxy), false, 1).0;
        let d = directives(&proxy);
        for want in [
            "proxy_buffers",
            "proxy_buffer_size",
            "keepalive",
            "client_body_buffer_size",
        ] {
            assert!(d.contains(&want), "{want} missing: {d:?}");
        }
        assert!(!d.contains(&"open_file_cache") && !d.contains(&"output_buffers"));
        // The upstream keepalive only where nginx-gen writes an upstream block.
        let none = |_: &str| None;
        assert!(!directives(&grid(&scenario("proxy"), &none, false, 1).0).contains(&"keepalive"));

        let gz = grid(&scenario("gzip-js"), &gen_values(Family::Static), false, 1).0;
        let b = bodies(&gz);
        assert!(b.contains(&"gzip_comp_level 2") && b.contains(&"gzip_comp_level 5"));
        // brotli only when the output has it.
        assert!(!b.iter().any(|x| x.starts_with("brotli")));
        let with_brotli = |d: &str| {
            (d == "brotli_comp_level")
                .then(|| "4".to_string())
                .or_else(|| gen_values(Family::Static)(d))
        };
        let b2 = grid(&scenario("gzip-js"), &with_brotli, false, 1).0;
        assert_eq!(
            b2.iter()
                .find(|k| k.directive == "brotli_comp_level")
                .map(|k| bodies(std::slice::from_ref(k))),
            Some(vec!["brotli_comp_level 6"]),
            "level 4 is nginx-gen's own"
        );
    }

    #[test]
    fn quick_grid_is_four_alternatives_one_left_out_with_one_worker() {
        let quick = |workers| {
            grid(
                &scenario("html"),
                &gen_values(Family::Static),
                true,
                workers,
            )
        };
        let (g, idle) = quick(2);
        assert_eq!(bodies(&g), QUICK);
        assert!(idle.is_empty(), "{idle:?}");
        let (g, idle) = quick(1);
        assert_eq!(
            bodies(&g),
            [
                "keepalive_requests 10000",
                "-open_file_cache",
                "listen- deferred"
            ]
        );
        assert_eq!(idle.len(), 1);
    }

    #[test]
    fn knobs_between_workers_wait_for_a_second_worker() {
        let html = |workers| {
            grid(
                &scenario("html"),
                &gen_values(Family::Static),
                false,
                workers,
            )
        };
        // Besides sendfile's chunk, which no worker count brings into play.
        let workers_only = |idle: Vec<(String, String)>| -> Vec<(String, String)> {
            idle.into_iter()
                .filter(|(b, _)| !b.starts_with("sendfile_max_chunk"))
                .collect()
        };
        let (two, idle) = html(2);
        assert!(workers_only(idle).is_empty());
        let (one, idle) = html(1);
        let idle = workers_only(idle);
        // With one worker `accept_mutex` and `reuseport` change nothing: left out, saying so.
        assert_eq!(directives(&two).len(), directives(&one).len() + 2);
        assert!(
            !directives(&one).contains(&"reuseport") && !directives(&one).contains(&"accept_mutex")
        );
        assert_eq!(
            idle.iter().map(|(b, _)| b.as_str()).collect::<Vec<_>>(),
            ["listen+ reuseport", "accept_mutex on"]
        );
        assert!(
            idle[0].1.contains("2 or more workers; the run has 1"),
            "{idle:?}"
        );
    }

    #[test]
    fn tries_replace_the_grid() {
        assert!(tries(&[]).is_empty());
        let t = tries(&["output_buffers 1 128k".into(), " -open_file_cache ".into()]);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].directive, TRY);
        assert_eq!(bodies(&t), ["output_buffers 1 128k", "-open_file_cache"]);
    }

    #[test]
    fn same_as_current_covers_removal_and_listen() {
        let cur = gen_values(Family::Static);
        assert!(same_as_current("keepalive_requests 1000", &cur));
        assert!(!same_as_current("keepalive_requests 10000", &cur));
        // Removing what is not there changes nothing; a listen option always changes.
        assert!(same_as_current("-ssl_session_cache", &cur));
        assert!(!same_as_current("-open_file_cache", &cur));
        assert!(!same_as_current("listen+ reuseport", &cur));
    }

    #[test]
    fn names_and_directives() {
        assert_eq!(
            variant_name(3, "keepalive_requests 10000"),
            "a03-keepalive_requests-10000"
        );
        assert_eq!(variant_name(12, "-open_file_cache"), "a12-open_file_cache");
        assert_eq!(
            variant_name(1, "ssl_session_cache shared:SSL:20m"),
            "a01-ssl_session_cache-shared-SSL-20m"
        );
        assert!(variant_name(0, &"x ".repeat(80)).len() <= 48);
        assert_eq!(
            split("a b c; -d;; listen+ reuseport "),
            [
                ("a".to_string(), "b c".to_string()),
                ("-d".to_string(), String::new()),
                ("listen+".to_string(), "reuseport".to_string()),
            ]
        );
        let alt = Alt {
            knob: "x",
            body: "output_buffers 1 128k".into(),
        };
        assert_eq!(
            split(&alt.body),
            [("output_buffers".to_string(), "1 128k".to_string())]
        );
    }
}
