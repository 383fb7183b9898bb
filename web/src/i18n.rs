//! The page's own text. English is built in; the other languages come from the same
//! catalogue files as the output's texts (`core/i18n/<lang>.json`, ids `ui.<Name>`),
//! fetched when a language is chosen, so the bundle carries one language, not five.
//! Reason texts and the other output texts are the core's ([`nginx_gen_core::i18n`]).

use nginx_gen_core::Lang;
use nginx_gen_core::i18n::Catalogue;

use crate::fields::{Field, Section};

macro_rules! texts {
    ($($key:ident => $en:literal,)*) => {
        /// A piece of UI text.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum T { $($key),* }

        /// Every text's catalogue id and English, in the order of [`T`].
        const TEXTS: &[(&str, &str)] = &[$((concat!("ui.", stringify!($key)), $en)),*];

        impl T {
            /// Every text, for completeness tests.
            pub const ALL: &'static [Self] = &[$(Self::$key),*];
        }
    };
}

impl T {
    /// The catalogue id (`ui.Tagline`).
    pub const fn id(self) -> &'static str {
        TEXTS[self as usize].0
    }
    /// The English text.
    pub const fn en(self) -> &'static str {
        TEXTS[self as usize].1
    }
    /// The text in the catalogue's language, English where it has none.
    pub fn get(self, cat: &Catalogue) -> &str {
        cat.lookup(self.id()).unwrap_or(self.en())
    }
}

