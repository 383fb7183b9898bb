//! Data tables: version gates, stock defaults, security advisories and documentation
//! links. Rules ask these tables; no version number appears anywhere else in the code.
//!
//! Sources: nginx `CHANGES` and directive docs, Mozilla's ssl-config-generator, the Linux
//! `ip-sysctl` documentation (see docs/formulas.md).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

use crate::version::Version;

/// The versions that decide syntax and features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Versions {
    /// nginx.
    pub nginx: Version,
    /// OpenSSL nginx is linked with.
    pub openssl: Version,
}

/// Which program a gate concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Software {
    /// nginx.
    Nginx,
    /// OpenSSL.
    OpenSsl,
}

/// A feature or behaviour that exists from some version on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// `ssl_reject_handshake` for a TLS catch-all server.
    SslRejectHandshake,
    /// `keepalive_requests` defaults to 1000 (was 100).
    KeepaliveRequests1000,
    /// Session ticket keys rotate automatically with a shared `ssl_session_cache`, so
    /// `ssl_session_tickets off` is no longer needed.
    TicketKeyRotation,
    /// TLSv1.3 is in the default `ssl_protocols`.
    Tls13ByDefault,
    /// HTTP/3 over QUIC (`listen … quic`).
    Quic,
    /// The `http2` directive; before it, `listen … http2`.
    Http2Directive,
    /// `TLSv1` and `TLSv1.1` are out of the default `ssl_protocols`.
    OldTlsOffByDefault,
    /// Upstream keepalive on by default, `proxy_http_version` 1.1 by default and no
    /// `Connection: close` sent upstream.
    UpstreamKeepaliveByDefault,
    /// Post-quantum hybrid key exchange `X25519MLKEM768`.
    PostQuantumKex,
}

/// One row of the gate table.
#[derive(Debug, Clone, Copy)]
pub struct Gate {
    /// The feature.
    pub feature: Feature,
    /// Whose version decides.
    pub software: Software,
    /// First version that has it.
    pub since: Version,
    /// Where this is documented.
    pub source: &'static str,
}

const fn v(major: u16, minor: u16, patch: u16) -> Version {
    Version::new(major, minor, patch)
}

/// The version gates, oldest first.
pub const GATES: &[Gate] = &[
    Gate {
        feature: Feature::SslRejectHandshake,
        software: Software::Nginx,
        since: v(1, 19, 4),
        source: "nginx CHANGES 1.19.4",
    },
    Gate {
        feature: Feature::KeepaliveRequests1000,
        software: Software::Nginx,
        since: v(1, 19, 10),
        source: "nginx CHANGES 1.19.10",
    },
    Gate {
        feature: Feature::TicketKeyRotation,
        software: Software::Nginx,
        since: v(1, 23, 2),
        source: "nginx CHANGES 1.23.2; Mozilla nginx.js",
    },
    Gate {
        feature: Feature::Tls13ByDefault,
        software: Software::Nginx,
        since: v(1, 23, 4),
        source: "nginx CHANGES 1.23.4",
    },
    Gate {
        feature: Feature::Quic,
        software: Software::Nginx,
        since: v(1, 25, 0),
        source: "nginx CHANGES 1.25.0",
    },
    Gate {
        feature: Feature::Http2Directive,
        software: Software::Nginx,
        since: v(1, 25, 1),
        source: "nginx CHANGES 1.25.1",
    },
    Gate {
        feature: Feature::OldTlsOffByDefault,
        software: Software::Nginx,
        since: v(1, 27, 3),
        source: "nginx CHANGES 1.27.3",
    },
    Gate {
        feature: Feature::UpstreamKeepaliveByDefault,
        software: Software::Nginx,
        since: v(1, 29, 7),
        source: "nginx CHANGES 1.29.7",
    },
    Gate {
        feature: Feature::PostQuantumKex,
        software: Software::OpenSsl,
        since: v(3, 5, 0),
        source: "Mozilla guideline 6.0; OpenSSL 3.5 release notes",
    },
];

