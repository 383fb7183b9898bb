//! The input error messages and the "accepted" descriptions as registry texts: each
//! error keeps its template and values ([`Msg`]) next to the English text, so a front end
//! can show it in another language ([`super::InputError::localized`]).

use crate::i18n::Catalogue;
use crate::rules::Text;

crate::rules::text_table! {
    "Every input error text.";
    REGISTRY_KIND = "input.registry_kind" => "the input registry gives this field a kind its type cannot take",
    BAD_DEFAULT = "input.bad_default" => "the registry's default is not valid",
    OUT_OF_RANGE = "input.out_of_range" => "{value} is out of range",
    OUT_OF_RANGE_QUOTED = "input.out_of_range_quoted" => "'{value}' is out of range",
    NOT_WHOLE = "input.not_whole" => "'{value}' is not a whole number",
    INVALID = "input.invalid" => "'{value}': {reason}",
    UNSUPPORTED = "input.unsupported" => "{value} is not supported",
    UNKNOWN_CHOICE = "input.unknown_choice" => "unknown value '{value}'",
    ENTRIES = "input.entries" => "{count} entries given",
    TWICE = "input.twice" => "'{value}' is listed twice",
    NAME_COVERED = "input.name_covered" => "'{duplicate}' is listed twice: '{name}' already covers {base} and *.{base}",
    HTTP3_TLS = "input.http3_tls" => "HTTP/3 needs TLS",
    NO_HTTP3 = "input.no_http3" => "nginx {version} has no HTTP/3",
    PORT_443 = "input.port_443" => "port 443 is the HTTPS port, but TLS is off",
    OCSP_TLS = "input.ocsp_tls" => "OCSP stapling needs TLS",
    BOOTSTRAP_TLS = "input.bootstrap_tls" => "bootstrap waits for a TLS certificate, but TLS is off",
    HSTS_TLS = "input.hsts_tls" => "Strict-Transport-Security is sent over HTTPS only, but TLS is off",
    CANONICAL_ONE = "input.canonical_one" => "there is no other server name to redirect to the first",
    CANONICAL_FIRST = "input.canonical_first" => "the first server name, '{name}', is not a single host a redirect can name",
    CANONICAL_ALL = "input.canonical_all" => "'_' answers every name; it cannot be redirected to the first",
    SAME_PORT = "input.same_port" => "port {port} is also the plain-HTTP port",
    STATUS_PORT = "input.status_port" => "port {port} is already in use",
    CACHE_APP = "input.cache_app" => "micro-caching needs an application, proxied or PHP",
    CACHE_STATUS = "input.cache_status" => "cache_status needs cache micro",
    SPA_STATIC = "input.spa_static" => "a single-page application is served by the static workload; in the others an application answers paths that are no file",
    OTHER_MEMORY = "input.other_memory" => "{other} for other services leaves less than the {least} the system and nginx need of the {ram} RAM",
    RESOLVE_APP = "input.resolve_app" => "looking names up again needs a proxied application",
    RESOLVE_NAME = "input.resolve_name" => "no application server is given by a name DNS answers: addresses, sockets and localhost need no lookup",
    NO_RESOLVE = "input.no_resolve" => "nginx {version} cannot look upstream names up again",
    PROXY_PROTOCOL = "input.proxy_protocol" => "the PROXY protocol cannot be combined with {other}",
    CERT_KEY = "input.cert_key" => "certificate and key must be given together",
    NOT_OBJECT = "input.not_object" => "the document must be a JSON object",
    TRAILING = "input.trailing" => "trailing characters after the JSON object",
    NOT_HOST = "input.not_host" => "not a host name",
    NOT_ABSOLUTE = "input.not_absolute" => "must be an absolute path",
    TOO_LONG = "input.too_long" => "is longer than 1024 characters",
    BAD_CHARACTER = "input.bad_character" => "contains a character that is not allowed",
    DOT_DOT = "input.dot_dot" => "must not contain '..'",
    BAD_PORT = "input.bad_port" => "the port must be a number from 1 to 65535",
    NOT_IPV6 = "input.not_ipv6" => "not an IPv6 address",
    NOT_IPV4 = "input.not_ipv4" => "not an IPv4 address",
    NOT_BINDABLE = "input.not_bindable" => "not an address this host can listen on",
    NEEDS_PORT = "input.needs_port" => "needs a port, as in 127.0.0.1:8080",
    NOT_IP_OR_HOST = "input.not_ip_or_host" => "not an IP address or host name",
    BAD_PREFIX = "input.bad_prefix" => "the prefix must be a number",
    NOT_IP = "input.not_ip" => "not an IP address",
    LONG_PREFIX = "input.long_prefix" => "the prefix is longer than the address",
    SIZE_EMPTY = "input.size_empty" => "the size is empty",
    SIZE_NEGATIVE = "input.size_negative" => "a size cannot be negative",
    SIZE_NOT_NUMBER = "input.size_not_number" => "expected a number followed by a unit",
    SIZE_UNIT = "input.size_unit" => "unknown unit '{unit}' (use K, M, G or T, optionally with B or iB)",
    SIZE_TOO_LARGE = "input.size_too_large" => "the size is too large",
    VERSION_FORM = "input.version_form" => "expected a version such as 1.30 or 1.22.1",
    ACCEPTED_INT = "accepted.int" => "a whole number from {min} to {max}",
    ACCEPTED_SIZE = "accepted.size" => "a size such as 8G, 512MiB or 1.5G, from {min} to {max}",
    ACCEPTED_VERSION = "accepted.version" => "any (the form every supported version accepts), or a version such as 1.30 or 1.22.1, {min} or later",
    ACCEPTED_BOOL = "accepted.bool" => "true or false",
    ACCEPTED_PATH = "accepted.path" => "an absolute path of letters, digits and / . _ - + @ % , : = ~",
    ACCEPTED_LIST = "accepted.list" => "1 to {max} entries: {accepted}",
    ACCEPTED_SERVER_NAMES = "accepted.server_names" => "host names such as example.com, *.example.com or _",
    ACCEPTED_LISTEN = "accepted.listen" => "ports, or address:port such as 80, 127.0.0.1:8080 or [::]:80",
    ACCEPTED_RESOLVER = "accepted.resolver" => "an IP address such as 127.0.0.53 or ::1",
    ACCEPTED_UPSTREAMS = "accepted.upstreams" => "host:port or unix:/path, such as 127.0.0.1:8080",
    ACCEPTED_TRUSTED_PROXIES = "accepted.trusted_proxies" => "addresses or networks such as 10.0.0.0/8",
    ACCEPTED_POLICY = "accepted.policy" => "a tuning policy version such as 2026.12",
    NOT_POLICY = "input.not_policy" => "not a policy version",
    ACCEPTED_NO_OVERLAP = "accepted.no_overlap" => "names that do not overlap",
    ACCEPTED_HTTP3_TLS = "accepted.http3_tls" => "http3 only together with tls",
    ACCEPTED_HTTP3_NGINX = "accepted.http3_nginx" => "http3 with nginx {version} or later",
    ACCEPTED_PORT_443 = "accepted.port_443" => "another port, or 443 together with tls (which uses tls_port)",
    ACCEPTED_OCSP_TLS = "accepted.ocsp_tls" => "ocsp_stapling only together with tls",
    ACCEPTED_BOOTSTRAP_TLS = "accepted.bootstrap_tls" => "bootstrap only together with tls",
    ACCEPTED_OTHER_PORT = "accepted.other_port" => "a port other than the listen port",
    ACCEPTED_STATUS_PORT = "accepted.status_port" => "0 (off) or a free port",
    ACCEPTED_CACHE_APP = "accepted.cache_app" => "off, or the proxy, api, mixed or php workload",
    ACCEPTED_CACHE_STATUS = "accepted.cache_status" => "cache_status only together with cache micro",
    ACCEPTED_SPA_STATIC = "accepted.spa_static" => "spa with the static workload",
    ACCEPTED_HSTS_TLS = "accepted.hsts_tls" => "hsts subdomains or preload only together with tls",
    ACCEPTED_CANONICAL = "accepted.canonical" => "canonical with two server names or more, the first a host name such as example.com, none of them _",
    ACCEPTED_OTHER_MEMORY = "accepted.other_memory" => "at most {most} for this RAM",
    ACCEPTED_RESOLVE_APP = "accepted.resolve_app" => "upstream_resolve with the proxy, api or mixed workload",
    ACCEPTED_RESOLVE_NAME = "accepted.resolve_name" => "upstream_resolve with an upstream such as app:3000",
    ACCEPTED_RESOLVE_NGINX = "accepted.resolve_nginx" => "upstream_resolve with nginx {version} or later",
    ACCEPTED_LIMIT_PATHS = "accepted.limit_paths" => "absolute path prefixes such as /login",
    ACCEPTED_PROXY_PROTOCOL = "accepted.proxy_protocol" => "proxy_protocol without behind_lb, cdn and http3",
    ACCEPTED_CERT_KEY = "accepted.cert_key" => "both tls_cert and tls_key, or neither",
    ACCEPTED_DOCUMENT = "accepted.document" => "one JSON object with the fields listed in docs/inputs.md",
    ACCEPTED_OBJECT = "accepted.object" => "a JSON object with the fields listed in docs/inputs.md",
    ACCEPTED_FIELDS = "accepted.fields" => "only the fields listed in docs/inputs.md",
    ACCEPTED_TYPE = "accepted.type" => "a value of the type listed in docs/inputs.md",
}

