//! The input registry: every input once, in the order of the JSON document.
//!
//! Each entry declares the field of [`Inputs`] (its doc comment and type), the field of
//! [`RawInputs`] (the raw type) and the [`Input`] that the CLI, the web form, the JSON
//! schema and docs/inputs.md are built from. Adding an input: an entry here, its label and
//! hint in the web page's language tables (web/src/i18n.rs), then the code that uses it.

use super::limits;
use super::raw::Scalar;
use super::spec::DefaultValue::{List, Unset, Value};
use super::spec::{Flag, Form, Group, Kind, Section, Widget};
use super::values::{
    AccessLog, Cache, Cdn, Cidr, Hsts, Lang, Layout, Listen, PhpVersion, PolicyVersion, Release,
    Resolver, SafePath, ServerName, Target, TlsProfile, Upstream, Workload,
};
use crate::size::ByteSize;

inputs! {
    /// vCPUs nginx may use (1–1024).
    vcpu: u32 = Scalar {
        flag: Flag::value("vcpu", "N"),
        group: Group::Machine,
        kind: Kind::Int { min: limits::VCPU.0, max: limits::VCPU.1 },
        default: Value("4"),
        detected: true,
        help: "vCPUs nginx may use",
        form: Form::at(Section::Machine, 1, Widget::Number),
    }
    /// Memory of the machine or container (256 MiB – 16 TiB).
    ram: ByteSize = String {
        flag: Flag::value("ram", "SIZE"),
        group: Group::Machine,
        kind: Kind::Size { min: limits::RAM.0, max: limits::RAM.1 },
        default: Value("8G"),
        detected: true,
        help: "Memory, e.g. 8G, 512MiB, 1.5G (binary units)",
        form: Form::at(Section::Machine, 2, Widget::Text),
    }
    /// What the server mostly does.
    workload: Workload = String {
        flag: Flag::value("workload", "KIND"),
        group: Group::Workload,
        kind: Kind::Choice(Workload::NAMES),
        default: Value("static"),
        help: "What the server mostly does",
        form: Form::at(Section::Workload, 1, Widget::Select),
    }
    /// The distribution release nginx comes from: its row of `policy::RELEASES` sets the
    /// defaults of the nginx, OpenSSL and PHP versions and the layout (`any`: none).
    release: Release = String {
        flag: Flag::value("release", "ID"),
        group: Group::Software,
        kind: Kind::Choice(Release::NAMES),
        default: Value("any"),
        help: "Distribution release; sets the default nginx, OpenSSL and PHP versions and layout",
        note: "versions and layout given or detected win",
        form: Form::at(Section::Machine, 3, Widget::Select),
    }
    /// Another site is already the `default_server` on a port the site listens on (the CLI
    /// finds it in the layout's site directories).
    existing_default_server: bool = bool {
        flag: Flag::switch("existing-default-server"),
        group: Group::Software,
        detected: true,
        help: "Another site already is the default server on the site's port",
        form: Form::at(Section::Machine, 7, Widget::Checkbox),
    }
    /// The nginx version the files are for; `any` is the form every supported version
    /// accepts.
    nginx_version: Target = String {
        flag: Flag::value("nginx-version", "VERSION"),
        group: Group::Software,
        kind: Kind::Version { min: limits::NGINX_MIN },
        default: Value("any"),
        detected: true,
        help: "nginx version the files are for (any: valid on every supported version)",
        form: Form::at(Section::Machine, 4, Widget::Text),
    }
    /// The OpenSSL version nginx is linked with; `any` is the form every supported version
    /// accepts.
    openssl_version: Target = String {
        flag: Flag::value("openssl-version", "VERSION"),
        group: Group::Software,
        kind: Kind::Version { min: limits::OPENSSL_MIN },
        default: Value("any"),
        detected: true,
        help: "OpenSSL version nginx uses (any: valid on every supported version)",
        form: Form::at(Section::Machine, 5, Widget::Text),
    }
    /// Serve HTTPS (and redirect HTTP to it).
    tls: bool = bool {
        flag: Flag::switch("tls"),
        group: Group::Tls,
        help: "Serve HTTPS and redirect HTTP to it",
        form: Form::at(Section::Tls, 1, Widget::Checkbox),
    }
    /// Certificate chain; `None` means the Let's Encrypt path for the first server name.
    tls_cert: Option<SafePath> = String {
        flag: Flag::value("tls-cert", "PATH"),
        group: Group::Tls,
        kind: Kind::Path,
        default: Unset("/etc/letsencrypt/live/<name>/fullchain.pem"),
        help: "Certificate chain",
        note: "together with tls_key",
        form: Form::at(Section::Tls, 4, Widget::Text),
    }
    /// Private key; `None` means the Let's Encrypt path for the first server name.
    tls_key: Option<SafePath> = String {
        flag: Flag::value("tls-key", "PATH"),
        group: Group::Tls,
        kind: Kind::Path,
        default: Unset("/etc/letsencrypt/live/<name>/privkey.pem"),
        help: "Private key",
        note: "together with tls_cert",
        form: Form::at(Section::Tls, 5, Widget::Text),
    }
    /// Mozilla profile.
    tls_profile: TlsProfile = String {
        flag: Flag::value("tls-profile", "PROFILE"),
        group: Group::Tls,
        kind: Kind::Choice(TlsProfile::NAMES),
        default: Value("intermediate"),
        help: "Mozilla TLS profile (guideline 6.0)",
        form: Form::at(Section::Tls, 2, Widget::Select),
    }
    /// HTTPS port.
    tls_port: u16 = Scalar {
        flag: Flag::value("tls-port", "PORT"),
        group: Group::Tls,
        kind: Kind::Int { min: 1, max: 65535 },
        default: Value("443"),
        help: "HTTPS port",
        note: "not the listen port",
        form: Form::at(Section::Tls, 3, Widget::Number),
    }
    /// Staple OCSP responses (opt-in: Let's Encrypt ended OCSP in 2025).
    ocsp_stapling: bool = bool {
        flag: Flag::switch("ocsp-stapling"),
        group: Group::Tls,
        help: "Staple OCSP responses (Let's Encrypt ended OCSP in 2025)",
        note: "only with tls",
        form: Form::at(Section::Tls, 6, Widget::Checkbox),
    }
    /// DNS server for OCSP stapling and `upstream_resolve`; `None` means the host's
    /// (detected) or the layout's.
    resolver: Option<Resolver> = String {
        flag: Flag::value("resolver", "ADDR"),
        group: Group::Tls,
        kind: Kind::Text {
            type_name: "address",
            accepted: "an IP address such as 127.0.0.53 or ::1",
            example: "192.0.2.53",
        },
        default: Unset("the host's (/etc/resolv.conf; not for a container's files made on its host), else the layout's: 127.0.0.11 in Docker, 127.0.0.53 elsewhere"),
        detected: true,
        help: "DNS server nginx asks for the OCSP responder and, with --upstream-resolve, the application's names",
        note: "only used with ocsp_stapling or upstream_resolve",
        form: Form::at(Section::Tls, 10, Widget::Text),
    }
    /// The kernel offers TLS offload (kTLS): its `tls` module is loaded or built in.
    ktls: bool = bool {
        flag: Flag::switch("ktls"),
        group: Group::Software,
        detected: true,
        help: "The kernel offers TLS offload (kTLS: the tls module is loaded)",
        note: "only with tls, nginx 1.21.4 and OpenSSL 3.0 or later",
        form: Form::at(Section::Tls, 11, Widget::Checkbox),
    }
    /// The kernel's `fs.file-max` now; `None`: not known (systemd ≥ 240 raises it to the
    /// largest value at boot).
    file_max: Option<u32> = Scalar {
        flag: Flag::value("file-max", "N"),
        group: Group::Software,
        kind: Kind::Int { min: limits::FILE_MAX.0, max: limits::FILE_MAX.1 },
        default: Unset("systemd's: the largest value"),
        detected: true,
        help: "The kernel's fs.file-max now (larger values count as 4294967295)",
    }
    /// Serve HTTP/3 over QUIC (nginx ≥ 1.25.0).
    http3: bool = bool {
        flag: Flag::switch("http3"),
        group: Group::Tls,
        help: "Serve HTTP/3 (nginx 1.25 or later, with --tls)",
        note: "only with tls and nginx 1.25.0 or later",
        form: Form::at(Section::Tls, 7, Widget::Checkbox),
    }
    /// What `Strict-Transport-Security` asks of browsers (with TLS): this host only
    /// (`host`), its subdomains too (`subdomains`), a place on the browsers' preload list
    /// (`preload`), or nothing (`off`).
    hsts: Hsts = String {
        flag: Flag::value("hsts", "SCOPE"),
        group: Group::Tls,
        kind: Kind::Choice(Hsts::NAMES),
        default: Value("host"),
        help: "Strict-Transport-Security: HTTPS only for this host, its subdomains too, or preloaded into browsers (off: none)",
        note: "subdomains and preload only with tls",
        form: Form::at(Section::Tls, 12, Widget::Select),
    }
    /// Names the site answers to.
    server_names: Vec<ServerName> = Vec<String> {
        flag: Flag::value("server-name", "NAME"),
        group: Group::Tls,
        kind: Kind::List {
            accepted: "host names such as example.com, *.example.com or _",
            example: "www.example.org",
        },
        default: List(&["example.com"]),
        help: "Host name of the site",
        note: "the first names the site's files",
        form: Form::at(Section::Workload, 2, Widget::List),
    }
    /// Requests for the other server names are redirected to the first (308), from plain
    /// HTTP and HTTPS alike: one address per page.
    canonical: bool = bool {
        flag: Flag::switch("canonical"),
        group: Group::Tls,
        help: "Redirect the other --server-name names to the first (www.example.com → example.com)",
        note: "two names or more, the first a single host name, no _",
        form: Form::at(Section::Workload, 3, Widget::Checkbox),
    }
    /// Document root; `None` means the layout's usual one.
    root: Option<SafePath> = String {
        flag: Flag::value("root", "PATH"),
        group: Group::Tls,
        kind: Kind::Path,
        default: Unset("the layout's, e.g. /var/www/html"),
        help: "Document root",
        form: Form::at(Section::Advanced, 2, Widget::Text),
    }
    /// Plain-HTTP listen addresses and ports; HTTPS listens on the same addresses with
    /// `tls_port`. Dual stack by default (the CLI drops `[::]` on a host without IPv6).
    listen: Vec<Listen> = Vec<String> {
        flag: Flag::value("listen", "ADDR"),
        group: Group::Tls,
        kind: Kind::List {
            accepted: "ports, or address:port such as 80, 127.0.0.1:8080 or [::]:80",
            example: "127.0.0.1:8080",
        },
        default: List(&["80", "[::]:80"]),
        detected: true,
        help: "Plain-HTTP listen port or address:port",
        note: "not 443 without tls",
        form: Form::at(Section::Advanced, 1, Widget::List),
    }
    /// Application servers (proxy, api and mixed workloads).
    upstreams: Vec<Upstream> = Vec<String> {
        flag: Flag::value("upstream", "ADDR"),
        group: Group::Workload,
        kind: Kind::List {
            accepted: "host:port or unix:/path, such as 127.0.0.1:8080",
            example: "unix:/run/app.sock",
        },
        default: List(&["127.0.0.1:8080"]),
        help: "Application server, host:port or unix:/path",
        form: Form::at(Section::Workload, 4, Widget::List),
    }
    /// Look the application servers' names up again as their DNS answers change (nginx
    /// ≥ 1.27.3: `server … resolve`), asking `resolver`: a container or service that
    /// restarts with a new address keeps its requests without a reload. Opt-in: nginx's
    /// resolver reads neither the hosts file nor search domains.
    upstream_resolve: bool = bool {
        flag: Flag::switch("upstream-resolve"),
        group: Group::Workload,
        help: "Look the application's names up again as their DNS answers change (containers)",
        note: "proxy, api, mixed; names DNS answers, in full; nginx 1.27.3 or later",
        form: Form::at(Section::Advanced, 12, Widget::Checkbox),
    }
    /// Expected peak concurrent client connections; `None` derives it from the machine.
    clients: Option<u32> = Scalar {
        flag: Flag::value("clients", "N"),
        group: Group::Workload,
        kind: Kind::Int { min: limits::CLIENTS.0, max: limits::CLIENTS.1 },
        default: Unset("derived from the machine"),
        help: "Expected peak concurrent client connections",
        form: Form::at(Section::Workload, 5, Widget::Number),
    }
    /// Number of static files served.
    static_files: u32 = Scalar {
        flag: Flag::value("static-files", "N"),
        group: Group::Workload,
        kind: Kind::Int { min: limits::STATIC_FILES.0, max: limits::STATIC_FILES.1 },
        default: Value("1000"),
        help: "Number of static files served",
        form: Form::at(Section::Workload, 6, Widget::Number),
    }
    /// Typical response body size.
    response_size: ByteSize = String {
        flag: Flag::value("response-size", "SIZE"),
        group: Group::Workload,
        kind: Kind::Size { min: limits::RESPONSE_SIZE.0, max: limits::RESPONSE_SIZE.1 },
        default: Value("32K"),
        help: "Typical response size",
        form: Form::at(Section::Workload, 7, Widget::Text),
    }
    /// Memory the host's other services use at their peak (a database, the application,
    /// a cache): it comes out of nginx's and PHP-FPM's budgets.
    other_memory: ByteSize = String {
        flag: Flag::value("other-memory", "SIZE"),
        group: Group::Workload,
        kind: Kind::Size { min: limits::OTHER_MEMORY.0, max: limits::OTHER_MEMORY.1 },
        default: Value("0"),
        help: "Memory the host's other services use (a database, the application), kept out of nginx's and PHP-FPM's budgets",
        note: "leaves the system's reserve and 128M of the RAM",
        form: Form::at(Section::Machine, 8, Widget::Text),
    }
    /// Micro-caching of the application's responses (`micro`: a second; `off`).
    cache: Cache = String {
        flag: Flag::value("cache", "MODE"),
        group: Group::Workload,
        kind: Kind::Choice(Cache::NAMES),
        default: Value("off"),
        help: "Cache the application's pages for a second (micro)",
        note: "proxy, api, mixed, php",
        form: Form::at(Section::Workload, 9, Widget::Select),
    }
    /// Send `X-Cache-Status` (HIT, MISS, BYPASS…) with cached responses.
    cache_status: bool = bool {
        flag: Flag::switch("cache-status"),
        group: Group::Workload,
        help: "Send X-Cache-Status with the application's responses",
        note: "only with cache",
        form: Form::at(Section::Workload, 10, Widget::Checkbox),
    }
    /// A single-page application (static workload): a path that is no file gets the
    /// root's `index.html`, whose script draws the page; a missing asset stays a 404.
    spa: bool = bool {
        flag: Flag::switch("spa"),
        group: Group::Workload,
        help: "Single-page application: a path that is no file gets /index.html",
        note: "static workload",
        form: Form::at(Section::Workload, 12, Widget::Checkbox),
    }
    /// Clients reach nginx through a load balancer or CDN.
    behind_lb: bool = bool {
        flag: Flag::switch("behind-lb"),
        group: Group::Workload,
        help: "Clients arrive through a load balancer or CDN",
        form: Form::at(Section::Advanced, 3, Widget::Checkbox),
    }
    /// Addresses of the load balancers whose `X-Forwarded-For` is trusted.
    trusted_proxies: Vec<Cidr> = Vec<String> {
        flag: Flag::value("trusted-proxy", "CIDR"),
        group: Group::Workload,
        kind: Kind::List {
            accepted: "addresses or networks such as 10.0.0.0/8",
            example: "192.0.2.7",
        },
        default: List(&["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]),
        help: "Load balancer address or network trusted for X-Forwarded-For",
        form: Form::at(Section::Advanced, 4, Widget::List),
    }
    /// A CDN in front: its published address ranges (`policy::cdn`) are trusted for its
    /// client header.
    cdn: Cdn = String {
        flag: Flag::value("cdn", "NAME"),
        group: Group::Workload,
        kind: Kind::Choice(Cdn::NAMES),
        default: Value("none"),
        help: "CDN in front, whose address ranges are trusted for the client address",
        form: Form::at(Section::Advanced, 7, Widget::Select),
    }
    /// An L4 balancer (one of `trusted_proxies`) sends the PROXY protocol.
    proxy_protocol: bool = bool {
        flag: Flag::switch("proxy-protocol"),
        group: Group::Workload,
        help: "An L4 balancer at --trusted-proxy sends the PROXY protocol",
        form: Form::at(Section::Advanced, 8, Widget::Checkbox),
    }
    /// Limit requests and connections per client address (sized from the plan), and
    /// shorten the timeouts for slow clients.
    rate_limit: bool = bool {
        flag: Flag::switch("rate-limit"),
        group: Group::Workload,
        help: "Limit requests and connections per client address (429 beyond)",
        form: Form::at(Section::Advanced, 9, Widget::Checkbox),
    }
    /// Path prefixes with a stricter rate limit of their own (sign-in, an API).
    limit_paths: Option<Vec<SafePath>> = Vec<String> {
        flag: Flag::value("limit-path", "PATH"),
        group: Group::Workload,
        kind: Kind::List {
            accepted: "absolute path prefixes such as /login",
            example: "/login",
        },
        default: Unset("none"),
        help: "Path prefix with a stricter rate limit of its own (sign-in, API)",
        form: Form::at(Section::Advanced, 10, Widget::List),
    }
    /// Largest request body accepted (uploads, form posts); larger ones get 413.
    max_body_size: ByteSize = String {
        flag: Flag::value("max-body-size", "SIZE"),
        group: Group::Workload,
        kind: Kind::Size { min: limits::MAX_BODY.0, max: limits::MAX_BODY.1 },
        default: Value("16M"),
        help: "Largest request body (uploads) the application accepts",
        form: Form::at(Section::Workload, 8, Widget::Text),
    }
    /// Serve the site over plain HTTP only until the certificate exists (first ACME run).
    bootstrap: bool = bool {
        flag: Flag::switch("bootstrap"),
        group: Group::Tls,
        help: "Serve HTTP only (and ACME challenges) until the TLS certificate exists",
        note: "only with tls",
        detected: true,
        form: Form::at(Section::Tls, 9, Widget::Checkbox),
    }
    /// The brotli modules are installed.
    brotli: bool = bool {
        flag: Flag::switch("brotli"),
        group: Group::Software,
        detected: true,
        help: "The brotli modules are installed",
        form: Form::at(Section::Tls, 8, Widget::Checkbox),
    }
    /// The access log's format: `timing` is `combined` with the time in ISO 8601 and the
    /// fields tuning needs (request times, the upstream's where the site has one, TLS) as
    /// `key=value`.
    access_log: AccessLog = String {
        flag: Flag::value("access-log", "FORMAT"),
        group: Group::Workload,
        kind: Kind::Choice(AccessLog::NAMES),
        default: Value("timing"),
        help: "Access log format (timing: combined plus request times, the upstream's if any, TLS)",
        form: Form::at(Section::Advanced, 5, Widget::Select),
    }
    /// Port of nginx's `stub_status` counters on 127.0.0.1, for monitoring agents; 0: none.
    status_port: u16 = Scalar {
        flag: Flag::value("status-port", "PORT"),
        group: Group::Workload,
        kind: Kind::Int { min: 0, max: 65535 },
        default: Value("81"),
        help: "stub_status port on 127.0.0.1 (0: off)",
        form: Form::at(Section::Advanced, 6, Widget::Number),
    }
    // PHP (workload php).
    /// PHP-FPM's version: Debian's and Ubuntu's paths name it (`/etc/php/8.2/fpm/pool.d/`).
    /// The release's where it names one; the CLI detects the installed one.
    php_version: PhpVersion = String {
        flag: Flag::value("php-version", "X.Y"),
        group: Group::Workload,
        kind: Kind::Choice(PhpVersion::NAMES),
        default: Value("8.2"),
        detected: true,
        help: "PHP-FPM version (Debian's and Ubuntu's paths name it; the release's by default)",
        note: "only with workload php",
        form: Form::at(Section::Advanced, 11, Widget::Select),
    }
    /// Peak memory of one PHP-FPM child: `pm.max_children` is the memory left after nginx
    /// divided by it.
    php_child_memory: ByteSize = String {
        flag: Flag::value("php-child-memory", "SIZE"),
        group: Group::Workload,
        kind: Kind::Size { min: limits::PHP_CHILD.0, max: limits::PHP_CHILD.1 },
        default: Value("64M"),
        help: "Peak memory of one PHP-FPM child",
        note: "only with workload php",
        form: Form::at(Section::Workload, 11, Widget::Text),
    }
    /// Distribution layout.
    layout: Layout = String {
        flag: Flag::value("layout", "LAYOUT"),
        group: Group::Software,
        kind: Kind::Choice(Layout::NAMES),
        default: Value("debian"),
        detected: true,
        help: "Distribution layout",
        form: Form::at(Section::Machine, 6, Widget::Select),
    }
    /// Language of comments and reasons.
    lang: Lang = String {
        flag: Flag::value("lang", "LANG"),
        group: Group::Output,
        kind: Kind::Choice(Lang::NAMES),
        default: Value("en"),
        help: "Language of comments and reasons",
    }
    /// The tuning policy the inputs were written for (`None`: the running one). Commands,
    /// share links and JSON documents carry it, so a later rule change is noticed.
    policy: Option<PolicyVersion> = String {
        flag: Flag::value("policy", "VERSION"),
        group: Group::Output,
        kind: Kind::Text {
            type_name: "policy version",
            accepted: "a tuning policy version such as 2026.12",
            example: "2026.11",
        },
        default: Unset("the running policy"),
        help: "Tuning policy the inputs were written for; a different one is warned about",
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Group, INPUTS, Inputs, RawInputs, RawValue, defaults};

    fn sample_document(name: &str) -> RawInputs {
        Inputs::sample_document(name).unwrap()
    }

    #[test]
    fn the_registry_matches_the_json_document() {
        // The default document has every input except those whose default is "not given".
        let json = serde_json::to_value(defaults().to_raw()).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names: Vec<&str> = INPUTS
            .iter()
            .filter(|i| !matches!(i.default, super::super::DefaultValue::Unset(_)))
            .map(|i| i.name)
            .collect();
        keys.sort_unstable();
        names.sort_unstable();
        assert_eq!(keys, names);
        let mut flags: Vec<&str> = INPUTS.iter().map(|i| i.flag.long).collect();
        flags.sort_unstable();
        flags.dedup();
        assert_eq!(flags.len(), INPUTS.len(), "every flag is distinct");
    }

    /// Every input, set to its sample, reads into `Inputs`, writes back with `to_raw`, goes
    /// through JSON text and reads into the same Inputs: one definition serves both ways.
    #[test]
    fn every_input_round_trips_through_json() {
        for spec in INPUTS {
            let raw = sample_document(spec.name);
            let inputs = Inputs::from_raw(&raw).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            assert_ne!(
                inputs,
                Inputs::default(),
                "{}: the sample is the default",
                spec.name
            );
            let back = inputs.to_raw();
            assert_eq!(back.get(spec.name), Some(spec.sample()), "{}", spec.name);
            let text = serde_json::to_string(&back).unwrap();
            assert_eq!(Inputs::from_json(&text).unwrap(), inputs, "{}", spec.name);
            let minimal = serde_json::to_string(&inputs.to_raw_minimal()).unwrap();
            assert!(
                minimal.contains(&format!("\"{}\":", spec.name)),
                "{minimal}"
            );
            assert_eq!(
                Inputs::from_json(&minimal).unwrap(),
                inputs,
                "{}",
                spec.name
            );
        }
    }

    #[test]
    fn a_value_of_the_wrong_shape_is_refused() {
        let mut raw = RawInputs::default();
        assert!(raw.set("tls", Some(RawValue::Text("yes".into()))).is_err());
        assert!(raw.set("vcpu", Some(RawValue::List(vec![]))).is_err());
        assert!(raw.set("cpus", None).is_err());
        assert!(raw.set("vcpu", Some(RawValue::Text("4".into()))).is_ok());
        assert_eq!(raw.get("vcpu"), Some(RawValue::Text("4".into())));
    }

    #[test]
    fn switches_default_to_off_and_only_the_machine_is_always_written() {
        for spec in INPUTS {
            if spec.is_switch() {
                // to_command writes a switch only when it is on: its default must be off.
                assert_eq!(spec.default_text(), None, "{}", spec.name);
                assert!(
                    !defaults()
                        .to_raw()
                        .get(spec.name)
                        .is_some_and(|v| v == RawValue::Bool(true))
                );
            }
        }
        let minimal = serde_json::to_value(Inputs::default().to_raw_minimal()).unwrap();
        let machine: Vec<&str> = INPUTS
            .iter()
            .filter(|i| i.group == Group::Machine)
            .map(|i| i.name)
            .collect();
        assert_eq!(minimal.as_object().unwrap().len(), machine.len());
        // Every input with a value, the policy last: a later default cannot change it.
        let command = Inputs::default().to_command();
        assert!(
            command.starts_with("nginx-gen --no-detect --vcpu 4 --ram 8G --workload static"),
            "{command}"
        );
        assert!(
            command.ends_with(&format!(" --lang en --policy {}", crate::POLICY_VERSION)),
            "{command}"
        );
    }

    #[test]
    fn the_defaults_agree_with_the_named_constants() {
        let d = defaults();
        assert_eq!(d.nginx_version, super::super::DEFAULT_NGINX);
        assert_eq!(d.openssl_version, super::super::DEFAULT_OPENSSL);
    }

    #[test]
    fn validation_states_the_registry_range() {
        for spec in INPUTS {
            if let super::Kind::Int { max, .. } = spec.kind {
                let mut raw = RawInputs::default();
                raw.set(spec.name, Some(RawValue::Int(i64::from(max) + 1)))
                    .unwrap();
                let err = Inputs::from_raw(&raw).unwrap_err();
                let e = err.for_field(spec.name).unwrap();
                assert_eq!(e.accepted, spec.kind.accepted());
                assert!(e.accepted.contains(&max.to_string()));
            }
        }
    }
}
