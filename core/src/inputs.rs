//! What the user tells nginx-gen, in two stages.
//!
//! [`RawInputs`] is what arrives from a front end: CLI flags, a JSON document, the web form
//! or the wasm API. Every field is optional and loosely typed (numbers may come as text).
//! [`Inputs::from_raw`] validates it into [`Inputs`], whose fields are typed and in range,
//! filling defaults. All validation lives here, so every front end reports the same
//! message for the same mistake, naming the field.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::choice::choice;

/// Calls `$callback!` with the given names followed by every field of [`RawInputs`] except
/// `vcpu` and `ram`, so code that walks the fields lists them once.
macro_rules! every_field_but_the_machine {
    ($callback:ident $(, $first:ident)*) => {
        $callback!($($first,)* workload, nginx_version, openssl_version, tls, tls_cert, tls_key, tls_profile, tls_port, ocsp_stapling, http3, server_names, root, listen, upstreams, clients, static_files, response_size, behind_lb, trusted_proxies, brotli, layout, lang)
    };
}
use crate::policy::{Feature, Versions};
use crate::size::ByteSize;
use crate::version::Version;

choice! {
    /// What the server mostly does; it changes the numbers, not only the locations.
    pub enum Workload {
        /// Files from disk: HTML, CSS, JS, images.
        Static = "static",
        /// A reverse proxy in front of an application.
        Proxy = "proxy",
        /// A reverse proxy for a JSON API: small responses, many requests.
        Api = "api",
        /// Static files plus a proxied application behind them.
        Mixed = "mixed",
    }
}

impl Workload {
    /// Whether this workload opens connections to upstream servers.
    pub const fn proxies(self) -> bool {
        !matches!(self, Self::Static)
    }
    /// Whether this workload serves files from disk.
    pub const fn serves_files(self) -> bool {
        matches!(self, Self::Static | Self::Mixed)
    }
}

choice! {
    /// Mozilla server-side TLS profile (guideline 6.0).
    pub enum TlsProfile {
        /// TLS 1.2 and 1.3, for general-purpose servers.
        Intermediate = "intermediate",
        /// TLS 1.3 only, for services whose clients are all current.
        Modern = "modern",
    }
}

choice! {
    /// Where the distribution's nginx package keeps things.
    pub enum Layout {
        /// Debian and Ubuntu packages (`www-data`, `modules-enabled/`).
        Debian = "debian",
        /// RHEL, Fedora and their rebuilds.
        Rhel = "rhel",
        /// The packages from nginx.org.
        NginxOrg = "nginx-org",
        /// The official `nginx` container image.
        Docker = "docker",
    }
}

choice! {
    /// Language of the reason texts and comments.
    pub enum Lang {
        /// English.
        En = "en",
        /// German.
        De = "de",
        /// Dutch.
        Nl = "nl",
        /// Russian.
        Ru = "ru",
        /// Spanish.
        Es = "es",
    }
}

/// A number as it arrives: JSON gives integers, forms and flags give text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum Scalar {
    /// A JSON integer.
    Int(i64),
    /// Text to be read as a whole number.
    Text(String),
}

/// Read by hand rather than as an untagged enum: serde's untagged machinery buffers every
/// value and costs the browser builds several kilobytes.
impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number, as a number or as text")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int(n))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Scalar, E> {
                i64::try_from(n)
                    .map(Scalar::Int)
                    .map_err(|_| E::custom("the number is too large"))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(s.to_owned()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl From<u32> for Scalar {
    fn from(n: u32) -> Self {
        Self::Int(i64::from(n))
    }
}

/// Inputs as they arrive from a front end, before validation. Also the JSON input schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "documented in docs/inputs.md and by Inputs")]
pub struct RawInputs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcpu: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nginx_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openssl_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_cert: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_port: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocsp_stapling: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http3: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_names: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstreams: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clients: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_files: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_size: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behind_lb: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted_proxies: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brotli: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

/// One input that is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct InputError {
    /// The input's name in the JSON schema (`ram`, `server_names`, …); `input` for a
    /// document that is not JSON at all.
    pub field: String,
    /// What is wrong with the value.
    pub message: String,
    /// What would be accepted.
    pub accepted: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (accepted: {})",
            self.field, self.message, self.accepted
        )
    }
}

/// Every problem found in one set of inputs; never empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct InputErrors(pub Vec<InputError>);