impl Feature {
    /// The gate row of this feature.
    ///
    /// # Panics
    /// Never: a unit test checks that every feature has a row.
    pub fn gate(self) -> &'static Gate {
        GATES
            .iter()
            .find(|g| g.feature == self)
            .expect("every feature has a row in GATES")
    }
    /// The first version that has it.
    pub fn since(self) -> Version {
        self.gate().since
    }
}

impl Versions {
    /// Whether these versions have `feature`.
    pub fn has(&self, feature: Feature) -> bool {
        let gate = feature.gate();
        let version = match gate.software {
            Software::Nginx => self.nginx,
            Software::OpenSsl => self.openssl,
        };
        version >= gate.since
    }
}

/// One profile of a TLS guideline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TlsProfileRow {
    /// `ssl_protocols`.
    pub protocols: &'static [&'static str],
    /// `ssl_ciphers` for TLS 1.2, where the profile allows it.
    pub ciphers: Option<&'static str>,
}

/// A published TLS configuration guideline, as its publisher names and versions it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TlsGuideline {
    /// Who publishes it and its name.
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// The intermediate profile: TLS 1.2 and 1.3, for general-purpose servers.
    pub intermediate: TlsProfileRow,
    /// The modern profile: TLS 1.3 only.
    pub modern: TlsProfileRow,
    /// Key-exchange groups (`ssl_ecdh_curve`).
    pub groups: &'static str,
    /// Key-exchange groups where [`Feature::PostQuantumKex`] is available.
    pub groups_post_quantum: &'static str,
}

impl TlsGuideline {
    /// The row of `profile`.
    pub const fn profile(&self, profile: crate::inputs::TlsProfile) -> &TlsProfileRow {
        match profile {
            crate::inputs::TlsProfile::Intermediate => &self.intermediate,
            crate::inputs::TlsProfile::Modern => &self.modern,
        }
    }
}

/// The TLS guideline nginx-gen follows.
pub const TLS_GUIDELINE: TlsGuideline = TlsGuideline {
    name: "Mozilla Server Side TLS",
    version: "6.0",
    intermediate: TlsProfileRow {
        protocols: &["TLSv1.2", "TLSv1.3"],
        ciphers: Some(
            "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305",
        ),
    },
    modern: TlsProfileRow {
        protocols: &["TLSv1.3"],
        ciphers: None,
    },
    groups: "X25519:prime256v1:secp384r1",
    groups_post_quantum: "X25519MLKEM768:X25519:prime256v1:secp384r1",
};

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
        directive: "keepalive_timeout",
        value: "75s",
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
        since: v(1, 19, 10),
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
        since: v(1, 23, 4),
    },
    StockDefault {
        directive: "ssl_protocols",
        value: "TLSv1.2 TLSv1.3",
        since: v(1, 27, 3),
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
        since: v(1, 29, 7),
    },
    StockDefault {
        directive: "proxy_http_version",
        value: "1.0",
        since: ANY,
    },
    StockDefault {
        directive: "proxy_http_version",
        value: "1.1",
        since: v(1, 29, 7),
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

/// A lookup table keyed by setting name.
type ByName<V> = HashMap<&'static str, V, BuildHasherDefault<Fnv>>;

/// FNV-1a, the hasher of [`ByName`]: a few instructions per byte, where the standard
/// `SipHash` costs about as much as the binary search it replaced. The keys are this file's
/// own names, so resistance to crafted collisions (`SipHash`'s purpose) is not needed, and
/// no random seed is read from the system.
#[derive(Debug)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// What the tables know about one name.
#[derive(Debug, Default)]
struct Known {
    /// Its rows of [`NGINX_DEFAULTS`], in table order (so versions stay ascending).
    defaults: Vec<&'static StockDefault>,
    /// Its row of [`DOC_LINKS`].
    doc: Option<&'static str>,
}

/// Both tables by name, built once: a plan looks up ~100 names.
static KNOWN: LazyLock<ByName<Known>> = LazyLock::new(|| {
    let mut known = ByName::<Known>::default();
    for d in NGINX_DEFAULTS {
        known.entry(d.directive).or_default().defaults.push(d);
    }
    for &(name, url) in DOC_LINKS {
        known.entry(name).or_default().doc = Some(url);
    }
    known
});

/// nginx's default for `directive` at `version`, if nginx-gen knows it.
pub fn stock_default(directive: &str, version: Version) -> Option<&'static str> {
    default_in(KNOWN.get(directive)?, version)
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
    let known = KNOWN.get(name);
    (
        known.and_then(|k| default_in(k, version)),
        doc_in(known, name),
    )
}

