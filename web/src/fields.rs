//! The form's fields: one per input of the core, with its kind and group.
//!
//! Values travel as text (what an `<input>` holds); [`Field::apply`] puts one into a
//! [`RawInputs`] and [`Field::read`] takes it back out, so the form, the share URL and the
//! core agree on one representation. Nothing here validates: the core does.

use nginx_gen_core::inputs::Scalar;
use nginx_gen_core::{Layout, RawInputs, TlsProfile, Workload};

/// How a field is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number, typed.
    Number,
    /// Free text (sizes, versions, paths, addresses).
    Text,
    /// Several values separated by commas or spaces.
    List,
    /// A checkbox.
    Flag,
    /// One of fixed names.
    Choice(&'static [&'static str]),
}

/// The section of the form a field is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// vCPU, RAM, distribution and versions.
    Machine,
    /// What the server does and for whom.
    Workload,
    /// HTTPS and HTTP versions.
    Tls,
    /// Listen address, document root, load balancer.
    Advanced,
}

impl Group {
    /// Every group, in display order.
    pub const ALL: [Self; 4] = [Self::Machine, Self::Workload, Self::Tls, Self::Advanced];
}

macro_rules! fields {
    ($($variant:ident = $key:literal, $kind:expr, $group:ident;)*) => {
        /// One input of the core.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Field { $($variant),* }

        impl Field {
            /// Every field, in display order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),*];
            /// The field's name in the JSON input schema, the URL and error messages.
            pub const fn key(self) -> &'static str {
                match self { $(Self::$variant => $key),* }
            }
            /// How it is edited.
            pub const fn kind(self) -> Kind {
                match self { $(Self::$variant => $kind),* }
            }
            /// Where it is shown.
            pub const fn group(self) -> Group {
                match self { $(Self::$variant => Group::$group),* }
            }
        }
    };
}

fields! {
    Vcpu = "vcpu", Kind::Number, Machine;
    Ram = "ram", Kind::Text, Machine;
    Layout = "layout", Kind::Choice(Layout::NAMES), Machine;
    NginxVersion = "nginx_version", Kind::Text, Machine;
    OpensslVersion = "openssl_version", Kind::Text, Machine;
    Workload = "workload", Kind::Choice(Workload::NAMES), Workload;
    ServerNames = "server_names", Kind::List, Workload;
    Upstreams = "upstreams", Kind::List, Workload;
    Clients = "clients", Kind::Number, Workload;
    StaticFiles = "static_files", Kind::Number, Workload;
    ResponseSize = "response_size", Kind::Text, Workload;
    Tls = "tls", Kind::Flag, Tls;
    TlsProfile = "tls_profile", Kind::Choice(TlsProfile::NAMES), Tls;
    TlsPort = "tls_port", Kind::Number, Tls;
    TlsCert = "tls_cert", Kind::Text, Tls;
    TlsKey = "tls_key", Kind::Text, Tls;
    OcspStapling = "ocsp_stapling", Kind::Flag, Tls;
    Http3 = "http3", Kind::Flag, Tls;
    Brotli = "brotli", Kind::Flag, Tls;
    Listen = "listen", Kind::Text, Advanced;
    Root = "root", Kind::Text, Advanced;
    BehindLb = "behind_lb", Kind::Flag, Advanced;
    TrustedProxies = "trusted_proxies", Kind::List, Advanced;
}

/// Splits a list field: commas, spaces and line breaks separate entries.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn scalar_text(s: Option<&Scalar>) -> Option<String> {
    s.map(|s| match s {
        Scalar::Int(n) => n.to_string(),
        Scalar::Text(t) => t.clone(),
    })
}