texts! {
    Tagline => "Describe your machine, copy a tuned nginx configuration: every value computed from your inputs, each with its reason.",
    Skip => "Skip to the output",
    Language => "Language",
    Theme => "Theme",
    ThemeAuto => "Auto",
    ThemeLight => "Light",
    ThemeDark => "Dark",
    Inputs => "Your machine",
    Machine => "Machine",
    Workload => "Workload",
    TlsHttp => "TLS / HTTP",
    Advanced => "Advanced",
    Reset => "Reset to defaults",
    Output => "Configuration",
    Files => "Files",
    Copy => "Copy",
    Copied => "Copied to the clipboard.",
    CopyFailed => "The browser refused the clipboard; select the text and copy it yourself.",
    Download => "Download .tar.gz",
    DownloadHint => "Every file, laid out like /etc: unpack with tar -xzf … -C /",
    ShareLink => "Copy share link",
    Script => "install.sh",
    ScriptHint => "Paste into a root shell. Like nginx-gen apply, it tests the new files on a copy with nginx -t first, backs up, installs, reloads or restarts nginx, probes it, and restores every file on a failure.",
    ScriptFailed => "The install script could not be loaded (offline before its first use?); nginx-gen … --format script prints it.",
    Command => "The same with the command-line tool:",
    Capacity => "Capacity",
    CapClients => "Concurrent clients",
    CapLimitedBy => "Limited by",
    LimitCpu => "the vCPUs",
    LimitGiven => "your figure",
    LimitMemory => "memory",
    LimitSlots => "connection slots",
    CapWorkers => "Workers × connections",
    CapPerClient => "Memory per active client",
    CapPeak => "Estimated peak memory",
    Warnings => "Warnings",
    NoWarnings => "No warnings for these inputs.",
    Why => "Why this value",
    WhyHint => "Point at a directive, or move to it with Tab, to see why it has its value.",
    Formula => "Formula",
    DependsOn => "Depends on",
    StockDefault => "nginx's default",
    Docs => "Documentation",
    Omitted => "Left at the default on purpose",
    InvalidNotice => "Some inputs are invalid (marked in the form); the output still shows the last valid configuration.",
    Accepted => "Accepted:",
    UrlNotice => "Parts of this link could not be used and were replaced by the defaults:",
    UnknownParam => "unknown parameter",
    NewerLink => "the link comes from a newer version of this page",
    Dismiss => "Dismiss",
    LangFailed => "The texts of this language could not be loaded (offline before its first use?); the page stays in its language.",
    Footer => "Runs entirely in your browser and keeps working offline; nothing you type leaves this page.",
    Auto => "auto",
    LabelVcpu => "vCPUs",
    HintVcpu => "CPUs nginx may use (container limit, not the host's count).",
    LabelRam => "Memory",
    HintRam => "RAM of the machine or container, e.g. 8G, 512M, 1.5G.",
    LabelOtherMemory => "Other services' memory",
    HintOtherMemory => "What a database or the application on the same machine uses at its peak, e.g. 2G: it comes out of nginx's and PHP-FPM's budgets.",
    LabelRelease => "Release",
    HintRelease => "The distribution release you run: fills in the nginx and OpenSSL versions and the layout below, and the PHP version under Advanced.",
    LabelExistingDefaultServer => "Existing default server",
    HintExistingDefaultServer => "Another site already is the default server on this port (the CLI finds it).",
    LabelLayout => "Distribution",
    HintLayout => "Whose nginx package: sets the user, pid file and module paths.",
    LabelNginxVersion => "nginx version",
    HintNginxVersion => "Selects syntax and features, e.g. 1.22.1 or 1.30; any: valid on every supported version.",
    LabelOpensslVersion => "OpenSSL version",
    HintOpensslVersion => "The OpenSSL nginx is linked with (nginx -V shows it).",
    LabelWorkload => "Workload",
    HintWorkload => "Static files, a reverse proxy, a JSON API, or files plus an application.",
    LabelServerNames => "Server names",
    HintServerNames => "Host names the site answers to, separated by commas; the first names the files.",
    LabelUpstreams => "Application servers",
    HintUpstreams => "host:port or unix:/path, separated by commas (proxy, api, mixed).",
    LabelClients => "Peak concurrent clients",
    HintClients => "Leave empty to derive it from the machine.",
    LabelStaticFiles => "Static files",
    HintStaticFiles => "How many files the site serves; sizes the open-file cache.",
    LabelResponseSize => "Typical response",
    HintResponseSize => "Usual body size of a response, e.g. 32K; sizes the proxy buffers.",
    LabelTls => "HTTPS",
    HintTls => "Serve HTTPS and redirect plain HTTP to it.",
    LabelTlsProfile => "TLS profile",
    HintTlsProfile => "Mozilla intermediate (TLS 1.2 + 1.3) or modern (TLS 1.3 only).",
    LabelTlsPort => "HTTPS port",
    HintTlsPort => "Usually 443.",
    LabelTlsCert => "Certificate",
    HintTlsCert => "Path of the chain; empty means Let's Encrypt's path.",
    LabelTlsKey => "Private key",
    HintTlsKey => "Give it together with the certificate.",
    LabelOcspStapling => "OCSP stapling",
    HintOcspStapling => "Only for CAs that still run OCSP (Let's Encrypt does not).",
    LabelHttp3 => "HTTP/3",
    HintHttp3 => "QUIC over UDP; needs HTTPS and nginx 1.25 or later.",
    LabelCanonical => "Redirect to the first name",
    HintCanonical => "The other host names (www.example.com) answer with a 308 to the first (example.com), path and query kept: one address per page. Needs two names, the first a single host.",
    LabelHsts => "HSTS",
    HintHsts => "Browsers use only HTTPS for two years: for this host, its subdomains too (every one must serve HTTPS), or preload for the browsers' built-in list. Off sends no header.",
    LabelBrotli => "Brotli",
    HintBrotli => "The brotli modules are installed (Debian: libnginx-mod-http-brotli-*).",
    LabelListen => "HTTP listen",
    HintListen => "Ports, or address:port such as 127.0.0.1:8080; both 80 and [::]:80 for IPv4 and IPv6.",
    LabelMaxBodySize => "Largest upload",
    HintMaxBodySize => "Request bodies up to this size reach the application; larger ones get 413.",
    LabelBootstrap => "Bootstrap (no certificate yet)",
    HintBootstrap => "Serve HTTP only, with the ACME location, until certbot has the certificate.",
    LabelResolver => "DNS server",
    HintResolver => "For OCSP stapling and application names looked up again: this host's DNS server (the first nameserver of /etc/resolv.conf); empty means the layout's (127.0.0.11 in Docker, else 127.0.0.53).",
    LabelKtls => "Kernel TLS (kTLS)",
    HintKtls => "The server's kernel has the tls module (lsmod | grep tls): nginx then sends files over TLS with sendfile.",
    LabelUpstreamResolve => "Look application names up again",
    HintUpstreamResolve => "For containers and service discovery (nginx 1.27.3 or later): the application's name, e.g. app:3000, is asked of the DNS server again as its answer expires, so an application that restarts with a new address keeps its requests. Give names in full: nginx reads neither the hosts file nor search domains.",
    LabelSpa => "Single-page application",
    HintSpa => "A React, Vue or Svelte build: paths that are no file (/dashboard, /users/7) get /index.html, whose script draws the page; a missing script or style stays a 404. Static workload only.",
    LabelRoot => "Document root",
    HintRoot => "Where the site's files are; empty means the distribution's usual one.",
    LabelBehindLb => "Behind a load balancer",
    HintBehindLb => "Clients arrive through a load balancer or CDN.",
    LabelTrustedProxies => "Trusted proxies",
    HintTrustedProxies => "Addresses of the load balancers, e.g. 10.0.0.0/8, separated by commas.",
    LabelAccessLog => "Access log",
    HintAccessLog => "timing: combined plus request times, the upstream's if any, and TLS; json: the same as JSON.",
    LabelStatusPort => "Status port",
    HintStatusPort => "stub_status counters on 127.0.0.1 for monitoring agents; 0: off.",
    LabelCache => "Micro-cache",
    HintCache => "micro: the application's pages kept for a second, not for requests with a cookie or credentials.",
    LabelCacheStatus => "Cache status header",
    HintCacheStatus => "X-Cache-Status: HIT, MISS or BYPASS, for checking the cache.",
    LabelPhpVersion => "PHP version",
    HintPhpVersion => "PHP-FPM's version (php workload); Debian's and Ubuntu's paths name it, and the release above sets it.",
    LabelPhpChildMemory => "PHP child memory",
    HintPhpChildMemory => "Peak memory of one PHP-FPM child; sizes pm.max_children.",
    LabelCdn => "CDN",
    HintCdn => "Its published address ranges may name the client.",
    LabelProxyProtocol => "PROXY protocol",
    HintProxyProtocol => "An L4 balancer at the trusted proxies sends it.",
    LabelRateLimit => "Rate limits",
    HintRateLimit => "Requests and connections per client address, sized from the plan; 429 beyond.",
    LabelLimitPaths => "Stricter paths",
    HintLimitPaths => "Path prefixes such as /login, separated by commas: about 1 request a second each client.",
}

