//! Policy as data: version gates, stock defaults, documentation links, advisories, the TLS
//! guideline and the distributions' layouts. Rules ask these tables; no version number
//! appears anywhere else in the code, and reason texts name versions only through
//! `{Feature}` placeholders filled from the gates ([`fill_versions`]).
//!
//! Sources: nginx `CHANGES` and directive docs, Mozilla's ssl-config-generator, the Linux
//! `ip-sysctl` documentation (see docs/formulas.md).

mod advisories;
pub mod cdn;
mod defaults;
mod docs;
mod layouts;
mod releases;
mod tls;

pub use advisories::{ADVISORIES, Advisory};
pub use defaults::{Lookup, NGINX_DEFAULTS, StockDefault, default_and_doc, stock_default};
pub use docs::{DOC_LINKS, NGINX_MODULES, doc_link};
pub use releases::{RELEASES, ReleaseRow, SUGGESTED};
pub use tls::{TLS_GUIDELINE, TlsGuideline, TlsProfileRow};

use std::fmt::Write as _;

use crate::version::Version;

pub(crate) const fn v(major: u16, minor: u16, patch: u16) -> Version {
    Version::new(major, minor, patch)
}

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
    /// `EPOLLEXCLUSIVE`: the kernel wakes one worker per new connection, so
    /// `accept_mutex` is off by default.
    EpollExclusive,
    /// `ssl_reject_handshake` for a TLS catch-all server.
    SslRejectHandshake,
    /// `ssl_conf_command`: OpenSSL configuration commands, such as `NumTickets`.
    SslConfCommand,
    /// Idle HTTP/2 connections close after `keepalive_timeout` (`http2_idle_timeout`,
    /// 3 minutes, is obsolete).
    Http2KeepaliveTimeout,
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
    /// `server … resolve` in an upstream block (with a `zone` and a `resolver` there): names
    /// looked up again as their DNS answers expire (before, in nginx Plus only).
    UpstreamResolve,
    /// Upstream keepalive on by default, `proxy_http_version` 1.1 by default and no
    /// `Connection: close` sent upstream.
    UpstreamKeepaliveByDefault,
    /// Post-quantum hybrid key exchange `X25519MLKEM768`.
    PostQuantumKex,
    /// nginx sends files with `SSL_sendfile()` over kernel TLS.
    KtlsSendfile,
    /// OpenSSL's `KTLS` option (`ssl_conf_command Options KTLS`).
    KtlsOpenSsl,
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

/// The version gates, oldest first.
pub const GATES: &[Gate] = &[
    Gate {
        feature: Feature::EpollExclusive,
        software: Software::Nginx,
        since: v(1, 11, 3),
        source: "nginx CHANGES 1.11.3",
    },
    Gate {
        feature: Feature::SslRejectHandshake,
        software: Software::Nginx,
        since: v(1, 19, 4),
        source: "nginx CHANGES 1.19.4",
    },
    Gate {
        feature: Feature::SslConfCommand,
        software: Software::Nginx,
        since: v(1, 19, 4),
        source: "nginx CHANGES 1.19.4",
    },
    Gate {
        feature: Feature::Http2KeepaliveTimeout,
        software: Software::Nginx,
        since: v(1, 19, 7),
        source: "nginx CHANGES 1.19.7",
    },
    Gate {
        feature: Feature::KeepaliveRequests1000,
        software: Software::Nginx,
        since: v(1, 19, 10),
        source: "nginx CHANGES 1.19.10",
    },
    Gate {
        feature: Feature::KtlsSendfile,
        software: Software::Nginx,
        since: v(1, 21, 4),
        source: "nginx CHANGES 1.21.4",
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
        feature: Feature::UpstreamResolve,
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
        feature: Feature::KtlsOpenSsl,
        software: Software::OpenSsl,
        since: v(3, 0, 0),
        source: "OpenSSL 3.0 release notes",
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
    /// At compile time, where a feature has no row (the tables below are constants).
    pub const fn gate(self) -> &'static Gate {
        let mut i = 0;
        while i < GATES.len() {
            if GATES[i].feature as u8 == self as u8 {
                return &GATES[i];
            }
            i += 1;
        }
        panic!("every feature has a row in GATES")
    }
    /// The first version that has it.
    pub const fn since(self) -> Version {
        self.gate().since
    }
    /// The feature named `name` (its variant name), for version placeholders in texts.
    pub fn named(name: &str) -> Option<Self> {
        GATES.iter().map(|g| g.feature).find(|f| f.name() == name)
    }
    /// The variant name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::EpollExclusive => "EpollExclusive",
            Self::SslRejectHandshake => "SslRejectHandshake",
            Self::SslConfCommand => "SslConfCommand",
            Self::Http2KeepaliveTimeout => "Http2KeepaliveTimeout",
            Self::KeepaliveRequests1000 => "KeepaliveRequests1000",
            Self::TicketKeyRotation => "TicketKeyRotation",
            Self::Tls13ByDefault => "Tls13ByDefault",
            Self::Quic => "Quic",
            Self::Http2Directive => "Http2Directive",
            Self::OldTlsOffByDefault => "OldTlsOffByDefault",
            Self::UpstreamResolve => "UpstreamResolve",
            Self::UpstreamKeepaliveByDefault => "UpstreamKeepaliveByDefault",
            Self::PostQuantumKex => "PostQuantumKex",
            Self::KtlsSendfile => "KtlsSendfile",
            Self::KtlsOpenSsl => "KtlsOpenSsl",
        }
    }
}

/// `text` with every `{Feature}` placeholder replaced by the first version that has the
/// feature: reason texts name versions only through the gates.
pub fn fill_versions(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('{') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        match Feature::named(name) {
            Some(f) => {
                let since = f.since();
                // OpenSSL names its releases by major.minor (3.5); nginx by all three.
                let _ = if since.patch == 0 && f.gate().software == Software::OpenSsl {
                    write!(out, "{}.{}", since.major, since.minor)
                } else {
                    write!(out, "{since}")
                };
            }
            None => out.push_str(&rest[open..=open + close]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out.into()
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
        for g in GATES {
            assert_eq!(g.feature.gate().since, g.since);
            assert_eq!(Feature::named(g.feature.name()), Some(g.feature));
        }
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
    fn placeholders_take_versions_from_the_gates() {
        assert_eq!(
            fill_versions("before nginx {Http2Directive}"),
            "before nginx 1.25.1"
        );
        assert_eq!(fill_versions("OpenSSL ≥ {PostQuantumKex}"), "OpenSSL ≥ 3.5");
        assert_eq!(fill_versions("no {Placeholder}"), "no {Placeholder}");
    }

    #[test]
    fn every_gate_is_used() {
        // A gate is used by a rule's decision, a stock default's row or a reason text.
        let texts: String = crate::rules::texts().map(|t| t.en).collect();
        for g in GATES {
            let in_text = texts.contains(&format!("{{{}}}", g.feature.name()));
            let in_defaults = NGINX_DEFAULTS.iter().any(|d| d.since == g.since);
            let decides = [
                Feature::SslRejectHandshake,
                Feature::SslConfCommand,
                Feature::TicketKeyRotation,
                Feature::Quic,
                Feature::Http2Directive,
                Feature::UpstreamKeepaliveByDefault,
                Feature::PostQuantumKex,
            ]
            .contains(&g.feature);
            assert!(
                in_text || in_defaults || decides,
                "gate {:?} is dead",
                g.feature
            );
        }
    }
}