impl InputErrors {
    /// The error for `field`, if there is one.
    pub fn for_field(&self, field: &str) -> Option<&InputError> {
        self.0.iter().find(|e| e.field == field)
    }
}

impl fmt::Display for InputErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputErrors {}

/// A host name nginx can match: `example.com`, `*.example.com`, `.example.com`, `_` or an
/// IP address. Regular-expression names are not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ServerName(String);

impl ServerName {
    /// The name as written in `server_name`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The name used for the site's file: the name without wildcard, `default` for `_`.
    pub fn file_stem(&self) -> &str {
        match self.0.trim_start_matches("*.").trim_start_matches('.') {
            "_" => "default",
            s => s,
        }
    }
}

fn is_hostname(s: &str) -> bool {
    s.len() <= 253
        && !s.is_empty()
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

impl FromStr for ServerName {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bare = s
            .strip_prefix("*.")
            .or_else(|| s.strip_prefix('.'))
            .unwrap_or(s);
        if s == "_" || is_hostname(bare) || s.parse::<IpAddr>().is_ok() {
            Ok(Self(s.to_ascii_lowercase()))
        } else {
            Err("not a host name")
        }
    }
}

/// An absolute path made only of characters that need no quoting in any of the files
/// nginx-gen writes: letters, digits and `/ . _ - + @ % , : = ~`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SafePath(String);

impl SafePath {
    /// The path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for SafePath {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if !s.starts_with('/') {
            return Err("must be an absolute path");
        }
        if s.len() > 1024 {
            return Err("is longer than 1024 characters");
        }
        if !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+@%,:=~".contains(&b))
        {
            return Err("contains a character that is not allowed");
        }
        if s.split('/').any(|part| part == "..") {
            return Err("must not contain '..'");
        }
        Ok(Self(s.to_owned()))
    }
}

/// Where a server listens: `80`, `*:80`, `127.0.0.1:8080` or `[::]:80`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Listen {
    /// The address, or `None` for every IPv4 address.
    pub addr: Option<IpAddr>,
    /// The TCP port.
    pub port: u16,
}

impl Listen {
    /// The same address on another port, as nginx's `listen` writes it.
    pub fn with_port(self, port: u16) -> String {
        match self.addr {
            None => port.to_string(),
            Some(IpAddr::V4(a)) => format!("{a}:{port}"),
            Some(IpAddr::V6(a)) => format!("[{a}]:{port}"),
        }
    }
}

impl fmt::Display for Listen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.with_port(self.port))
    }
}

fn parse_port(s: &str) -> Result<u16, &'static str> {
    match s.parse::<u16>() {
        Ok(0) | Err(_) => Err("the port must be a number from 1 to 65535"),
        Ok(p) => Ok(p),
    }
}

impl FromStr for Listen {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (addr, port) = match s.rsplit_once(':') {
            None => {
                return Ok(Self {
                    addr: None,
                    port: parse_port(s)?,
                });
            }
            Some((addr, port)) => (addr, parse_port(port)?),
        };
        let addr = match addr {
            "*" => None,
            a if a.starts_with('[') && a.ends_with(']') => Some(IpAddr::V6(
                a[1..a.len() - 1]
                    .parse::<Ipv6Addr>()
                    .map_err(|_| "not an IPv6 address")?,
            )),
            a => Some(IpAddr::V4(
                a.parse::<Ipv4Addr>().map_err(|_| "not an IPv4 address")?,
            )),
        };
        Ok(Self { addr, port })
    }
}

/// An upstream server: `127.0.0.1:8080`, `[::1]:8080`, `app.internal:3000` or
/// `unix:/run/app.sock`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Upstream {
    /// A TCP address; the host is an IP address or a host name.
    Tcp {
        /// IP address (IPv6 in brackets) or host name.
        host: String,
        /// TCP port.
        port: u16,
    },
    /// A Unix domain socket.
    Unix(SafePath),
}

impl Upstream {
    /// Whether connections to this server stay on the machine (loopback or Unix socket).
    pub fn is_local(&self) -> bool {
        match self {
            Self::Unix(_) => true,
            Self::Tcp { host, .. } => {
                host == "localhost"
                    || host
                        .trim_matches(|c| c == '[' || c == ']')
                        .parse::<IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            }
        }
    }
    /// Whether the host is a name that nginx resolves once, at start-up.
    pub fn is_hostname(&self) -> bool {
        matches!(self, Self::Tcp { host, .. } if !host.starts_with('[') && host.parse::<IpAddr>().is_err())
    }
    /// The TCP port, if any.
    pub fn port(&self) -> Option<u16> {
        match self {
            Self::Tcp { port, .. } => Some(*port),
            Self::Unix(_) => None,
        }
    }
}

