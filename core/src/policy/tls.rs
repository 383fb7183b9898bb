//! The TLS guideline nginx-gen follows, as its publisher names and versions it.

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
    /// The TLS 1.3 cipher suites of both profiles, in the guideline's order (OpenSSL's own
    /// default order puts AES-256 first).
    pub ciphersuites: &'static str,
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
    ciphersuites: "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256",
};
