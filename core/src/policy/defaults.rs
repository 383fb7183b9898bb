//! nginx's built-in defaults, by version, and the one lookup by name that the plan asks
//! for every setting (its stock default and its documentation link).

use std::sync::LazyLock;

use super::docs::{DOC_LINKS, NGINX_MODULES, doc_in};
use super::{Feature, v};
use crate::version::Version;

/// A stock default of nginx, valid from `since` until the next row of the same directive.
#[derive(Debug, Clone, Copy)]
pub struct StockDefault {
    /// Directive name.
    pub directive: &'static str,
    /// The default, as nginx documents it.
    pub value: &'static str,
    /// First version with this default.
    pub since: Version,
}

const ANY: Version = v(0, 0, 0);

/// nginx's built-in defaults for the directives nginx-gen sets, by version.
pub const NGINX_DEFAULTS: &[StockDefault] = &[
    StockDefault {
        directive: "absolute_redirect",
        value: "on",
        since: ANY,
    },
    StockDefault {
        directive: "worker_processes",
        value: "1",
        since: ANY,
    },
    StockDefault {
        directive: "worker_connections",
        value: "512",
        since: ANY,
    },
    StockDefault {
        directive: "worker_rlimit_nofile",
        value: "unset (inherits the service limit)",
        since: ANY,
    },
    StockDefault {
        directive: "multi_accept",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "pcre_jit",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "sendfile",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "tcp_nopush",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "tcp_nodelay",
        value: "on",
        since: ANY,
    },
    StockDefault {
        directive: "client_header_timeout",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "client_body_timeout",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "send_timeout",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "limit_req_status",
        value: "503",
        since: ANY,
    },
    StockDefault {
        directive: "limit_conn_status",
        value: "503",
        since: ANY,
    },
    StockDefault {
        directive: "keepalive_timeout",
        value: "75s",
        since: ANY,
    },
    StockDefault {
        directive: "upstream keepalive_timeout",
        value: "60s",
        since: v(1, 15, 3),
    },
    StockDefault {
        directive: "http2_idle_timeout",
        value: "3m",
        since: ANY,
    },
    StockDefault {
        directive: "keepalive_requests",
        value: "100",
        since: ANY,
    },
    StockDefault {
        directive: "keepalive_requests",
        value: "1000",
        since: Feature::KeepaliveRequests1000.since(),
    },
    StockDefault {
        directive: "server_tokens",
        value: "on",
        since: ANY,
    },
    StockDefault {
        directive: "client_body_buffer_size",
        value: "8k (two memory pages)",
        since: ANY,
    },
    StockDefault {
        directive: "client_max_body_size",
        value: "1m",
        since: ANY,
    },
    StockDefault {
        directive: "server_names_hash_bucket_size",
        value: "32|64|128 (the CPU's cache line)",
        since: ANY,
    },
    StockDefault {
        directive: "large_client_header_buffers",
        value: "4 8k",
        since: ANY,
    },
    StockDefault {
        directive: "open_file_cache",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "open_file_cache_valid",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "open_file_cache_min_uses",
        value: "1",
        since: ANY,
    },
    StockDefault {
        directive: "open_file_cache_errors",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "access_log",
        value: "logs/access.log combined (unbuffered)",
        since: ANY,
    },
    StockDefault {
        directive: "gzip",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_comp_level",
        value: "1",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_min_length",
        value: "20",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_types",
        value: "text/html",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_proxied",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_vary",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "gzip_static",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "brotli_comp_level",
        value: "6",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_protocols",
        value: "TLSv1 TLSv1.1 TLSv1.2",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_protocols",
        value: "TLSv1 TLSv1.1 TLSv1.2 TLSv1.3",
        since: Feature::Tls13ByDefault.since(),
    },
    StockDefault {
        directive: "ssl_protocols",
        value: "TLSv1.2 TLSv1.3",
        since: Feature::OldTlsOffByDefault.since(),
    },
    StockDefault {
        directive: "ssl_session_cache",
        value: "none",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_session_timeout",
        value: "5m",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_session_tickets",
        value: "on",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_buffer_size",
        value: "16k",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_prefer_server_ciphers",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "ssl_stapling",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "listen",
        value: "*:80 backlog=511",
        since: ANY,
    },
    StockDefault {
        directive: "keepalive",
        value: "none (a new upstream connection per request)",
        since: ANY,
    },
    StockDefault {
        directive: "keepalive",
        value: "32 local",
        since: Feature::UpstreamKeepaliveByDefault.since(),
    },
    StockDefault {
        directive: "proxy_http_version",
        value: "1.0",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_http_version",
        value: "1.1",
        since: Feature::UpstreamKeepaliveByDefault.since(),
    },
    StockDefault {
        directive: "proxy_buffer_size",
        value: "4k|8k (one memory page)",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_buffers",
        value: "8 4k|8k",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_busy_buffers_size",
        value: "8k|16k",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_read_timeout",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_connect_timeout",
        value: "60s",
        since: ANY,
    },
    StockDefault {
        directive: "aio",
        value: "off",
        since: ANY,
    },
    StockDefault {
        directive: "net.core.somaxconn",
        value: "4096 (128 before Linux 5.4)",
        since: ANY,
    },
    StockDefault {
        directive: "net.ipv4.tcp_max_syn_backlog",
        value: "128–4096, from RAM",
        since: ANY,
    },
    StockDefault {
        directive: "net.ipv4.tcp_fastopen",
        value: "1 (client side only)",
        since: ANY,
    },
    StockDefault {
        directive: "net.ipv4.tcp_tw_reuse",
        value: "2 (loopback only)",
        since: ANY,
    },
    StockDefault {
        directive: "net.ipv4.ip_local_port_range",
        value: "32768 60999",
        since: ANY,
    },
    StockDefault {
        directive: "net.ipv4.ip_local_reserved_ports",
        value: "empty",
        since: ANY,
    },
    StockDefault {
        directive: "net.core.rmem_max",
        value: "212992 (4194304 since Linux 6.18)",
        since: ANY,
    },
    StockDefault {
        directive: "net.core.wmem_max",
        value: "212992 (4194304 since Linux 6.18)",
        since: ANY,
    },
    StockDefault {
        directive: "fs.file-max",
        value: "about RAM in KiB / 10",
        since: ANY,
    },
    StockDefault {
        directive: "LimitNOFILE",
        value: "1024:524288 (systemd ≥ 240)",
        since: ANY,
    },
];