impl fmt::Display for Upstream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tcp { host, port } => write!(f, "{host}:{port}"),
            Self::Unix(path) => write!(f, "unix:{}", path.as_str()),
        }
    }
}

impl FromStr for Upstream {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(path) = s.strip_prefix("unix:") {
            return path.parse().map(Self::Unix);
        }
        let (host, port) = s
            .rsplit_once(':')
            .ok_or("needs a port, as in 127.0.0.1:8080")?;
        let port = parse_port(port)?;
        let valid = if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            v6.parse::<Ipv6Addr>().is_ok()
        } else {
            host.parse::<Ipv4Addr>().is_ok() || is_hostname(host)
        };
        if !valid {
            return Err("not an IP address or host name");
        }
        Ok(Self::Tcp {
            host: host.to_ascii_lowercase(),
            port,
        })
    }
}

/// An address or network in CIDR notation: `10.0.0.0/8`, `192.0.2.7`, `2001:db8::/32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cidr {
    /// The address.
    pub addr: IpAddr,
    /// The prefix length, if one was given.
    pub prefix: Option<u8>,
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix {
            Some(p) => write!(f, "{}/{p}", self.addr),
            None => write!(f, "{}", self.addr),
        }
    }
}

impl FromStr for Cidr {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (
                a,
                Some(p.parse::<u8>().map_err(|_| "the prefix must be a number")?),
            ),
            None => (s, None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| "not an IP address")?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        if prefix.is_some_and(|p| p > max) {
            return Err("the prefix is longer than the address");
        }
        Ok(Self { addr, prefix })
    }
}

/// Validated inputs: every field typed, in range and defaulted.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent yes/no inputs, as on the command line"
)]
pub struct Inputs {
    /// vCPUs nginx may use (1–1024).
    pub vcpu: u32,
    /// Memory of the machine or container (256 MiB – 16 TiB).
    pub ram: ByteSize,
    /// What the server mostly does.
    pub workload: Workload,
    /// The nginx version the files are for.
    pub nginx_version: Version,
    /// The OpenSSL version nginx is linked with.
    pub openssl_version: Version,
    /// Serve HTTPS (and redirect HTTP to it).
    pub tls: bool,
    /// Certificate chain; `None` means the Let's Encrypt path for the first server name.
    pub tls_cert: Option<SafePath>,
    /// Private key; `None` means the Let's Encrypt path for the first server name.
    pub tls_key: Option<SafePath>,
    /// Mozilla profile.
    pub tls_profile: TlsProfile,
    /// HTTPS port.
    pub tls_port: u16,
    /// Staple OCSP responses (opt-in: Let's Encrypt ended OCSP in 2025).
    pub ocsp_stapling: bool,
    /// Serve HTTP/3 over QUIC (nginx ≥ 1.25.0).
    pub http3: bool,
    /// Names the site answers to.
    pub server_names: Vec<ServerName>,
    /// Document root; `None` means the layout's usual one.
    pub root: Option<SafePath>,
    /// Plain-HTTP listen address and port.
    pub listen: Listen,
    /// Application servers (proxy, api and mixed workloads).
    pub upstreams: Vec<Upstream>,
    /// Expected peak concurrent client connections; `None` derives it from the machine.
    pub clients: Option<u32>,
    /// Number of static files served.
    pub static_files: u32,
    /// Typical response body size.
    pub response_size: ByteSize,
    /// Clients reach nginx through a load balancer or CDN.
    pub behind_lb: bool,
    /// Addresses of the load balancers whose `X-Forwarded-For` is trusted.
    pub trusted_proxies: Vec<Cidr>,
    /// The brotli modules are installed.
    pub brotli: bool,
    /// Distribution layout.
    pub layout: Layout,
    /// Language of comments and reasons.
    pub lang: Lang,
}

/// Accepted ranges, shared by validation, documentation and the front ends' hints.
pub mod limits {
    use crate::size::ByteSize;
    use crate::version::Version;