/// A value filled into a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Shown as it is (a number, the user's escaped text, a list of names).
    Value(String),
    /// A text of the registry, translated with the message.
    Text(&'static Text),
    /// A nested message.
    Msg(Box<Msg>),
}

/// A message: a registry template with its values, or text that has no template (the
/// JSON reader's own words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// A template of [`TEXTS`] and its values.
    Template(&'static Text, Vec<(&'static str, Arg)>),
    /// Text shown as it is in every language.
    Verbatim(String),
}

impl Msg {
    /// A template without values.
    pub(crate) fn of(text: &'static Text) -> Self {
        Self::Template(text, Vec::new())
    }

    /// A template with values.
    pub(crate) fn with(text: &'static Text, args: Vec<(&'static str, Arg)>) -> Self {
        Self::Template(text, args)
    }

    /// A fixed English text: its registry entry when there is one (the registry's
    /// `accepted` descriptions, the value types' parse errors), otherwise the text itself.
    pub(crate) fn english(en: &str) -> Self {
        TEXTS
            .iter()
            .find(|t| t.en == en)
            .map_or_else(|| Self::Verbatim(en.to_owned()), |t| Self::of(t))
    }

    /// The message in the catalogue's language.
    pub fn text(&self, cat: &Catalogue) -> String {
        match self {
            Self::Verbatim(text) => text.clone(),
            Self::Template(text, args) => {
                let values: Vec<(&str, String)> = args
                    .iter()
                    .map(|(name, arg)| {
                        let value = match arg {
                            Arg::Value(v) => v.clone(),
                            Arg::Text(t) => cat.get(t).to_owned(),
                            Arg::Msg(m) => m.text(cat),
                        };
                        (*name, value)
                    })
                    .collect();
                let values: Vec<(&str, &str)> =
                    values.iter().map(|(n, v)| (*n, v.as_str())).collect();
                cat.fill(text, &values)
            }
        }
    }
}