/// A published vulnerability that affects a range of nginx versions.
#[derive(Debug, Clone, Copy)]
pub struct Advisory {
    /// Identifier.
    pub id: &'static str,
    /// First affected version.
    pub from: Version,
    /// First fixed version of each branch (stable, mainline), ascending.
    pub fixed: &'static [Version],
    /// Only matters when the configuration uses TLS.
    pub tls_only: bool,
    /// One line on what it does.
    pub summary: &'static str,
}

/// Advisories that a configuration generated by nginx-gen can trigger.
pub const ADVISORIES: &[Advisory] = &[Advisory {
    id: "CVE-2025-23419",
    from: v(1, 11, 4),
    fixed: &[v(1, 26, 3), v(1, 27, 4)],
    tls_only: true,
    summary: "TLS 1.3 session resumption can bypass client-certificate checks across virtual servers",
}];

impl Advisory {
    /// Whether `version` is affected: inside the range and not at or above the fix of its
    /// own branch.
    pub fn affects(&self, version: Version) -> bool {
        if version < self.from {
            return false;
        }
        // Branches newer than the last fixed one forked after the fix; older branches are
        // fixed only by a release of their own.
        let branch = |v: Version| (v.major, v.minor);
        let newer_than_all = self
            .fixed
            .last()
            .is_some_and(|last| branch(version) > branch(*last));
        let fixed_in_branch = self
            .fixed
            .iter()
            .any(|f| branch(version) == branch(*f) && version >= *f);
        !(newer_than_all || fixed_in_branch)
    }
}