    /// vCPU range.
    pub const VCPU: (u32, u32) = (1, 1024);
    /// RAM range.
    pub const RAM: (ByteSize, ByteSize) = (
        ByteSize::mib(256),
        ByteSize::bytes(16 * ByteSize::TIB.as_u64()),
    );
    /// Peak concurrent clients range.
    pub const CLIENTS: (u32, u32) = (1, 10_000_000);
    /// Static file count range.
    pub const STATIC_FILES: (u32, u32) = (0, 100_000_000);
    /// Typical response size range.
    pub const RESPONSE_SIZE: (ByteSize, ByteSize) = (ByteSize::KIB, ByteSize::GIB);
    /// Oldest nginx the version gates cover.
    pub const NGINX_MIN: Version = Version::new(1, 18, 0);
    /// Oldest OpenSSL with TLS 1.3.
    pub const OPENSSL_MIN: Version = Version::new(1, 1, 1);
    /// At most this many server names, upstreams or trusted proxies.
    pub const LIST_MAX: usize = 32;
}

/// The current stable nginx branch when this policy was written.
pub const DEFAULT_NGINX: Version = Version::new(1, 30, 0);
/// The OpenSSL of Debian 12, Ubuntu 24.04 and RHEL 9.
pub const DEFAULT_OPENSSL: Version = Version::new(3, 0, 0);

impl Default for Inputs {
    /// The guide's machine: 4 vCPU, 8 GiB, static files.
    fn default() -> Self {
        Self {
            vcpu: 4,
            ram: ByteSize::gib(8),
            workload: Workload::Static,
            nginx_version: DEFAULT_NGINX,
            openssl_version: DEFAULT_OPENSSL,
            tls: false,
            tls_cert: None,
            tls_key: None,
            tls_profile: TlsProfile::Intermediate,
            tls_port: 443,
            ocsp_stapling: false,
            http3: false,
            server_names: vec![ServerName("example.com".into())],
            root: None,
            listen: Listen {
                addr: None,
                port: 80,
            },
            upstreams: vec![Upstream::Tcp {
                host: "127.0.0.1".into(),
                port: 8080,
            }],
            clients: None,
            static_files: 1000,
            response_size: ByteSize::kib(32),
            behind_lb: false,
            trusted_proxies: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]
                .iter()
                .map(|c| c.parse().expect("valid built-in CIDR"))
                .collect(),
            brotli: false,
            layout: Layout::Debian,
            lang: Lang::En,
        }
    }
}

/// Collects validation errors while reading fields one by one.
struct Checker {
    errors: Vec<InputError>,
}

impl Checker {
    fn fail(&mut self, field: &str, message: impl Into<String>, accepted: impl Into<String>) {
        self.errors.push(InputError {
            field: field.into(),
            message: message.into(),
            accepted: accepted.into(),
        });
    }

    fn number(
        &mut self,
        field: &str,
        raw: Option<&Scalar>,
        (min, max): (u32, u32),
        default: u32,
    ) -> u32 {
        let accepted = format!("a whole number from {min} to {max}");
        let value = match raw {
            None => return default,
            Some(Scalar::Int(n)) => Some(*n),
            Some(Scalar::Text(t)) => t.trim().parse::<i64>().ok(),
        };
        match value {
            Some(n) if (i64::from(min)..=i64::from(max)).contains(&n) => n as u32,
            Some(n) => {
                self.fail(field, format!("{n} is out of range"), accepted);
                default
            }
            None => {
                let text = match raw {
                    Some(Scalar::Text(t)) => t.as_str(),
                    _ => "",
                };
                self.fail(
                    field,
                    format!("'{}' is not a whole number", printable(text)),
                    accepted,
                );
                default
            }
        }
    }

    fn size(
        &mut self,
        field: &str,
        raw: Option<&str>,
        (min, max): (ByteSize, ByteSize),
        default: ByteSize,
    ) -> ByteSize {
        let accepted = format!("a size such as 8G, 512MiB or 1.5G, from {min} to {max}");
        let Some(text) = raw else { return default };
        match text.parse::<ByteSize>() {
            Ok(size) if (min..=max).contains(&size) => size,
            Ok(_) => {
                self.fail(
                    field,
                    format!("'{}' is out of range", printable(text)),
                    accepted,
                );
                default
            }
            Err(e) => {
                self.fail(field, format!("'{}': {e}", printable(text)), accepted);
                default
            }
        }
    }

    fn choice<T: FromStr + Copy>(
        &mut self,
        field: &str,
        raw: Option<&str>,
        names: &[&str],
        default: T,
    ) -> T {
        let Some(text) = raw else { return default };
        text.parse().unwrap_or_else(|_| {
            self.fail(
                field,
                format!("unknown value '{}'", printable(text)),
                names.join(", "),
            );
            default
        })
    }