/// A value shown as it is.
pub(crate) fn value(v: impl std::fmt::Display) -> Arg {
    Arg::Value(v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::built_in;
    use crate::inputs::{INPUTS, Inputs, Lang};

    #[test]
    fn every_accepted_description_is_a_template_with_the_old_english() {
        for input in INPUTS {
            let msg = input.kind.accepted_msg();
            assert_eq!(
                msg.text(Catalogue::english()),
                input.kind.accepted_english(),
                "{}",
                input.name
            );
            let choice = matches!(input.kind, crate::inputs::Kind::Choice(_));
            assert_eq!(
                matches!(msg, Msg::Verbatim(_)),
                choice,
                "{}: add its accepted text to TEXTS",
                input.name
            );
        }
    }

    /// Invalid values for every kind of check, and for every value type's parse errors.
    const BAD: &[&str] = &[
        r#"{"vcpu": 0}"#,
        r#"{"vcpu": "many"}"#,
        r#"{"ram": "16Q"}"#,
        r#"{"ram": "1P"}"#,
        r#"{"ram": ""}"#,
        r#"{"ram": "-1G"}"#,
        r#"{"ram": "G"}"#,
        r#"{"ram": "99999999999999999999T"}"#,
        r#"{"nginx_version": "x"}"#,
        r#"{"nginx_version": "1.2"}"#,
        r#"{"workload": "nope"}"#,
        r#"{"server_names": []}"#,
        r#"{"server_names": ["a..b"]}"#,
        r#"{"server_names": ["a.example", "a.example"]}"#,
        r#"{"server_names": [".a.example", "a.example"]}"#,
        r#"{"root": "relative"}"#,
        r#"{"root": "/a/../b"}"#,
        r#"{"root": "/a b"}"#,
        r#"{"listen": ["70000"]}"#,
        r#"{"listen": ["[zz]:80"]}"#,
        r#"{"listen": ["1.2.3:80"]}"#,
        r#"{"listen": ["443"]}"#,
        r#"{"upstreams": ["host"]}"#,
        r#"{"upstreams": ["-bad-:80"]}"#,
        r#"{"trusted_proxies": ["10.0.0.0/x"]}"#,
        r#"{"trusted_proxies": ["nope"]}"#,
        r#"{"trusted_proxies": ["10.0.0.0/40"]}"#,
        r#"{"http3": true}"#,
        r#"{"tls": true, "http3": true, "nginx_version": "1.22"}"#,
        r#"{"ocsp_stapling": true}"#,
        r#"{"tls": true, "tls_port": 80}"#,
        r#"{"tls_cert": "/c.pem"}"#,
        r#"{"tls_port": 70000}"#,
        "[]",
        "{} x",
    ];

    #[test]
    fn every_input_error_is_translated_and_english_is_unchanged() {
        let de = built_in(Lang::De);
        let mut untranslated = Vec::new();
        for json in BAD {
            let errors = Inputs::from_json(json).expect_err(json);
            for e in &errors.0 {
                let german = e.localized(&de);
                assert_eq!(german.field, e.field);
                assert_eq!(e.localized(Catalogue::english()), *e, "{json}");
                // A choice's accepted values are its names, the same in every language.
                let names = matches!(e.source.as_deref(), Some((_, Msg::Verbatim(_))));
                if german.message == e.message || (german.accepted == e.accepted && !names) {
                    untranslated.push(format!("{json}: {e}"));
                }
            }
        }
        assert!(untranslated.is_empty(), "{untranslated:#?}");
    }
}