/// The heading of a fieldset of the form.
pub const fn section_title(section: Section) -> T {
    match section {
        Section::Machine => T::Machine,
        Section::Workload => T::Workload,
        Section::Tls => T::TlsHttp,
        Section::Advanced => T::Advanced,
    }
}

impl Field {
    /// The field's label and hint, by the input's JSON name; `None` for an input whose
    /// texts are not in the table yet (the form then shows the registry's English help).
    pub fn texts(self) -> Option<(T, T)> {
        Some(match self.key() {
            "vcpu" => (T::LabelVcpu, T::HintVcpu),
            "ram" => (T::LabelRam, T::HintRam),
            "other_memory" => (T::LabelOtherMemory, T::HintOtherMemory),
            "release" => (T::LabelRelease, T::HintRelease),
            "existing_default_server" => {
                (T::LabelExistingDefaultServer, T::HintExistingDefaultServer)
            }
            "layout" => (T::LabelLayout, T::HintLayout),
            "nginx_version" => (T::LabelNginxVersion, T::HintNginxVersion),
            "openssl_version" => (T::LabelOpensslVersion, T::HintOpensslVersion),
            "workload" => (T::LabelWorkload, T::HintWorkload),
            "server_names" => (T::LabelServerNames, T::HintServerNames),
            "upstreams" => (T::LabelUpstreams, T::HintUpstreams),
            "clients" => (T::LabelClients, T::HintClients),
            "static_files" => (T::LabelStaticFiles, T::HintStaticFiles),
            "response_size" => (T::LabelResponseSize, T::HintResponseSize),
            "tls" => (T::LabelTls, T::HintTls),
            "tls_profile" => (T::LabelTlsProfile, T::HintTlsProfile),
            "tls_port" => (T::LabelTlsPort, T::HintTlsPort),
            "tls_cert" => (T::LabelTlsCert, T::HintTlsCert),
            "tls_key" => (T::LabelTlsKey, T::HintTlsKey),
            "ocsp_stapling" => (T::LabelOcspStapling, T::HintOcspStapling),
            "http3" => (T::LabelHttp3, T::HintHttp3),
            "hsts" => (T::LabelHsts, T::HintHsts),
            "canonical" => (T::LabelCanonical, T::HintCanonical),
            "brotli" => (T::LabelBrotli, T::HintBrotli),
            "listen" => (T::LabelListen, T::HintListen),
            "root" => (T::LabelRoot, T::HintRoot),
            "behind_lb" => (T::LabelBehindLb, T::HintBehindLb),
            "trusted_proxies" => (T::LabelTrustedProxies, T::HintTrustedProxies),
            "max_body_size" => (T::LabelMaxBodySize, T::HintMaxBodySize),
            "bootstrap" => (T::LabelBootstrap, T::HintBootstrap),
            "resolver" => (T::LabelResolver, T::HintResolver),
            "ktls" => (T::LabelKtls, T::HintKtls),
            "upstream_resolve" => (T::LabelUpstreamResolve, T::HintUpstreamResolve),
            "spa" => (T::LabelSpa, T::HintSpa),
            "access_log" => (T::LabelAccessLog, T::HintAccessLog),
            "status_port" => (T::LabelStatusPort, T::HintStatusPort),
            "cache" => (T::LabelCache, T::HintCache),
            "cache_status" => (T::LabelCacheStatus, T::HintCacheStatus),
            "php_version" => (T::LabelPhpVersion, T::HintPhpVersion),
            "php_child_memory" => (T::LabelPhpChildMemory, T::HintPhpChildMemory),
            "cdn" => (T::LabelCdn, T::HintCdn),
            "proxy_protocol" => (T::LabelProxyProtocol, T::HintProxyProtocol),
            "rate_limit" => (T::LabelRateLimit, T::HintRateLimit),
            "limit_paths" => (T::LabelLimitPaths, T::HintLimitPaths),
            _ => return None,
        })
    }
}