    fn version(
        &mut self,
        field: &str,
        raw: Option<&str>,
        min: Version,
        default: Version,
    ) -> Version {
        let Some(text) = raw else { return default };
        let accepted = format!("a version such as 1.30 or 1.22.1, {min} or later");
        match text.parse::<Version>() {
            Ok(v) if v >= min && v.major < 10 => v,
            Ok(v) => {
                self.fail(field, format!("{v} is not supported"), accepted);
                default
            }
            Err(e) => {
                self.fail(field, format!("'{}': {e}", printable(text)), accepted);
                default
            }
        }
    }

    fn parsed<T: FromStr<Err = &'static str>>(
        &mut self,
        field: &str,
        text: &str,
        accepted: &str,
    ) -> Option<T> {
        text.parse()
            .map_err(|e| self.fail(field, format!("'{}': {e}", printable(text)), accepted))
            .ok()
    }

    fn list<T: FromStr<Err = &'static str> + PartialEq>(
        &mut self,
        field: &str,
        raw: Option<&Vec<String>>,
        accepted: &str,
        default: Vec<T>,
    ) -> Vec<T> {
        let Some(items) = raw else { return default };
        if items.is_empty() || items.len() > limits::LIST_MAX {
            self.fail(
                field,
                format!("{} entries given", items.len()),
                format!("1 to {} entries: {accepted}", limits::LIST_MAX),
            );
            return default;
        }
        let before = self.errors.len();
        let mut out: Vec<T> = Vec::with_capacity(items.len());
        for item in items {
            if let Some(v) = self.parsed::<T>(field, item, accepted) {
                if out.contains(&v) {
                    self.fail(
                        field,
                        format!("'{}' is listed twice", printable(item)),
                        accepted,
                    );
                } else {
                    out.push(v);
                }
            }
        }
        if self.errors.len() > before {
            default
        } else {
            out
        }
    }
}

/// Shows a rejected value safely inside a one-line message: control characters escaped,
/// long values cut.
fn printable(s: &str) -> String {
    printable_up_to(s, 64)
}

fn printable_up_to(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).flat_map(char::escape_debug).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

impl Inputs {
    /// Validates raw inputs; every problem is reported, each naming its field.
    pub fn from_raw(raw: &RawInputs) -> Result<Self, InputErrors> {
        let d = Self::default();
        let mut c = Checker { errors: Vec::new() };
        let path_accepted = "an absolute path of letters, digits and / . _ - + @ % , : = ~";
        let path = |c: &mut Checker, field: &str, raw: Option<&String>| {
            raw.and_then(|t| c.parsed::<SafePath>(field, t, path_accepted))
        };

        let inputs = Self {
            vcpu: c.number("vcpu", raw.vcpu.as_ref(), limits::VCPU, d.vcpu),
            ram: c.size("ram", raw.ram.as_deref(), limits::RAM, d.ram),
            workload: c.choice(
                "workload",
                raw.workload.as_deref(),
                Workload::NAMES,
                d.workload,
            ),
            nginx_version: c.version(
                "nginx_version",
                raw.nginx_version.as_deref(),
                limits::NGINX_MIN,
                d.nginx_version,
            ),
            openssl_version: c.version(
                "openssl_version",
                raw.openssl_version.as_deref(),
                limits::OPENSSL_MIN,
                d.openssl_version,
            ),
            tls: raw.tls.unwrap_or(d.tls),
            tls_cert: path(&mut c, "tls_cert", raw.tls_cert.as_ref()),
            tls_key: path(&mut c, "tls_key", raw.tls_key.as_ref()),
            tls_profile: c.choice(
                "tls_profile",
                raw.tls_profile.as_deref(),
                TlsProfile::NAMES,
                d.tls_profile,
            ),
            tls_port: c.number(
                "tls_port",
                raw.tls_port.as_ref(),
                (1, 65535),
                u32::from(d.tls_port),
            ) as u16,
            ocsp_stapling: raw.ocsp_stapling.unwrap_or(d.ocsp_stapling),
            http3: raw.http3.unwrap_or(d.http3),
            server_names: c.list(
                "server_names",
                raw.server_names.as_ref(),
                "host names such as example.com, *.example.com or _",
                d.server_names,
            ),
            root: path(&mut c, "root", raw.root.as_ref()),
            listen: raw
                .listen
                .as_ref()
                .and_then(|t| {
                    c.parsed(
                        "listen",
                        t,
                        "a port, or address:port such as 80, 127.0.0.1:8080 or [::]:80",
                    )
                })
                .unwrap_or(d.listen),
            upstreams: c.list(
                "upstreams",
                raw.upstreams.as_ref(),
                "host:port or unix:/path, such as 127.0.0.1:8080",
                d.upstreams,
            ),
            clients: raw
                .clients
                .as_ref()
                .map(|n| c.number("clients", Some(n), limits::CLIENTS, 1)),
            static_files: c.number(
                "static_files",
                raw.static_files.as_ref(),
                limits::STATIC_FILES,
                d.static_files,
            ),
            response_size: c.size(
                "response_size",
                raw.response_size.as_deref(),
                limits::RESPONSE_SIZE,
                d.response_size,
            ),
            behind_lb: raw.behind_lb.unwrap_or(d.behind_lb),
            trusted_proxies: c.list(
                "trusted_proxies",
                raw.trusted_proxies.as_ref(),
                "addresses or networks such as 10.0.0.0/8",
                d.trusted_proxies,
            ),
            brotli: raw.brotli.unwrap_or(d.brotli),
            layout: c.choice("layout", raw.layout.as_deref(), Layout::NAMES, d.layout),
            lang: c.choice("lang", raw.lang.as_deref(), Lang::NAMES, d.lang),
        };
        inputs.check_combinations(&mut c);
        if c.errors.is_empty() {
            Ok(inputs)
        } else {
            Err(InputErrors(c.errors))
        }
    }