/// What the tables know about one name.
#[derive(Debug, Default)]
struct Known {
    /// Its rows of [`NGINX_DEFAULTS`], in table order (so versions stay ascending).
    defaults: Vec<&'static StockDefault>,
    /// Its documentation link: a row of [`DOC_LINKS`], or its module's page and anchor.
    doc: Option<std::borrow::Cow<'static, str>>,
}

/// Both tables by name, built once. A list searched in order, not a hash map: the plan
/// reads it through each rule's [`Lookup`], taken once, so a search costs nothing per plan,
/// and a map's code was 2 KB of the page's `.wasm`.
static KNOWN: LazyLock<Vec<(&'static str, Known)>> = LazyLock::new(|| {
    fn entry<'a>(known: &'a mut Vec<(&'static str, Known)>, name: &'static str) -> &'a mut Known {
        let at = known
            .iter()
            .position(|(n, _)| *n == name)
            .unwrap_or_else(|| {
                known.push((name, Known::default()));
                known.len() - 1
            });
        &mut known[at].1
    }
    let mut known = Vec::with_capacity(256);
    for d in NGINX_DEFAULTS {
        entry(&mut known, d.directive).defaults.push(d);
    }
    for &(name, url) in DOC_LINKS {
        entry(&mut known, name).doc = Some(url.into());
    }
    for &(page, names) in NGINX_MODULES {
        for &name in names {
            // `upstream resolver`: the upstream module's own `resolver`.
            let anchor = name.rsplit(' ').next().unwrap_or(name);
            entry(&mut known, name).doc = Some(format!("{page}#{anchor}").into());
        }
    }
    known
});

/// What the tables know about `name`.
fn known(name: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|(n, _)| *n == name).map(|(_, k)| k)
}

/// nginx's default for `directive` at `version`, if nginx-gen knows it.
pub fn stock_default(directive: &str, version: Version) -> Option<&'static str> {
    default_in(known(directive)?, version)
}

fn default_in(known: &Known, version: Version) -> Option<&'static str> {
    known
        .defaults
        .iter()
        .rev()
        .find(|d| d.since <= version)
        .map(|d| d.value)
}

/// [`stock_default`] and [`doc_link`] of `name` with one lookup; a plan asks both for
/// every setting.
pub fn default_and_doc(name: &str, version: Version) -> (Option<&'static str>, &'static str) {
    let known = Lookup::of(name);
    (known.default_at(version), known.doc)
}

/// What the tables hold for one name, looked up once: the rules keep one per rule, so a
/// plan reads its ~100 defaults and links without hashing a name.
#[derive(Debug, Clone, Copy)]
pub struct Lookup {
    known: Option<&'static Known>,
    /// The documentation link ([`doc_link`](super::doc_link)).
    pub doc: &'static str,
}

impl Lookup {
    /// The entry of `name`.
    pub fn of(name: &str) -> Self {
        let known = known(name);
        Self {
            known,
            doc: doc_in(known.and_then(|k| k.doc.as_deref()), name),
        }
    }

    /// nginx's default at `version` ([`stock_default`]).
    pub fn default_at(self, version: Version) -> Option<&'static str> {
        self.known.and_then(|k| default_in(k, version))
    }
}

/// The documentation entry of `name`, for [`super::docs::doc_link`].
pub(super) fn known_doc(name: &str) -> Option<&'static str> {
    known(name).and_then(|k| k.doc.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_versions() {
        assert_eq!(
            stock_default("keepalive_requests", v(1, 18, 0)),
            Some("100")
        );
        assert_eq!(
            stock_default("keepalive_requests", v(1, 22, 1)),
            Some("1000")
        );
        assert_eq!(
            stock_default("proxy_http_version", v(1, 30, 0)),
            Some("1.1")
        );
        assert_eq!(
            stock_default("ssl_protocols", v(1, 28, 0)),
            Some("TLSv1.2 TLSv1.3")
        );
    }
}
