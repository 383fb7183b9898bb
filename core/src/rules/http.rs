//! The `http` block's core: types, keep-alive, client buffers, logs, real client address.

use super::{Ctx, Decide, Out, Rule, Text, always};
use crate::inputs::{AccessLog, Cdn, Workload};
use crate::plan::Scope;
use crate::policy::Feature;

const H: Scope = Scope::Http;

pub(super) static INCLUDE_MIME: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.mime",
        "The distribution's media types, so files get the right Content-Type.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["/etc/nginx/mime.types"],
    },
};

pub(super) static DEFAULT_TYPE: Rule = Rule {
    name: "default_type",
    texts: &[Text::new(
        "default_type",
        "Unknown file types download instead of being guessed.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["application/octet-stream"],
    },
};

pub(super) static TYPES_HASH_MAX_SIZE: Rule = Rule {
    name: "types_hash_max_size",
    texts: &[Text::new(
        "types_hash_max_size",
        "Room for the full media-type list without a start-up warning.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["2048"],
    },
};

pub(super) static SERVER_TOKENS: Rule = Rule {
    name: "server_tokens",
    texts: &[Text::new(
        "server_tokens",
        "Do not announce the nginx version in headers and error pages.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["off"],
    },
};

pub(super) static ABSOLUTE_REDIRECT: Rule = Rule {
    name: "absolute_redirect",
    texts: &[Text::new(
        "absolute_redirect",
        "The redirects nginx makes itself (a directory asked for without its slash, such as WordPress's /wp-admin) give the path only, so the client keeps the scheme, host and port it used. nginx's absolute URL would name its own view: http:// and its own port behind a load balancer that ends TLS, a CDN or a container's port mapping.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["off"],
    },
};

pub(super) static TCP_NODELAY: Rule = Rule {
    name: "tcp_nodelay",
    texts: &[Text::new(
        "tcp_nodelay",
        "Do not delay the last small packet of a response on keep-alive connections (already the default).",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["on"],
    },
};

pub(super) static KEEPALIVE_TIMEOUT: Rule = Rule {
    name: "keepalive_timeout",
    texts: &[
        Text::new(
            "keepalive_timeout.lb",
            "Longer than the load balancer's idle timeout (60 s on common ones), so nginx never closes a connection the balancer is about to reuse.",
        )
        .inputs(&["behind_lb"]),
        Text::new(
            "keepalive_timeout",
            "Long enough for a page and its assets, short enough that idle browsers give their slots back.",
        )
        .inputs(&["behind_lb"]),
        Text::new(
            "keepalive_timeout.cdn",
            "Longer than the CDN's idle timeout (Cloudflare sends requests on an idle connection to the origin for up to 900 s), so nginx never closes a connection the CDN is about to reuse: that request would fail with a 520.",
        )
        .inputs(&["cdn", "behind_lb"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(value) = outlasting_the_cdn(c) {
            out.set_value(H, value, &KEEPALIVE_TIMEOUT.texts[2], None);
        } else if c.i.behind_lb {
            out.set(H, &["75s"], &KEEPALIVE_TIMEOUT.texts[0]);
        } else {
            out.set(H, &["30s"], &KEEPALIVE_TIMEOUT.texts[1]);
        }
    }),
};

/// An idle time a little longer than the CDN's reuse of idle connections to the origin
/// (`905s`), when a CDN is nginx's client. Behind a balancer the balancer is the client,
/// whatever is in front of it.
fn outlasting_the_cdn(c: &Ctx) -> Option<String> {
    let idle = crate::policy::cdn::idle_reuse_seconds(c.i.cdn).filter(|_| !c.i.behind_lb)?;
    Some(crate::digits::keyed("", u64::from(idle) + 5) + "s")
}

pub(super) static HTTP2_IDLE_TIMEOUT: Rule = Rule {
    name: "http2_idle_timeout",
    texts: &[Text::new(
        "http2_idle_timeout",
        "nginx before {Http2KeepaliveTimeout} closes idle HTTP/2 connections after 3 minutes whatever keepalive_timeout says, and the CDN reuses them for longer (with HTTP/2 to the origin on): the same time as keepalive_timeout. Later versions use keepalive_timeout for HTTP/2 too.",
    )
    .inputs(&["cdn", "behind_lb", "tls", "nginx_version"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls
            && !c.v.has(Feature::Http2KeepaliveTimeout)
            && let Some(value) = outlasting_the_cdn(c)
        {
            out.set_value(H, value, &HTTP2_IDLE_TIMEOUT.texts[0], None);
        }
    }),
};

pub(super) static KEEPALIVE_REQUESTS: Rule = Rule {
    name: "keepalive_requests",
    texts: &[
        Text::new(
            "keepalive_requests.lb",
            "Few, long-lived connections from the balancer carry many requests each.",
        )
        .inputs(&["behind_lb"]),
        Text::new(
            "keepalive_requests",
            "Requests per client connection before it is recycled (the default since nginx {KeepaliveRequests1000}, written for older versions).",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.behind_lb {
            out.set(H, &["10000"], &KEEPALIVE_REQUESTS.texts[0]);
        } else {
            out.set(H, &["1000"], &KEEPALIVE_REQUESTS.texts[1]);
        }
    }),
};

pub(super) static CLIENT_BODY_BUFFER_SIZE: Rule = Rule {
    name: "client_body_buffer_size",
    texts: &[
        Text::new(
            "client_body_buffer_size",
            "Form and JSON bodies up to 16 KiB stay in memory instead of a temporary file.",
        )
        .inputs(&["workload"]),
        Text::new(
            "omit.client_body_buffer_size",
            "A static site receives almost no request bodies; the default two pages are enough.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload == Workload::Static {
            out.omit(H, &CLIENT_BODY_BUFFER_SIZE.texts[1]);
        } else {
            out.set(H, &["16k"], &CLIENT_BODY_BUFFER_SIZE.texts[0]);
        }
    }),
};

pub(super) static LARGE_CLIENT_HEADER_BUFFERS: Rule = Rule {
    name: "large_client_header_buffers",
    texts: &[
        Text::new(
            "large_client_header_buffers",
            "Applications' clients send cookies and bearer tokens that outgrow an 8 KiB header line (nginx answers 400 Request Header Or Cookie Too Large); the larger buffers are taken only by a request whose headers need them.",
        )
        .inputs(&["workload"]),
        Text::new(
            "omit.large_client_header_buffers",
            "The defaults (1k, growing to 4 × 8k) fit requests for files.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload.dynamic() {
            out.set(H, &["4", "16k"], &LARGE_CLIENT_HEADER_BUFFERS.texts[0]);
        } else {
            out.omit(H, &LARGE_CLIENT_HEADER_BUFFERS.texts[1]);
        }
    }),
};

pub(super) static CLIENT_HEADER_BUFFER_SIZE: Rule = Rule {
    name: "client_header_buffer_size",
    texts: &[Text::new(
        "omit.client_header_buffer_size",
        "The default 1k already fits most request headers; longer ones move to large_client_header_buffers.",
    )],
    decide: Decide::Omit {
        when: always,
        scope: H,
    },
};

/// `combined` with the time in ISO 8601, then `key=value` fields; the upstream ones are
/// quoted, as a request retried on another server lists several values. No `$request_id`:
/// its 16 random bytes per request cost a small page 16 % of its requests per second
/// (docs/benchmarks.md); the JSON format, chosen for log pipelines, keeps it. The optional
/// literal is the upstream's fields, left out for a site without an upstream.
macro_rules! timing {
    ($($upstream:literal)?) => {
        concat!(
            r#"$remote_addr - $remote_user [$time_iso8601] "$request" $status $body_bytes_sent "#,
            r#""$http_referer" "$http_user_agent" rt=$request_time "#,
            $($upstream,)?
            r#"tls=$ssl_protocol cipher=$ssl_cipher"#,
        )
    };
}

/// The same fields as one JSON object, keyed by variable name; `$status` is a string (it
/// can be `000`), `$request_time` and `$body_bytes_sent` are numbers.
macro_rules! json {
    ($($upstream:literal)?) => {
        concat!(
            r#"{"time_iso8601":"$time_iso8601","remote_addr":"$remote_addr","request":"$request","#,
            r#""server_protocol":"$server_protocol","status":"$status","body_bytes_sent":$body_bytes_sent,"#,
            r#""request_time":$request_time,"#,
            $($upstream,)?
            r#""ssl_protocol":"$ssl_protocol","ssl_cipher":"$ssl_cipher","request_id":"$request_id","#,
            r#""http_referer":"$http_referer","http_user_agent":"$http_user_agent"}"#,
        )
    };
}

/// The log formats: (timing, JSON), with the upstream's fields for a site that has an
/// upstream (proxied or PHP-FPM) and without them for files alone, where they would be `-`
/// on every line and cost a small HTTP/2 answer 1.1 % of nginx's CPU.
static FORMATS: [(&[&str], &[&str]); 2] = [
    (&["timing", timing!()], &["json", "escape=json", json!()]),
    (
        &[
            "timing",
            timing!(
                r#"uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time" ua="$upstream_addr" us="$upstream_status" "#
            ),
        ],
        &[
            "json",
            "escape=json",
            json!(
                r#""upstream_connect_time":"$upstream_connect_time","upstream_header_time":"$upstream_header_time","upstream_response_time":"$upstream_response_time","upstream_addr":"$upstream_addr","upstream_status":"$upstream_status","#
            ),
        ],
    ),
];

pub(super) static LOG_FORMAT: Rule = Rule {
    name: "log_format",
    // Indexed [format][upstream]: timing, then json; without, then with the upstream's
    // fields.
    texts: &[
        Text::new(
            "log_format.timing.files",
            "combined with an ISO 8601 time, plus the request time, TLS protocol and cipher. No upstream fields: this site has no upstream, and they cost a small HTTP/2 answer 1.1% of nginx's CPU (docs/benchmarks.md); another site on this host that proxies and logs in this format logs without them too. No request id: generating one per request cost a small page 16% of its requests per second.",
        )
        .inputs(&["access_log", "workload"]),
        Text::new(
            "log_format.timing",
            "combined with an ISO 8601 time, plus request and upstream connect, header and response times, upstream address and status, TLS protocol and cipher. No request id: generating one per request cost a small page 16% of its requests per second (docs/benchmarks.md).",
        )
        .inputs(&["access_log", "workload"]),
        Text::new(
            "log_format.json.files",
            "The same fields as JSON, one object per line, with the request id; no upstream keys, as this site has no upstream.",
        )
        .inputs(&["access_log", "workload"]),
        Text::new(
            "log_format.json",
            "The same fields as JSON, one object per line.",
        )
        .inputs(&["access_log", "workload"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let upstream = usize::from(c.i.workload.dynamic());
        let (timing, json) = FORMATS[upstream];
        match c.i.access_log {
            AccessLog::Timing => out.set(H, timing, &LOG_FORMAT.texts[upstream]),
            AccessLog::Json => out.set(H, json, &LOG_FORMAT.texts[2 + upstream]),
            AccessLog::Combined | AccessLog::Off => {}
        }
    }),
};

pub(super) static ACCESS_LOG: Rule = Rule {
    name: "access_log",
    texts: &[
        Text::new(
            "access_log",
            "Buffer log lines: one write per 64 KiB instead of one per request. Up to 5 s of lines can be lost in a crash.",
        )
        .inputs(&["access_log"]),
        Text::new("access_log.off", "No access log, as chosen.").inputs(&["access_log"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        // The format's name is the choice's: `timing`, `json`, nginx's `combined`.
        let format = c.i.access_log.as_str();
        if c.i.access_log == AccessLog::Off {
            out.set(H, &["off"], &ACCESS_LOG.texts[1]);
        } else {
            let args = ["/var/log/nginx/access.log", format, "buffer=64k", "flush=5s"];
            out.set_words(H, &args, &ACCESS_LOG.texts[0]);
        }
    }),
};

/// The hash bucket a server name needs on a 64-bit nginx: two pointers and the name with
/// two bytes more, aligned to a pointer (`NGX_HASH_ELT_SIZE` in `ngx_hash.c`).
const fn bucket_need(name_len: usize) -> usize {
    8 + (name_len + 2).div_ceil(8) * 8 + 8
}

/// The smallest stock `server_names_hash_bucket_size`: the CPU's cache line, 64 bytes on
/// today's x86-64 and arm64 servers.
const CACHE_LINE: usize = 64;

pub(super) static SERVER_NAMES_HASH_BUCKET_SIZE: Rule = Rule {
    name: "server_names_hash_bucket_size",
    texts: &[Text::new(
        "server_names_hash_bucket_size",
        "The longest server name does not fit in a hash bucket of one cache line, and nginx refuses to start (\"could not build server_names_hash\"); the bucket is sized for it.",
    )
    .inputs(&["server_names"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let longest = c.i.server_names.iter().map(|n| n.as_str().len()).max();
        let need = bucket_need(longest.unwrap_or(0));
        if need > CACHE_LINE {
            let text = &SERVER_NAMES_HASH_BUCKET_SIZE.texts[0];
            out.set_value(H, need.next_power_of_two(), text, None);
        }
    }),
};

pub(super) static SET_REAL_IP_FROM: Rule = Rule {
    name: "set_real_ip_from",
    texts: &[
        Text::new(
            "set_real_ip_from",
            "Trust X-Forwarded-For only from the load balancers, so logs and limits see the real client address.",
        )
        .inputs(&["trusted_proxies"]),
        Text::new(
            "set_real_ip_from.proxy_protocol",
            "Trust the PROXY protocol's client address only from the balancers, so logs and limits see the real client address.",
        )
        .inputs(&["trusted_proxies", "proxy_protocol"]),
        Text::new(
            "set_real_ip_from.cdn",
            "The CDN's published address ranges: only they may name the client (their date and refresh: docs/inputs.md, cdn).",
        )
        .inputs(&["cdn"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let t = SET_REAL_IP_FROM.texts;
        if c.i.behind_lb || c.i.proxy_protocol {
            let text = if c.i.proxy_protocol { &t[1] } else { &t[0] };
            for cidr in &c.i.trusted_proxies {
                out.set_value(H, cidr, text, None);
            }
        }
        if let Some(cdn) = crate::policy::cdn::ranges(c.i.cdn) {
            for net in cdn.networks {
                out.set_value(H, net, &t[2], None);
            }
        }
    }),
};

pub(super) static REAL_IP_HEADER: Rule = Rule {
    name: "real_ip_header",
    texts: &[
        Text::new("real_ip_header", "The header the load balancer adds."),
        Text::new(
            "real_ip_header.proxy_protocol",
            "The client address in the PROXY protocol header the balancer sends first (every listen expects it).",
        )
        .inputs(&["proxy_protocol"]),
        Text::new(
            "real_ip_header.cdn",
            "The header in which Cloudflare names the client (one address, which the client cannot extend).",
        )
        .inputs(&["cdn"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let t = REAL_IP_HEADER.texts;
        // Behind a load balancer and a CDN, the chain holds both: X-Forwarded-For,
        // skipping every trusted address.
        if c.i.behind_lb {
            out.set(H, &["X-Forwarded-For"], &t[0]);
        } else if c.i.proxy_protocol {
            out.set(H, &["proxy_protocol"], &t[1]);
        } else if c.i.cdn == Cdn::Cloudflare {
            out.set(H, &["CF-Connecting-IP"], &t[2]);
        }
    }),
};

pub(super) static REAL_IP_RECURSIVE: Rule = Rule {
    name: "real_ip_recursive",
    texts: &[Text::new(
        "real_ip_recursive",
        "Skip every trusted address in the chain, not only the last.",
    )],
    decide: Decide::When {
        when: |c| c.i.behind_lb,
        scope: H,
        args: &["on"],
    },
};

pub(super) static INCLUDE_SITES: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.sites",
        "The site file written next to this one (relative, so `nginx -t -c` checks a generated tree as a whole).",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["conf.d/*.conf"],
    },
};

pub(super) static INCLUDE_SITES_ENABLED: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.sites_enabled",
        "The sites the distribution's nginx.conf includes, so the sites already enabled keep working (relative to this file's directory, as conf.d/).",
    )
    .inputs(&["layout"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(glob) = c.i.layout.sites_include() {
            out.set_words(H, &[glob], &INCLUDE_SITES_ENABLED.texts[0]);
        }
    }),
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{omitted, plan, value, values};

    #[test]
    fn fixed_rows() {
        let p = plan("{}");
        assert_eq!(
            values(&p, "include"),
            [
                "/etc/nginx/modules-enabled/*.conf",
                "/etc/nginx/mime.types",
                "conf.d/*.conf",
                "sites-enabled/*",
                // The site's own additions, in its server.
                "/etc/nginx/conf.d/example.com.d/*.conf"
            ]
        );
        assert_eq!(
            value(&p, "default_type").as_deref(),
            Some("application/octet-stream")
        );
        assert_eq!(value(&p, "types_hash_max_size").as_deref(), Some("2048"));
        assert_eq!(value(&p, "server_tokens").as_deref(), Some("off"));
        assert_eq!(value(&p, "absolute_redirect").as_deref(), Some("off"));
        assert_eq!(value(&p, "tcp_nodelay").as_deref(), Some("on"));
        assert!(omitted(&p, "client_header_buffer_size"));
    }

    /// `$name` placeholders of a JSON format filled with a number or an empty string.
    fn fill_json(format: &str) -> serde_json::Value {
        let object = format.strip_prefix("json escape=json ").unwrap();
        let filled = object
            .replace("$request_time", "0.001")
            .replace("$body_bytes_sent", "12");
        let filled: String = filled
            .split('$')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part
                } else {
                    part.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                }
            })
            .collect();
        serde_json::from_str(&filled).unwrap()
    }

    #[test]
    fn access_log_formats() {
        let upstream_fields = [
            "uct=\"$upstream_connect_time\"",
            "uht=\"$upstream_header_time\"",
            "urt=\"$upstream_response_time\"",
            "ua=\"$upstream_addr\"",
            "us=\"$upstream_status\"",
        ];
        for (workload, upstream) in [
            ("static", false),
            ("proxy", true),
            ("api", true),
            ("mixed", true),
            ("php", true),
        ] {
            let timing = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert_eq!(
                values(&timing, "access_log")[0],
                "/var/log/nginx/access.log timing buffer=64k flush=5s"
            );
            let format = value(&timing, "log_format").unwrap();
            assert!(format.starts_with("timing $remote_addr - $remote_user [$time_iso8601]"));
            for field in ["rt=$request_time", "tls=$ssl_protocol cipher=$ssl_cipher"] {
                assert!(format.contains(field), "{workload}, {field}: {format}");
            }
            for field in upstream_fields {
                assert_eq!(format.contains(field), upstream, "{workload}: {format}");
            }
            // Said in the reason, which is computed with the format.
            let reason = &timing.get("log_format").unwrap().reason.why;
            assert_eq!(
                reason.contains("No upstream fields"),
                !upstream,
                "{workload}: {reason}"
            );
            assert!(!format.contains("$request_id"), "{format}");

            let json = plan(&format!(
                r#"{{"workload":"{workload}","access_log":"json"}}"#
            ));
            // Filled with numbers and empty strings, it is one JSON object.
            let v = fill_json(&value(&json, "log_format").unwrap());
            assert_eq!(v["request_time"], 0.001);
            assert_eq!(v["request_id"], "");
            assert_eq!(v.get("upstream_response_time").is_some(), upstream, "{v}");
            assert_eq!(v.get("upstream_addr").is_some(), upstream, "{v}");
            assert!(values(&json, "access_log")[0].contains(" json "));
            let reason = &json.get("log_format").unwrap().reason.why;
            assert_eq!(reason.contains("no upstream keys"), !upstream, "{reason}");
        }
        let combined = plan(r#"{"access_log":"combined"}"#);
        assert_eq!(value(&combined, "log_format"), None);
        assert!(values(&combined, "access_log")[0].contains(" combined "));
        let off = plan(r#"{"access_log":"off"}"#);
        assert_eq!(values(&off, "access_log"), ["off"]);
    }

    #[test]
    fn keepalive_outlasts_the_balancer() {
        let direct = plan("{}");
        assert_eq!(value(&direct, "keepalive_timeout").as_deref(), Some("30s"));
        assert_eq!(
            value(&direct, "keepalive_requests").as_deref(),
            Some("1000")
        );
        let lb = plan(r#"{"behind_lb":true}"#);
        assert_eq!(value(&lb, "keepalive_timeout").as_deref(), Some("75s"));
        assert_eq!(value(&lb, "keepalive_requests").as_deref(), Some("10000"));
        // Cloudflare reuses an idle origin connection for up to 900 s; behind a balancer
        // (which may sit behind Cloudflare) the balancer is nginx's client.
        let cdn = plan(r#"{"cdn":"cloudflare"}"#);
        assert_eq!(value(&cdn, "keepalive_timeout").as_deref(), Some("905s"));
        let both = plan(r#"{"cdn":"cloudflare","behind_lb":true}"#);
        assert_eq!(value(&both, "keepalive_timeout").as_deref(), Some("75s"));
    }

    #[test]
    fn http2_idles_as_long_on_old_nginx_behind_a_cdn() {
        let cdn = |more: &str| plan(&format!(r#"{{"cdn":"cloudflare","tls":true{more}}}"#));
        let old = cdn(r#","nginx_version":"1.18.0""#);
        assert_eq!(value(&old, "http2_idle_timeout").as_deref(), Some("905s"));
        // `any` is written for the oldest supported version.
        let any = cdn("");
        assert_eq!(value(&any, "http2_idle_timeout").as_deref(), Some("905s"));
        for newer in [
            r#","nginx_version":"1.19.7""#,
            r#","nginx_version":"1.18.0","behind_lb":true"#,
        ] {
            assert_eq!(value(&cdn(newer), "http2_idle_timeout"), None, "{newer}");
        }
        let plain = plan(r#"{"cdn":"cloudflare","nginx_version":"1.18.0"}"#);
        assert_eq!(value(&plain, "http2_idle_timeout"), None);
        assert_eq!(value(&plan(r#"{"tls":true}"#), "http2_idle_timeout"), None);
    }

    #[test]
    fn bodies_and_headers_by_workload() {
        let s = plan(r#"{"workload":"static"}"#);
        assert!(omitted(&s, "client_body_buffer_size"));
        assert!(omitted(&s, "large_client_header_buffers"));
        let p = plan(r#"{"workload":"proxy"}"#);
        assert_eq!(value(&p, "client_body_buffer_size").as_deref(), Some("16k"));
        // An application's cookies and tokens: a 9 KB Cookie line fits.
        for workload in ["proxy", "api", "mixed", "php"] {
            let a = plan(&format!(r#"{{"workload":"{workload}"}}"#));
            assert_eq!(
                value(&a, "large_client_header_buffers").as_deref(),
                Some("4 16k"),
                "{workload}"
            );
        }
    }

    #[test]
    fn cdn_and_proxy_protocol_name_the_client() {
        let cf = plan(r#"{"cdn":"cloudflare"}"#);
        let nets = values(&cf, "set_real_ip_from");
        assert_eq!(nets.len(), crate::policy::cdn::CLOUDFLARE.networks.len());
        assert_eq!(
            (nets[0].as_str(), nets[21].as_str()),
            ("173.245.48.0/20", "2c0f:f248::/32")
        );
        assert_eq!(
            value(&cf, "real_ip_header").as_deref(),
            Some("CF-Connecting-IP")
        );
        assert_eq!(value(&cf, "real_ip_recursive"), None);
        // Cloudflare in front of the load balancer: the chain, both lists trusted.
        let both =
            plan(r#"{"cdn":"cloudflare","behind_lb":true,"trusted_proxies":["10.0.0.0/8"]}"#);
        let nets = values(&both, "set_real_ip_from");
        assert_eq!((nets.len(), nets[0].as_str()), (23, "10.0.0.0/8"));
        assert_eq!(
            value(&both, "real_ip_header").as_deref(),
            Some("X-Forwarded-For")
        );
        assert_eq!(value(&both, "real_ip_recursive").as_deref(), Some("on"));
        let pp = plan(r#"{"proxy_protocol":true,"trusted_proxies":["192.0.2.1"]}"#);
        assert_eq!(values(&pp, "set_real_ip_from"), ["192.0.2.1"]);
        assert_eq!(
            value(&pp, "real_ip_header").as_deref(),
            Some("proxy_protocol")
        );
        assert_eq!(value(&pp, "real_ip_recursive"), None);
        let listens = values(&pp, "listen");
        assert!(
            !listens.is_empty()
                && listens
                    .iter()
                    .all(|l| l.contains(" proxy_protocol") || l.starts_with("127.0.0.1:")),
            "{listens:?}"
        );
    }

    #[test]
    fn real_ip_only_behind_a_balancer() {
        let direct = plan("{}");
        assert!(values(&direct, "set_real_ip_from").is_empty());
        assert_eq!(value(&direct, "real_ip_header"), None);
        let lb = plan(r#"{"behind_lb":true,"trusted_proxies":["10.0.0.0/8","192.168.1.0/24"]}"#);
        assert_eq!(
            values(&lb, "set_real_ip_from"),
            ["10.0.0.0/8", "192.168.1.0/24"]
        );
        assert_eq!(
            value(&lb, "real_ip_header").as_deref(),
            Some("X-Forwarded-For")
        );
        assert_eq!(value(&lb, "real_ip_recursive").as_deref(), Some("on"));
    }

    #[test]
    fn long_server_names_get_a_bigger_hash_bucket() {
        // 50 characters: 8 + 56 + 8 = 72 bytes, more than a 64-byte cache line.
        let long = "aaaaaaaaaa.bbbbbbbbbb.cccccccccc.dddddddddd.example";
        assert_eq!(long.len(), 51);
        let p = plan(&format!(r#"{{"server_names":["{long}"]}}"#));
        assert_eq!(
            value(&p, "server_names_hash_bucket_size").as_deref(),
            Some("128")
        );
        // 46 characters still fit: 8 + 48 + 8 = 64.
        let fits = "a".repeat(42);
        let p = plan(&format!(r#"{{"server_names":["{fits}.com"]}}"#));
        assert_eq!(value(&p, "server_names_hash_bucket_size"), None);
        assert_eq!(super::bucket_need(46), 64);
        assert_eq!(super::bucket_need(47), 72);
    }
}