/// Documentation pages of directives by name; other names are looked up by prefix in
/// [`doc_link`].
const DOC_LINKS: &[(&str, &str)] = &[
    (
        "listen deferred",
        "https://nginx.org/en/docs/http/ngx_http_core_module.html#listen",
    ),
    (
        "add_header X-Frame-Options, X-Content-Type-Options",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Frame-Options",
    ),
    (
        "add_header Referrer-Policy",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referrer-Policy",
    ),
    (
        "worker_processes",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_processes",
    ),
    (
        "worker_rlimit_nofile",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_rlimit_nofile",
    ),
    (
        "worker_cpu_affinity",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_cpu_affinity",
    ),
    (
        "worker_connections",
        "https://nginx.org/en/docs/ngx_core_module.html#worker_connections",
    ),
    (
        "multi_accept",
        "https://nginx.org/en/docs/ngx_core_module.html#multi_accept",
    ),
    (
        "pcre_jit",
        "https://nginx.org/en/docs/ngx_core_module.html#pcre_jit",
    ),
    ("use", "https://nginx.org/en/docs/ngx_core_module.html#use"),
    (
        "accept_mutex",
        "https://nginx.org/en/docs/ngx_core_module.html#accept_mutex",
    ),
    (
        "user",
        "https://nginx.org/en/docs/ngx_core_module.html#user",
    ),
    ("pid", "https://nginx.org/en/docs/ngx_core_module.html#pid"),
    (
        "error_log",
        "https://nginx.org/en/docs/ngx_core_module.html#error_log",
    ),
    (
        "include",
        "https://nginx.org/en/docs/ngx_core_module.html#include",
    ),
    (
        "load_module",
        "https://nginx.org/en/docs/ngx_core_module.html#load_module",
    ),
    (
        "gzip",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip",
    ),
    (
        "gzip_comp_level",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_comp_level",
    ),
    (
        "gzip_min_length",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_min_length",
    ),
    (
        "gzip_types",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_types",
    ),
    (
        "gzip_proxied",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_proxied",
    ),
    (
        "gzip_vary",
        "https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip_vary",
    ),
    (
        "gzip_static",
        "https://nginx.org/en/docs/http/ngx_http_gzip_static_module.html#gzip_static",
    ),
    ("brotli", "https://github.com/google/ngx_brotli#brotli"),
    (
        "brotli_comp_level",
        "https://github.com/google/ngx_brotli#brotli_comp_level",
    ),
    (
        "brotli_types",
        "https://github.com/google/ngx_brotli#brotli_types",
    ),
    (
        "brotli_static",
        "https://github.com/google/ngx_brotli#brotli_static",
    ),
    (
        "access_log",
        "https://nginx.org/en/docs/http/ngx_http_log_module.html#access_log",
    ),
    (
        "set_real_ip_from",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#set_real_ip_from",
    ),
    (
        "real_ip_header",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#real_ip_header",
    ),
    (
        "real_ip_recursive",
        "https://nginx.org/en/docs/http/ngx_http_realip_module.html#real_ip_recursive",
    ),
    (
        "add_header",
        "https://nginx.org/en/docs/http/ngx_http_headers_module.html#add_header",
    ),
    (
        "expires",
        "https://nginx.org/en/docs/http/ngx_http_headers_module.html#expires",
    ),
    (
        "upstream",
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#upstream",
    ),
    (
        "server",
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#server",
    ),
    (
        "keepalive",
        "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#keepalive",
    ),
    (
        "quic_retry",
        "https://nginx.org/en/docs/http/ngx_http_v3_module.html#quic_retry",
    ),
    (
        "http3",
        "https://nginx.org/en/docs/http/ngx_http_v3_module.html#http3",
    ),
    (
        "http2",
        "https://nginx.org/en/docs/http/ngx_http_v2_module.html#http2",
    ),
    (
        "thread_pool",
        "https://nginx.org/en/docs/ngx_core_module.html#thread_pool",
    ),
];

/// Documentation page for a directive, sysctl or systemd setting.
pub fn doc_link(name: &str) -> &'static str {
    doc_in(KNOWN.get(name), name)
}

/// Documentation pages of names not in [`DOC_LINKS`], by prefix.
const PREFIXED: &[(&str, &str)] = &[
    (
        "proxy_",
        "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#",
    ),
    (
        "ssl_",
        "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#",
    ),
    ("net.", "https://docs.kernel.org/networking/ip-sysctl.html"),
    ("fs.", "https://docs.kernel.org/admin-guide/sysctl/fs.html"),
    (
        "Limit",
        "https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html#LimitCPU=",
    ),
];

fn doc_in(known: Option<&Known>, name: &str) -> &'static str {
    if let Some(url) = known.and_then(|k| k.doc) {
        return url;
    }
    if let Some((_, url)) = PREFIXED.iter().find(|(p, _)| name.starts_with(p)) {
        return url;
    }
    "https://nginx.org/en/docs/http/ngx_http_core_module.html"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_are_ordered_and_complete() {
        assert!(
            GATES
                .windows(2)
                .all(|w| w[0].since <= w[1].since || w[0].software != w[1].software)
        );
        let debian12 = Versions {
            nginx: v(1, 22, 1),
            openssl: v(3, 0, 0),
        };
        assert!(!debian12.has(Feature::Http2Directive));
        assert!(!debian12.has(Feature::TicketKeyRotation));
        assert!(debian12.has(Feature::SslRejectHandshake));
        assert!(!debian12.has(Feature::PostQuantumKex));
    }

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
    }

    #[test]
    fn advisory_ranges() {
        let a = &ADVISORIES[0];
        assert!(a.affects(v(1, 22, 1)));
        assert!(a.affects(v(1, 26, 2)));
        assert!(!a.affects(v(1, 26, 3)));
        assert!(a.affects(v(1, 27, 3)));
        assert!(!a.affects(v(1, 27, 4)));
        assert!(!a.affects(v(1, 30, 0)));
    }
}