impl Field {
    /// The field with this JSON name.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.key() == key)
    }

    /// Sets this field of `raw` from text. Blank text means "not given" (the core's
    /// default); a flag is on for `true`/`1`/`on`. Returns `false` for a flag value that
    /// is none of `true 1 on false 0 off` (the field is then left unset).
    pub fn apply(self, raw: &mut RawInputs, text: &str) -> bool {
        let text = text.trim();
        let some = (!text.is_empty()).then(|| text.to_owned());
        let number = some.clone().map(Scalar::Text);
        let list = (!text.is_empty()).then(|| split_list(text));
        match self {
            Self::Vcpu => raw.vcpu = number,
            Self::Ram => raw.ram = some,
            Self::Layout => raw.layout = some,
            Self::NginxVersion => raw.nginx_version = some,
            Self::OpensslVersion => raw.openssl_version = some,
            Self::Workload => raw.workload = some,
            Self::ServerNames => raw.server_names = list,
            Self::Upstreams => raw.upstreams = list,
            Self::Clients => raw.clients = number,
            Self::StaticFiles => raw.static_files = number,
            Self::ResponseSize => raw.response_size = some,
            Self::TlsProfile => raw.tls_profile = some,
            Self::TlsPort => raw.tls_port = number,
            Self::TlsCert => raw.tls_cert = some,
            Self::TlsKey => raw.tls_key = some,
            Self::Listen => raw.listen = some,
            Self::Root => raw.root = some,
            Self::TrustedProxies => raw.trusted_proxies = list,
            Self::Tls | Self::OcspStapling | Self::Http3 | Self::Brotli | Self::BehindLb => {
                let value = match text {
                    "true" | "1" | "on" => Some(true),
                    "false" | "0" | "off" | "" => Some(false),
                    _ => None,
                };
                let slot = match self {
                    Self::Tls => &mut raw.tls,
                    Self::OcspStapling => &mut raw.ocsp_stapling,
                    Self::Http3 => &mut raw.http3,
                    Self::Brotli => &mut raw.brotli,
                    _ => &mut raw.behind_lb,
                };
                *slot = value;
                return value.is_some();
            }
        }
        true
    }

    /// This field of `raw` as text (`None` when not given); lists are joined with ", "
    /// and flags are `true`/`false`.
    pub fn read(self, raw: &RawInputs) -> Option<String> {
        let list = |v: &Option<Vec<String>>| v.as_ref().map(|v| v.join(", "));
        let flag = |b: Option<bool>| b.map(|b| b.to_string());
        match self {
            Self::Vcpu => scalar_text(raw.vcpu.as_ref()),
            Self::Ram => raw.ram.clone(),
            Self::Layout => raw.layout.clone(),
            Self::NginxVersion => raw.nginx_version.clone(),
            Self::OpensslVersion => raw.openssl_version.clone(),
            Self::Workload => raw.workload.clone(),
            Self::ServerNames => list(&raw.server_names),
            Self::Upstreams => list(&raw.upstreams),
            Self::Clients => scalar_text(raw.clients.as_ref()),
            Self::StaticFiles => scalar_text(raw.static_files.as_ref()),
            Self::ResponseSize => raw.response_size.clone(),
            Self::Tls => flag(raw.tls),
            Self::TlsProfile => raw.tls_profile.clone(),
            Self::TlsPort => scalar_text(raw.tls_port.as_ref()),
            Self::TlsCert => raw.tls_cert.clone(),
            Self::TlsKey => raw.tls_key.clone(),
            Self::OcspStapling => flag(raw.ocsp_stapling),
            Self::Http3 => flag(raw.http3),
            Self::Brotli => flag(raw.brotli),
            Self::Listen => raw.listen.clone(),
            Self::Root => raw.root.clone(),
            Self::BehindLb => flag(raw.behind_lb),
            Self::TrustedProxies => list(&raw.trusted_proxies),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;

    #[test]
    fn every_field_round_trips_through_raw_inputs() {
        let raw = Inputs::default().to_raw();
        for &field in Field::ALL {
            let mut copy = RawInputs::default();
            if let Some(text) = field.read(&raw) {
                assert!(field.apply(&mut copy, &text), "{field:?}");
                assert_eq!(field.read(&copy), Some(text), "{field:?}");
            }
            assert_eq!(Field::from_key(field.key()), Some(field));
        }
    }

    #[test]
    fn lists_split_on_commas_and_spaces() {
        assert_eq!(
            split_list(" a.com, b.com  c.com,,"),
            ["a.com", "b.com", "c.com"]
        );
        let mut raw = RawInputs::default();
        Field::ServerNames.apply(&mut raw, "");
        assert_eq!(raw.server_names, None);
    }

    #[test]
    fn flags_accept_only_known_words() {
        let mut raw = RawInputs::default();
        assert!(Field::Tls.apply(&mut raw, "1"));
        assert_eq!(raw.tls, Some(true));
        assert!(!Field::Tls.apply(&mut raw, "yes please"));
        assert_eq!(raw.tls, None);
    }
}