    /// Rules that involve more than one field.
    fn check_combinations(&self, c: &mut Checker) {
        let versions = self.versions();
        // `.x` already means `x` and `*.x`; nginx would ignore the duplicate with a warning.
        for name in self.server_names.iter().map(ServerName::as_str) {
            if let Some(base) = name.strip_prefix('.') {
                let wildcard = format!("*.{base}");
                if let Some(dup) = self
                    .server_names
                    .iter()
                    .find(|n| n.as_str() == base || n.as_str() == wildcard)
                {
                    c.fail(
                        "server_names",
                        format!(
                            "'{}' is listed twice: '{name}' already covers {base} and *.{base}",
                            dup.as_str()
                        ),
                        "names that do not overlap",
                    );
                }
            }
        }
        if self.http3 && !self.tls {
            c.fail("http3", "HTTP/3 needs TLS", "http3 only together with tls");
        } else if self.http3 && !versions.has(Feature::Quic) {
            c.fail(
                "http3",
                format!("nginx {} has no HTTP/3", self.nginx_version),
                format!("http3 with nginx {} or later", Feature::Quic.since()),
            );
        }
        if !self.tls && self.listen.port == 443 {
            c.fail(
                "listen",
                "port 443 is the HTTPS port, but TLS is off",
                "another port, or 443 together with tls (which uses tls_port)",
            );
        }
        if self.ocsp_stapling && !self.tls {
            c.fail(
                "ocsp_stapling",
                "OCSP stapling needs TLS",
                "ocsp_stapling only together with tls",
            );
        }
        if self.tls && self.tls_port == self.listen.port {
            c.fail(
                "tls_port",
                format!("port {} is also the plain-HTTP port", self.tls_port),
                "a port other than the listen port",
            );
        }
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            let field = if self.tls_cert.is_some() {
                "tls_key"
            } else {
                "tls_cert"
            };
            c.fail(
                field,
                "certificate and key must be given together",
                "both tls_cert and tls_key, or neither",
            );
        }
    }

    /// Reads the JSON input document (the schema of [`RawInputs`]) and validates it.
    pub fn from_json(text: &str) -> Result<Self, InputErrors> {
        Self::from_raw(&RawInputs::from_json(text)?)
    }

    /// The versions that select syntax and features.
    pub const fn versions(&self) -> Versions {
        Versions {
            nginx: self.nginx_version,
            openssl: self.openssl_version,
        }
    }

    /// The first server name, which names the site file and the default certificate path.
    pub fn primary_name(&self) -> &ServerName {
        &self.server_names[0]
    }

    /// The inputs as a complete raw document: validating it gives these inputs back.
    pub fn to_raw(&self) -> RawInputs {
        let strings = |v: &[String]| Some(v.to_vec());
        RawInputs {
            vcpu: Some(self.vcpu.into()),
            ram: Some(self.ram.to_string()),
            workload: Some(self.workload.to_string()),
            nginx_version: Some(self.nginx_version.to_string()),
            openssl_version: Some(self.openssl_version.to_string()),
            tls: Some(self.tls),
            tls_cert: self.tls_cert.as_ref().map(|p| p.0.clone()),
            tls_key: self.tls_key.as_ref().map(|p| p.0.clone()),
            tls_profile: Some(self.tls_profile.to_string()),
            tls_port: Some(u32::from(self.tls_port).into()),
            ocsp_stapling: Some(self.ocsp_stapling),
            http3: Some(self.http3),
            server_names: strings(
                &self
                    .server_names
                    .iter()
                    .map(|s| s.0.clone())
                    .collect::<Vec<_>>(),
            ),
            root: self.root.as_ref().map(|p| p.0.clone()),
            listen: Some(self.listen.to_string()),
            upstreams: strings(
                &self
                    .upstreams
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>(),
            ),
            clients: self.clients.map(Scalar::from),
            static_files: Some(self.static_files.into()),
            response_size: Some(self.response_size.to_string()),
            behind_lb: Some(self.behind_lb),
            trusted_proxies: strings(
                &self
                    .trusted_proxies
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>(),
            ),
            brotli: Some(self.brotli),
            layout: Some(self.layout.to_string()),
            lang: Some(self.lang.to_string()),
        }
    }

    /// The raw document holding only what differs from the defaults (always `vcpu` and
    /// `ram`, so that it reproduces the output on any machine).
    pub fn to_raw_minimal(&self) -> RawInputs {
        let full = self.to_raw();
        let d = Self::default().to_raw();
        macro_rules! keep_if_changed {
            ($($f:ident),*) => { RawInputs { $($f: if full.$f == d.$f { None } else { full.$f.clone() },)* ..full.clone() } };
        }
        every_field_but_the_machine!(keep_if_changed)
    }

    /// The `nginx-gen` command line that reproduces these inputs exactly: `--vcpu` and
    /// `--ram` always, every other flag only where it differs from the default.
    pub fn to_command(&self) -> String {
        use std::fmt::Write as _;
        let d = defaults();
        let mut cmd = String::with_capacity(96);
        let _ = write!(cmd, "nginx-gen --vcpu {} --ram {}", self.vcpu, self.ram);
        let mut arg = |flag: &str, value: &dyn fmt::Display| {
            let _ = write!(cmd, " --{flag} {value}");
        };
        macro_rules! changed {
            ($($field:ident => $flag:literal),* $(,)?) => {$(
                if self.$field != d.$field {
                    arg($flag, &self.$field);
                }
            )*};
        }
        changed!(workload => "workload", nginx_version => "nginx-version", openssl_version => "openssl-version");
        if let Some(p) = &self.tls_cert {
            arg("tls-cert", &p.as_str());
        }
        if let Some(p) = &self.tls_key {
            arg("tls-key", &p.as_str());
        }
        changed!(tls_profile => "tls-profile", tls_port => "tls-port");
        if self.server_names != d.server_names {
            for name in &self.server_names {
                arg("server-name", &name.as_str());
            }
        }
        if let Some(p) = &self.root {
            arg("root", &p.as_str());
        }
        changed!(listen => "listen");
        if self.upstreams != d.upstreams {
            for upstream in &self.upstreams {
                arg("upstream", upstream);
            }
        }
        if let Some(n) = self.clients {
            arg("clients", &n);
        }
        changed!(static_files => "static-files", response_size => "response-size");
        if self.trusted_proxies != d.trusted_proxies {
            for proxy in &self.trusted_proxies {
                arg("trusted-proxy", proxy);
            }
        }
        changed!(layout => "layout", lang => "lang");
        for (flag, on) in [
            ("tls", self.tls),
            ("ocsp-stapling", self.ocsp_stapling),
            ("http3", self.http3),
            ("behind-lb", self.behind_lb),
            ("brotli", self.brotli),
        ] {
            if on {
                cmd.push_str(" --");
                cmd.push_str(flag);
            }
        }
        cmd
    }
}