/// The language's own name, for the switcher.
pub const fn native_name(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::De => "Deutsch",
        Lang::Nl => "Nederlands",
        Lang::Ru => "Русский",
        Lang::Es => "Español",
    }
}

/// The best language for a browser's preference list (`navigator.languages`).
pub fn detect<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Lang {
    preferred
        .into_iter()
        .find_map(|tag| {
            tag.split(['-', '_'])
                .next()
                .and_then(|p| p.to_ascii_lowercase().parse().ok())
        })
        .unwrap_or(Lang::En)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue files as the page fetches them (tests only: the bundle has none).
    fn catalogues() -> Vec<Catalogue> {
        nginx_gen_core::i18n::FILES
            .iter()
            .map(|(_, json)| Catalogue::from_json(json).unwrap())
            .collect()
    }

    #[test]
    fn every_text_is_translated_from_todays_english() {
        let mut problems = Vec::new();
        for cat in catalogues() {
            for &t in T::ALL {
                match cat.texts.get(t.id()) {
                    None => problems.push(format!("{}: {} missing", cat.lang, t.id())),
                    Some(e) if e.from != nginx_gen_core::i18n::fingerprint(t.en()) => {
                        problems.push(format!("{}: {} stale", cat.lang, t.id()));
                    }
                    Some(e) if e.text.trim().is_empty() => {
                        problems.push(format!("{}: {} blank", cat.lang, t.id()));
                    }
                    Some(_) => {}
                }
            }
            for id in cat.texts.keys().filter(|id| id.starts_with("ui.")) {
                if !T::ALL.iter().any(|t| t.id() == id) {
                    problems.push(format!("{}: {id} is no text of the page", cat.lang));
                }
            }
        }
        assert!(
            problems.is_empty(),
            "core/i18n/*.json (set `from` to nginx_gen_core::i18n::fingerprint of the English):\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn english_is_built_in_and_catalogues_translate() {
        assert_eq!(T::Copy.get(Catalogue::english()), "Copy");
        let de = catalogues()
            .into_iter()
            .find(|c| c.lang == Lang::De)
            .unwrap();
        assert_eq!(T::Copy.get(&de), "Kopieren");
    }

    #[test]
    fn every_form_field_has_a_label_and_a_hint() {
        for &field in Field::all() {
            assert!(field.texts().is_some(), "add the texts of {}", field.key());
        }
    }

    #[test]
    fn browser_language_is_detected() {
        assert_eq!(detect(["fr-FR", "de-AT", "en"]), Lang::De);
        assert_eq!(detect(["pt-BR"]), Lang::En);
        assert_eq!(detect(["NL"]), Lang::Nl);
    }
}
