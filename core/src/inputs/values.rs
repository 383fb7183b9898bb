//! The typed values of the inputs: closed choices and the newtypes that reject anything
//! that could break out of a directive.

use std::fmt;
use std::str::FromStr;

use super::ip::Ip;
use crate::choice::choice;

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
        /// Static files plus PHP scripts run by PHP-FPM.
        Php = "php",
    }
}

impl Workload {
    /// Whether this workload serves files from disk.
    pub const fn serves_files(self) -> bool {
        matches!(self, Self::Static | Self::Mixed | Self::Php)
    }
    /// Whether responses are generated per request (proxied or by PHP-FPM).
    pub const fn dynamic(self) -> bool {
        !matches!(self, Self::Static)
    }
    /// Whether this workload opens connections to upstream servers over HTTP.
    pub const fn proxies(self) -> bool {
        !matches!(self, Self::Static | Self::Php)
    }
}

choice! {
    /// The PHP version of PHP-FPM (Debian's paths name it).
    pub enum PhpVersion {
        /// Ubuntu 22.04.
        V81 = "8.1",
        /// Debian 12.
        V82 = "8.2",
        /// Ubuntu 24.04.
        V83 = "8.3",
        /// Debian 13.
        V84 = "8.4",
        /// PHP 8.5 (November 2025), from Ondřej Surý's packages on Debian and Ubuntu.
        V85 = "8.5",
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
    /// The access log's format.
    pub enum AccessLog {
        /// `combined` plus ISO 8601 time, request time, the upstream's times (where there
        /// is an upstream) and TLS.
        Timing = "timing",
        /// The same fields, one JSON object per line.
        Json = "json",
        /// nginx's predefined `combined`.
        Combined = "combined",
        /// No access log.
        Off = "off",
    }
}

choice! {
    /// What `Strict-Transport-Security` tells browsers that reached the site over HTTPS.
    pub enum Hsts {
        /// No header.
        Off = "off",
        /// This host name only, for two years (Mozilla's recommendation).
        Host = "host",
        /// This name and every name under it (`includeSubDomains`).
        Subdomains = "subdomains",
        /// As `subdomains`, and asking to be built into browsers (`preload`).
        Preload = "preload",
    }
}

choice! {
    /// Caching of the application's responses.
    pub enum Cache {
        /// Nothing cached.
        Off = "off",
        /// Responses cached for a second: a burst of requests for one page reaches the
        /// application once a second.
        Micro = "micro",
    }
}

choice! {
    /// The CDN in front of the site, whose published address ranges are trusted.
    pub enum Cdn {
        /// None.
        None = "none",
        /// Cloudflare: its ranges (`policy::cdn`) and `CF-Connecting-IP`.
        Cloudflare = "cloudflare",
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
    /// A distribution release the user runs: its nginx and OpenSSL versions, layout and
    /// packaged modules are rows of [`crate::policy::RELEASES`]. `any` names none.
    pub enum Release {
        /// No release: the versions default to `any`, the portable form.
        Any = "any",
        /// Debian 12 (bookworm).
        Debian12 = "debian-12",
        /// Debian 13 (trixie).
        Debian13 = "debian-13",
        /// Ubuntu 22.04 LTS (jammy).
        Ubuntu2204 = "ubuntu-22.04",
        /// Ubuntu 24.04 LTS (noble).
        Ubuntu2404 = "ubuntu-24.04",
        /// Red Hat Enterprise Linux 9 and its rebuilds.
        Rhel9 = "rhel-9",
        /// Red Hat Enterprise Linux 10 and its rebuilds.
        Rhel10 = "rhel-10",
        /// nginx.org packages, stable branch.
        NginxOrgStable = "nginx-org-stable",
        /// nginx.org packages, mainline branch.
        NginxOrgMainline = "nginx-org-mainline",
        /// The official image, tag `stable`.
        DockerStable = "docker-stable",
        /// The official image, tag `mainline` (also `latest`).
        DockerMainline = "docker-mainline",
    }
}

/// The nginx or OpenSSL version the output is written for: a known one, or `any`, the
/// portable form that every supported version accepts (the version gates then answer for
/// the oldest supported version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Every supported version.
    Any,
    /// This version.
    Known(crate::version::Version),
}

impl Target {
    /// The version the gates evaluate: the known one, or `oldest` for `any`.
    pub const fn or_oldest(self, oldest: crate::version::Version) -> crate::version::Version {
        match self {
            Self::Any => oldest,
            Self::Known(v) => v,
        }
    }
    /// The known version, if any.
    pub const fn known(self) -> Option<crate::version::Version> {
        match self {
            Self::Any => None,
            Self::Known(v) => Some(v),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Any => f.write_str("any"),
            Self::Known(v) => v.fmt(f),
        }
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

/// A host name nginx can match: `example.com`, `*.example.com`, `.example.com`, `_` or an
/// IP address. Regular-expression names are not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ServerName(String);

/// An address in brackets without them (`[::1]` → `::1`), else `None`.
fn unbracketed(s: &str) -> Option<&str> {
    s.strip_prefix('[').and_then(|r| r.strip_suffix(']'))
}

impl ServerName {
    /// Whether the name is an IP address (clients send no SNI for those).
    pub fn is_ip(&self) -> bool {
        self.bare().parse::<Ip>().is_ok()
    }
    /// Whether the name is one host a URL can name: no wildcard, no leading dot (which
    /// also means every name under it), not `_`.
    pub fn is_single_host(&self) -> bool {
        !(self.0.starts_with('*') || self.0.starts_with('.') || self.0 == "_")
    }
    /// An IPv6 address without its brackets; any other name as it is.
    fn bare(&self) -> &str {
        unbracketed(&self.0).unwrap_or(&self.0)
    }
    /// The name as written in `server_name`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The name used for the site's file: the name without wildcard, `default` for `_`.
    pub fn file_stem(&self) -> &str {
        let mut name = self.bare();
        while let Some(rest) = name.strip_prefix("*.") {
            name = rest;
        }
        match name.trim_start_matches('.') {
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

impl fmt::Display for ServerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for ServerName {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bare = s
            .strip_prefix("*.")
            .or_else(|| s.strip_prefix('.'))
            .unwrap_or(s);
        let unbracketed = unbracketed(s);
        match unbracketed.unwrap_or(s).parse::<Ip>() {
            // The Host header carries an IPv6 address in brackets, and nginx matches the
            // name as it comes: `::1` would never match, `[::1]` does.
            Ok(ip) if !ip.is_ipv4() => Ok(Self(format!("[{ip}]"))),
            Ok(ip) if unbracketed.is_none() => Ok(Self(ip.to_string())),
            Err(()) if s == "_" || is_hostname(bare) => Ok(Self(s.to_ascii_lowercase())),
            // An IPv4 address in brackets, or anything else.
            _ => Err("not a host name"),
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

impl fmt::Display for SafePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
    pub addr: Option<Ip>,
    /// The TCP port.
    pub port: u16,
}

impl Listen {
    /// The same address on another port, as nginx's `listen` writes it.
    pub fn with_port(self, port: u16) -> String {
        let mut out = String::with_capacity(48);
        match self.addr {
            None => {}
            Some(a @ Ip::V4(_)) => {
                a.push_to(&mut out);
                out.push(':');
            }
            Some(a @ Ip::V6(_)) => {
                out.push('[');
                a.push_to(&mut out);
                out.push_str("]:");
            }
        }
        crate::digits::push_u64(&mut out, port.into());
        out
    }
}

impl fmt::Display for Listen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.with_port(self.port))
    }
}

fn parse_port(s: &str) -> Result<u16, &'static str> {
    match crate::digits::parse_as::<u16>(s) {
        Some(0) | None => Err("the port must be a number from 1 to 65535"),
        Some(p) => Ok(p),
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
            a if a.starts_with('[') && a.ends_with(']') => {
                Some(Ip::v6(&a[1..a.len() - 1]).ok_or("not an IPv6 address")?)
            }
            a => Some(Ip::v4(a).ok_or("not an IPv4 address")?),
        };
        // `0.0.0.0:80` is the socket `80` opens: one value, so the list check sees the twin.
        let addr = addr.filter(|a| *a != Ip::V4([0; 4]));
        // No socket binds an IPv4-mapped, multicast or (zone-less) link-local address.
        if let Some(Ip::V6(g)) = addr {
            let mapped = g[..5] == [0; 5] && g[5] == 0xffff;
            if mapped || g[0] & 0xff00 == 0xff00 || g[0] & 0xffc0 == 0xfe80 {
                return Err("not an address this host can listen on");
            }
        }
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
    /// Whether nginx connects to it over TCP (and so uses an ephemeral port per connection).
    pub fn is_tcp(&self) -> bool {
        matches!(self, Self::Tcp { .. })
    }
    /// Whether connections to this server stay on the machine (loopback or Unix socket).
    pub fn is_local(&self) -> bool {
        match self {
            Self::Unix(_) => true,
            Self::Tcp { host, .. } => {
                host == "localhost"
                    || host
                        .trim_matches(|c| c == '[' || c == ']')
                        .parse::<Ip>()
                        .is_ok_and(Ip::is_loopback)
            }
        }
    }
    /// Whether the host is a name that nginx resolves once, at start-up.
    pub fn is_hostname(&self) -> bool {
        matches!(self, Self::Tcp { host, .. } if !host.starts_with('[') && host.parse::<Ip>().is_err())
    }
    /// Whether the host is a name a DNS server answers, which nginx can look up again at
    /// run time: not `localhost`, which the hosts file answers, not DNS.
    pub fn is_dns_name(&self) -> bool {
        self.is_hostname()
            && matches!(self, Self::Tcp { host, .. }
                if host != "localhost" && !host.ends_with(".localhost"))
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
            Ip::v6(v6).is_some()
        } else {
            Ip::v4(host).is_some() || is_hostname(host)
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

/// A DNS server's address for nginx's `resolver`: `127.0.0.53`, `::1` or `[::1]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Resolver(pub Ip);

impl fmt::Display for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            a @ Ip::V4(_) => write!(f, "{a}"),
            a @ Ip::V6(_) => write!(f, "[{a}]"),
        }
    }
}

impl FromStr for Resolver {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bare = s
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .unwrap_or(s);
        bare.parse().map(Self).map_err(|()| "not an IP address")
    }
}

/// An address or network in CIDR notation: `10.0.0.0/8`, `192.0.2.7`, `2001:db8::/32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cidr {
    /// The address.
    pub addr: Ip,
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
                Some(crate::digits::parse_as::<u8>(p).ok_or("the prefix must be a number")?),
            ),
            None => (s, None),
        };
        let addr: Ip = addr.parse().map_err(|()| "not an IP address")?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        if prefix.is_some_and(|p| p > max) {
            return Err("the prefix is longer than the address");
        }
        Ok(Self { addr, prefix })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_name_is_written_as_the_host_header_carries_it() {
        for given in ["::1", "[::1]", "0:0:0:0:0:0:0:1"] {
            let name: ServerName = given.parse().unwrap();
            assert_eq!((name.as_str(), name.file_stem()), ("[::1]", "::1"));
            assert!(name.is_ip());
        }
        let v6: ServerName = "2001:DB8::A".parse().unwrap();
        assert_eq!(v6.as_str(), "[2001:db8::a]");
        let v4: ServerName = "192.0.2.10".parse().unwrap();
        assert_eq!((v4.as_str(), v4.is_ip()), ("192.0.2.10", true));
        for bad in ["[192.0.2.10]", "[example.com]", "[::1", "::1]"] {
            assert!(bad.parse::<ServerName>().is_err(), "{bad}");
        }
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
        // The wildcard address is one socket however it is written.
        assert_eq!("0.0.0.0:80".parse::<Listen>(), "*:80".parse::<Listen>());
        assert_eq!("0.0.0.0:80".parse::<Listen>().unwrap().to_string(), "80");
        for unbindable in ["[::ffff:127.0.0.1]:80", "[ff02::1]:80", "[fe80::1]:80"] {
            assert!(unbindable.parse::<Listen>().is_err(), "{unbindable}");
        }
        assert!("[::1]:8080".parse::<Upstream>().unwrap().is_local());
        assert!(
            "app.internal:3000"
                .parse::<Upstream>()
                .unwrap()
                .is_hostname()
        );
        assert!("unix:/run/app.sock".parse::<Upstream>().unwrap().is_local());
        assert!("10.0.0.5".parse::<Upstream>().is_err());
        // A name DNS answers; localhost is the hosts file's; addresses and sockets are none.
        let dns = |s: &str| s.parse::<Upstream>().unwrap().is_dns_name();
        assert!(dns("app.internal:3000") && dns("app:3000"));
        assert!(!dns("localhost:3000") && !dns("api.localhost:3000"));
        assert!(!dns("127.0.0.1:3000") && !dns("[::1]:3000") && !dns("unix:/run/app.sock"));
    }
}

/// A tuning policy version, `YYYY.MM` (optionally with a letter suffix such as `2026.12b`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyVersion(String);

impl PolicyVersion {
    /// The version as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for PolicyVersion {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WRONG: &str = "not a policy version";
        let (year, rest) = s.split_once('.').ok_or(WRONG)?;
        let month: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let suffix = &rest[month.len()..];
        let ok = year.len() == 4
            && year.bytes().all(|b| b.is_ascii_digit())
            && month.len() == 2
            && (1..=12).contains(&crate::digits::parse_u64(&month).unwrap_or(0))
            && suffix.len() <= 1
            && suffix.bytes().all(|b| b.is_ascii_lowercase());
        if ok {
            Ok(Self(s.to_owned()))
        } else {
            Err(WRONG)
        }
    }
}

impl fmt::Display for PolicyVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