/// The default inputs, built once.
pub fn defaults() -> &'static Inputs {
    static DEFAULTS: std::sync::LazyLock<Inputs> = std::sync::LazyLock::new(Inputs::default);
    &DEFAULTS
}

impl RawInputs {
    /// Parses the JSON input document without validating values; a syntax error, a wrong
    /// type or an unknown field is reported naming the field.
    pub fn from_json(text: &str) -> Result<Self, InputErrors> {
        let document_error = |message: &str| {
            InputErrors(vec![InputError {
                field: "input".to_owned(),
                message: message.to_owned(),
                accepted: "one JSON object with the fields listed in docs/inputs.md".to_owned(),
            }])
        };
        if !text.trim_start().starts_with('{') {
            return Err(document_error("the document must be a JSON object"));
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        let raw = Self::deserialize_named(de)?;
        de.end()
            .map_err(|_| document_error("trailing characters after the JSON object"))?;
        Ok(raw)
    }

    /// Deserializes, naming the field of the first error.
    fn deserialize_named(
        de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<Self, InputErrors> {
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let raw_message = inner.to_string();
            // The document's own text (a key, a value) is escaped before it is shown.
            let message = printable_up_to(&raw_message, 300);
            let field = if let Some(rest) = raw_message.strip_prefix("unknown field `") {
                match rest.split('`').next().unwrap_or_default() {
                    "" => "input".to_owned(),
                    name => printable(name),
                }
            } else if path == "." || inner.is_syntax() || inner.is_eof() {
                "input".to_owned()
            } else {
                path.split(['.', '['])
                    .find(|s| !s.is_empty())
                    .unwrap_or("input")
                    .to_owned()
            };
            let accepted = if field == "input" {
                "a JSON object with the fields listed in docs/inputs.md".to_owned()
            } else if message.starts_with("unknown field") {
                "only the fields listed in docs/inputs.md".to_owned()
            } else {
                "a value of the type listed in docs/inputs.md".to_owned()
            };
            InputErrors(vec![InputError {
                field,
                message,
                accepted,
            }])
        })
    }

    /// Fields set here replace those of `base`.
    #[must_use]
    pub fn over(self, base: Self) -> Self {
        macro_rules! pick {
            ($($f:ident),*) => { Self { $($f: self.$f.or(base.$f),)* } };
        }
        every_field_but_the_machine!(pick, vcpu, ram)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> Result<Inputs, InputErrors> {
        Inputs::from_json(json)
    }

    #[test]
    fn empty_document_gives_the_defaults() {
        assert_eq!(raw("{}").unwrap(), Inputs::default());
    }

    #[test]
    fn every_bad_field_is_named() {
        let err = raw(r#"{"vcpu": 0, "ram": "8Q", "workload": "foo", "server_names": ["a;b"]}"#)
            .unwrap_err();
        let fields: Vec<_> = err.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["vcpu", "ram", "workload", "server_names"]);
    }

    #[test]
    fn unknown_fields_and_types_are_named() {
        assert_eq!(raw(r#"{"cpus": 4}"#).unwrap_err().0[0].field, "cpus");
        assert_eq!(raw(r#"{"tls": "yes"}"#).unwrap_err().0[0].field, "tls");
        assert_eq!(raw("{").unwrap_err().0[0].field, "input");
    }

    #[test]
    fn hostile_strings_are_rejected() {
        for name in [
            "a;b",
            "a{",
            "a}",
            "\"x\"",
            "#x",
            "$host",
            "a\nb",
            "a\0b",
            "a b",
            "ä.example",
        ] {
            assert!(name.parse::<ServerName>().is_err(), "{name:?}");
        }
        for path in [
            "/a;b", "/a b", "/a\"", "relative", "/a/../b", "/a$x", "/a\n",
        ] {
            assert!(path.parse::<SafePath>().is_err(), "{path:?}");
        }
    }

    #[test]
    fn listen_and_upstream_forms() {
        assert_eq!("80".parse::<Listen>().unwrap().to_string(), "80");
        assert_eq!(
            "[::]:8080".parse::<Listen>().unwrap().to_string(),
            "[::]:8080"
        );
        assert!("0".parse::<Listen>().is_err());
        assert!("[::1]:8080".parse::<Upstream>().unwrap().is_local());
        assert!(
            "app.internal:3000"
                .parse::<Upstream>()
                .unwrap()
                .is_hostname()
        );
        assert!("unix:/run/app.sock".parse::<Upstream>().unwrap().is_local());
        assert!("10.0.0.5".parse::<Upstream>().is_err());
    }

    #[test]
    fn command_reproduces_inputs() {
        let inputs = raw(r#"{"vcpu": 2, "ram": "1.5G", "workload": "api", "tls": true, "upstreams": ["10.0.0.2:9000", "10.0.0.3:9000"]}"#).unwrap();
        assert_eq!(
            inputs.to_command(),
            "nginx-gen --vcpu 2 --ram 1536M --workload api --upstream 10.0.0.2:9000 --upstream 10.0.0.3:9000 --tls"
        );
    }
}
