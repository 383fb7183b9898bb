//! The plan: every directive, sysctl and limit nginx-gen writes, each with its reason,
//! plus what it deliberately leaves at the default, the capacity estimate and warnings.
//!
//! Renderers are pure functions of the [`Plan`]; nothing here knows about output syntax.

use std::borrow::Cow;

use serde::Serialize;

use crate::gates::{ADVISORIES, Feature, default_and_doc};
use crate::i18n;
use crate::inputs::{Inputs, Layout, TlsProfile, Workload};
use crate::size::ByteSize;
use crate::tuning::{self, Tuning};

/// Which server block of the site a setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum ServerRole {
    /// Plain-HTTP catch-all: answers requests for unknown host names with 444.
    CatchAll,
    /// TLS catch-all: refuses handshakes for unknown host names.
    CatchAllTls,
    /// The site on plain HTTP (or its redirect to HTTPS).
    Site,
    /// The site on HTTPS.
    SiteTls,
}

impl ServerRole {
    /// Every role, in output order.
    pub const ALL: [Self; 4] = [Self::CatchAll, Self::CatchAllTls, Self::Site, Self::SiteTls];
}

/// Which location of a server block a setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum LocationRole {
    /// ACME HTTP-01 challenges, kept on plain HTTP for certificate renewal.
    Acme,
    /// `/`.
    Root,
    /// Static assets with long cache lifetimes.
    Assets,
    /// The proxied application (named location in the mixed workload).
    App,
}

impl LocationRole {
    /// Every role, in output order.
    pub const ALL: [Self; 4] = [Self::Acme, Self::Root, Self::Assets, Self::App];

    /// The `location` arguments of this role; fixed by the site's design.
    pub const fn matcher(self) -> &'static [&'static str] {
        match self {
            Self::Acme => &["^~", "/.well-known/acme-challenge/"],
            Self::Root => &["/"],
            Self::Assets => &[
                "~*",
                r"\.(?:css|js|mjs|map|png|jpe?g|gif|ico|svg|webp|avif|woff2?)$",
            ],
            Self::App => &["@app"],
        }
    }
}

/// Where a setting goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(tag = "context", rename_all = "snake_case")]
pub enum Scope {
    /// nginx.conf, main context.
    Main,
    /// nginx.conf, `events {}`.
    Events,
    /// nginx.conf, `http {}`.
    Http,
    /// Site file, `upstream app {}`.
    Upstream,
    /// Site file, a `server {}` block.
    Server {
        /// Which server.
        server: ServerRole,
    },
    /// Site file, a `location {}` inside a server.
    Location {
        /// Which server.
        server: ServerRole,
        /// Which location.
        location: LocationRole,
    },
    /// The sysctl.d file.
    Sysctl,
    /// The systemd drop-in, `[Service]`.
    Systemd,
}

/// Why a value is what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Reason {
    /// Stable key of this explanation (for translations and `explain`).
    pub id: &'static str,
    /// The explanation, in the language of the inputs.
    pub why: &'static str,
    /// The formula with the numbers filled in, where the value is computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    /// The inputs the value depends on.
    pub inputs: &'static [&'static str],
    /// The stock default this value replaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<&'static str>,
    /// Documentation.
    pub doc: &'static str,
}

/// One directive, sysctl or limit, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// Where it goes.
    pub scope: Scope,
    /// Directive, sysctl key or systemd setting.
    pub name: &'static str,
    /// Its arguments: fixed text is borrowed, computed values are owned.
    pub args: Vec<Cow<'static, str>>,
    /// Why.
    pub reason: Reason,
}

impl Setting {
    /// The arguments joined by spaces.
    pub fn value(&self) -> String {
        self.args.join(" ")
    }
}

/// Something commonly set that nginx-gen leaves at its default, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Omitted {
    /// Directive or sysctl key.
    pub name: &'static str,
    /// Why it is not written.
    pub reason: Reason,
}

/// Something the user should know about these inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Warning {
    /// Stable key.
    pub id: &'static str,
    /// The input it concerns, if one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The message.
    pub message: String,
}

/// What limits the number of concurrent clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The target derived from the vCPUs.
    Cpu,
    /// The number of clients given as input.
    Given,
    /// The memory budget.
    Memory,
    /// The largest `worker_connections` nginx-gen writes.
    Slots,
}

/// The capacity estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Capacity {
    /// Concurrent client connections the configuration is sized for.
    pub clients: u32,
    /// What limits it.
    pub limited_by: Limit,
    /// Concurrent clients the memory budget would allow.
    pub memory_clients: u32,
    /// Estimated memory of one active client, in bytes.
    pub client_bytes: u64,
    /// Estimated peak memory of nginx, in bytes.
    pub peak_memory: u64,
    /// Connection slots of all workers.
    pub connection_slots: u64,
}

/// Everything nginx-gen decided for one set of inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The validated inputs.
    pub inputs: Inputs,
    /// The numbers.
    pub tuning: Tuning,
    /// Every setting written, in output order within each scope.
    pub settings: Vec<Setting>,
    /// Settings deliberately left at their defaults.
    pub omitted: Vec<Omitted>,
    /// Capacity estimate.
    pub capacity: Capacity,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// Shell command that precompresses the site for `gzip_static`/`brotli_static`.
    pub precompress: Option<String>,
    /// The `nginx-gen` command line that reproduces this plan.
    pub command: String,
}

impl Plan {
    /// The settings of one scope, in order.
    pub fn in_scope(&self, scope: Scope) -> impl Iterator<Item = &Setting> {
        self.settings.iter().filter(move |s| s.scope == scope)
    }
    /// The first setting called `name`.
    pub fn get(&self, name: &str) -> Option<&Setting> {
        self.settings.iter().find(|s| s.name == name)
    }
    /// The document root the site serves.
    pub fn root(&self) -> &str {
        self.inputs
            .root
            .as_ref()
            .map_or(self.inputs.layout.default_root(), |r| r.as_str())
    }
    /// The site file's path, e.g. `/etc/nginx/conf.d/example.com.conf`.
    pub fn site_path(&self) -> String {
        [
            "/etc/nginx/conf.d/",
            self.inputs.primary_name().file_stem(),
            ".conf",
        ]
        .concat()
    }
}

impl Layout {
    /// The account workers run as.
    pub const fn user(self) -> &'static str {
        match self {
            Self::Debian => "www-data",
            Self::Rhel | Self::NginxOrg | Self::Docker => "nginx",
        }
    }
    /// The master's pid file.
    pub const fn pid(self) -> &'static str {
        match self {
            Self::Debian | Self::Rhel => "/run/nginx.pid",
            Self::NginxOrg | Self::Docker => "/var/run/nginx.pid",
        }
    }
    /// Where the package's dynamic modules are enabled, if it has such a directory.
    pub const fn modules_include(self) -> Option<&'static str> {
        match self {
            Self::Debian => Some("/etc/nginx/modules-enabled/*.conf"),
            Self::Rhel => Some("/usr/share/nginx/modules/*.conf"),
            Self::NginxOrg | Self::Docker => None,
        }
    }
    /// The package's usual document root.
    pub const fn default_root(self) -> &'static str {
        match self {
            Self::Debian => "/var/www/html",
            Self::Rhel | Self::NginxOrg | Self::Docker => "/usr/share/nginx/html",
        }
    }
}

/// Media types worth compressing (`text/html` is always compressed and must not be listed).
pub const COMPRESSIBLE_TYPES: &[&str] = &[
    "text/css",
    "text/plain",
    "text/xml",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/xml",
    "application/rss+xml",
    "application/atom+xml",
    "application/manifest+json",
    "image/svg+xml",
];

/// Mozilla intermediate TLS 1.2 cipher suites (guideline 6.0).
pub const INTERMEDIATE_CIPHERS: &str = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

/// Ports of common local services above the ephemeral range's new start; they are
/// reserved so an outgoing connection cannot take one before the service binds it.
pub const RESERVED_PORTS: &[u16] = &[11211, 15672, 27017];
/// Start of the widened ephemeral port range: above the usual service ports
/// (3000, 5432, 6379, 8080, 9000 …), even, so its bounds differ in parity as Linux requires.
pub const EPHEMERAL_START: u16 = 10240;

/// Builds the plan.
struct Builder<'a> {
    i: &'a Inputs,
    t: &'a Tuning,
    settings: Vec<Setting>,
    omitted: Vec<Omitted>,
}

/// A reason under construction.
struct Why {
    id: &'static str,
    text: &'static str,
    formula: Option<String>,
    inputs: &'static [&'static str],
}

fn why(id: &'static str, text: &'static str) -> Why {
    Why {
        id,
        text,
        formula: None,
        inputs: &[],
    }
}

impl Why {
    fn formula(mut self, f: impl Into<String>) -> Self {
        self.formula = Some(f.into());
        self
    }
    fn inputs(mut self, inputs: &'static [&'static str]) -> Self {
        self.inputs = inputs;
        self
    }
}

fn kib(size: ByteSize) -> String {
    size.nginx().unwrap_or_else(|| size.as_u64().to_string())
}

impl Builder<'_> {
    fn reason(&self, name: &'static str, w: Why) -> Reason {
        let (default, doc) = default_and_doc(name, self.i.nginx_version);
        Reason {
            id: w.id,
            // English is the text built in: `translate` returns None for it at once.
            why: i18n::translate(self.i.lang, w.id).unwrap_or(w.text),
            formula: w.formula,
            inputs: w.inputs,
            default,
            doc,
        }
    }

    /// A setting whose arguments are fixed text.
    fn set(&mut self, scope: Scope, name: &'static str, args: &[&'static str], w: Why) {
        let args = args.iter().copied().map(Cow::Borrowed).collect();
        self.set_args(scope, name, args, w);
    }

    /// A setting with one computed argument.
    fn set_value(&mut self, scope: Scope, name: &'static str, value: &impl ToString, w: Why) {
        self.set_args(scope, name, vec![Cow::Owned(value.to_string())], w);
    }

    fn set_args(&mut self, scope: Scope, name: &'static str, args: Vec<Cow<'static, str>>, w: Why) {
        let reason = self.reason(name, w);
        self.settings.push(Setting {
            scope,
            name,
            args,
            reason,
        });
    }

    fn omit(&mut self, name: &'static str, w: Why) {
        let reason = self.reason(name, w);
        self.omitted.push(Omitted { name, reason });
    }

    fn main(&mut self) {
        let (i, t) = (self.i, self.t);
        self.set(
            Scope::Main,
            "user",
            &[i.layout.user()],
            why(
                "user",
                "Workers run as the unprivileged account of the distribution's package.",
            )
            .inputs(&["layout"]),
        );
        self.set_value(
            Scope::Main,
            "worker_processes",
            &t.workers,
            why("worker_processes", "One worker per vCPU, written as a number: `auto` counts the host's CPUs and ignores container CPU limits and affinity.")
                .formula(format!("vcpu = {}", t.workers))
                .inputs(&["vcpu"]),
        );
        let ofc = t.open_file_cache.map_or(0, |c| c.max);
        let keepalive = t.upstream_keepalive.unwrap_or(0);
        let per_conn = if i.workload.serves_files() { 2 } else { 1 };
        self.set_value(
            Scope::Main,
            "worker_rlimit_nofile",
            &t.rlimit_nofile,
            why("worker_rlimit_nofile", "Open files per worker: at least twice worker_connections, and enough for every connection, cached open file and upstream keepalive socket at once.")
                .formula(format!(
                    "max(2 × {wc}, {per_conn} × {wc} + {ofc} open_file_cache + {keepalive} keepalive + 64) rounded up to 1024 = {}",
                    t.rlimit_nofile,
                    wc = t.worker_connections,
                ))
                .inputs(&["vcpu", "ram", "workload", "clients", "static_files"]),
        );
        self.set(
            Scope::Main,
            "pid",
            &[i.layout.pid()],
            why(
                "pid",
                "Where the distribution's service unit expects the pid file.",
            )
            .inputs(&["layout"]),
        );
        self.set(Scope::Main, "error_log", &["/var/log/nginx/error.log", "warn"], why("error_log", "Log warnings too: nginx reports exhausted connections and file limits at this level."));
        if let Some(glob) = i.layout.modules_include() {
            self.set(Scope::Main, "include", &[glob], why("include.modules", "Load the dynamic modules the distribution's packages enable (brotli among them).").inputs(&["layout"]));
        } else if i.brotli {
            for module in [
                "modules/ngx_http_brotli_filter_module.so",
                "modules/ngx_http_brotli_static_module.so",
            ] {
                self.set(Scope::Main, "load_module", &[module], why("load_module.brotli", "This layout has no modules directory to include: load the brotli modules by name.").inputs(&["brotli", "layout"]));
            }
        }
        if i.workload.serves_files() {
            self.set(Scope::Main, "pcre_jit", &["on"], why("pcre_jit", "Compile the static-asset location's regular expression to machine code once at start; every request that is not an asset is matched against it.").inputs(&["workload"]));
        }
        self.set_value(
            Scope::Events,
            "worker_connections",
            &t.worker_connections,
            why("worker_connections", "Connection slots per worker: the planned clients with 50% headroom, plus a slot per upstream connection and the keepalive pool. Each slot is preallocated (≈0.42 KB), so it is not oversized.")
                .formula(format!(
                    "ceil({} clients × 1.5 / {} workers) × (1 + {}) + {keepalive} keepalive + {} spare, rounded up to 1024 = {}",
                    t.clients,
                    t.workers,
                    permille(t.profile.upstream_permille),
                    tuning::SPARE_SLOTS,
                    t.worker_connections
                ))
                .inputs(&["vcpu", "ram", "workload", "clients", "tls"]),
        );
        self.omit(
            "use",
            why(
                "omit.use",
                "nginx picks epoll on Linux by itself; naming it changes nothing.",
            ),
        );
        self.omit("listen deferred", why("omit.listen.deferred", "TCP_DEFER_ACCEPT hides a connection from nginx until its first data arrives. Measured here: with 1000 clients connecting at once it raised p99 latency from about 40 ms to 60-500 ms (docs/benchmarks.md)."));
        if t.workers == 1 || t.reuseport {
            self.set(Scope::Events, "multi_accept", &["on"], why("multi_accept", "Accept every waiting connection per wake-up instead of one. Safe here: the worker drains only its own queue (one worker, or reuseport), so no worker can take another's share.").inputs(&["vcpu"]));
        } else {
            self.omit("multi_accept", why("omit.multi_accept", "Off by default. With EPOLLEXCLUSIVE (nginx ≥ 1.11.3) it lets one worker drain the whole queue and unbalances load; no benchmark shows a gain."));
        }
        self.omit("worker_cpu_affinity", why("omit.worker_cpu_affinity", "Pinning helps only on dedicated hosts; on shared or quota-limited VPS it can pin workers to busy or unavailable CPUs."));
        self.omit(
            "accept_mutex",
            why(
                "omit.accept_mutex",
                "Off by default since nginx 1.11.3; the kernel spreads new connections.",
            ),
        );
    }

    fn http(&mut self) {
        let (i, t) = (self.i, self.t);
        let h = Scope::Http;
        self.set(
            h,
            "include",
            &["/etc/nginx/mime.types"],
            why(
                "include.mime",
                "The distribution's media types, so files get the right Content-Type.",
            ),
        );
        self.set(
            h,
            "default_type",
            &["application/octet-stream"],
            why(
                "default_type",
                "Unknown file types download instead of being guessed.",
            ),
        );
        self.set(
            h,
            "types_hash_max_size",
            &["2048"],
            why(
                "types_hash_max_size",
                "Room for the full media-type list without a start-up warning.",
            ),
        );
        self.set(
            h,
            "server_tokens",
            &["off"],
            why(
                "server_tokens",
                "Do not announce the nginx version in headers and error pages.",
            ),
        );
        self.set(
            h,
            "sendfile",
            &["on"],
            why(
                "sendfile",
                "Send files from the page cache without copying them through nginx.",
            ),
        );
        self.set(
            h,
            "tcp_nopush",
            &["on"],
            why(
                "tcp_nopush",
                "With sendfile, send headers and the start of the file in full packets.",
            ),
        );
        self.set(h, "tcp_nodelay", &["on"], why("tcp_nodelay", "Do not delay the last small packet of a response on keep-alive connections (already the default)."));
        if t.aio_threads {
            self.set(
                h,
                "aio",
                &["threads"],
                why("aio", "The files do not fit in the page cache, so reads from disk would block a worker; a thread pool takes them.")
                    .formula(format!("{} files × {} > RAM / 2", i.static_files, i.response_size))
                    .inputs(&["static_files", "response_size", "ram"]),
            );
        }
        if i.behind_lb {
            self.set(h, "keepalive_timeout", &["75s"], why("keepalive_timeout.lb", "Longer than the load balancer's idle timeout (60 s on common ones), so nginx never closes a connection the balancer is about to reuse.").inputs(&["behind_lb"]));
            self.set(
                h,
                "keepalive_requests",
                &["10000"],
                why(
                    "keepalive_requests.lb",
                    "Few, long-lived connections from the balancer carry many requests each.",
                )
                .inputs(&["behind_lb"]),
            );
        } else {
            self.set(h, "keepalive_timeout", &["30s"], why("keepalive_timeout", "Long enough for a page and its assets, short enough that idle browsers give their slots back.").inputs(&["behind_lb"]));
            self.set(h, "keepalive_requests", &["1000"], why("keepalive_requests", "Requests per client connection before it is recycled (the default since nginx 1.19.10, written for older versions)."));
        }
        match i.workload {
            Workload::Static => self.omit("client_body_buffer_size", why("omit.client_body_buffer_size", "A static site receives almost no request bodies; the default two pages are enough.")),
            _ => self.set(h, "client_body_buffer_size", &["16k"], why("client_body_buffer_size", "Form and JSON bodies up to 16 KiB stay in memory instead of a temporary file.").inputs(&["workload"])),
        }
        if i.workload == Workload::Api {
            self.set(
                h,
                "large_client_header_buffers",
                &["4", "16k"],
                why(
                    "large_client_header_buffers",
                    "API clients send bearer tokens and cookies that outgrow 8 KiB header lines.",
                )
                .inputs(&["workload"]),
            );
        } else {
            self.omit(
                "large_client_header_buffers",
                why(
                    "omit.large_client_header_buffers",
                    "The defaults (1k, growing to 4 × 8k) fit browser requests.",
                ),
            );
        }
        self.omit("client_header_buffer_size", why("omit.client_header_buffer_size", "The default 1k already fits most request headers; longer ones move to large_client_header_buffers."));
        self.set(
            h,
            "access_log",
            &["/var/log/nginx/access.log", "combined", "buffer=64k", "flush=5s"],
            why("access_log", "Buffer log lines: one write per 64 KiB instead of one per request. Up to 5 s of lines can be lost in a crash."),
        );
        if let Some(ofc) = t.open_file_cache {
            self.set_args(
                h,
                "open_file_cache",
                vec![format!("max={}", ofc.max).into(), "inactive=60s".into()],
                why("open_file_cache", "Keep descriptors of hot files open, per worker; the entries count against worker_rlimit_nofile.")
                    .formula(format!("clamp(1.2 × {} files, 1000, 65536) = {}", i.static_files, ofc.max))
                    .inputs(&["static_files", "workload"]),
            );
            self.set(
                h,
                "open_file_cache_valid",
                &["60s"],
                why(
                    "open_file_cache_valid",
                    "Recheck cached files once a minute.",
                ),
            );
            self.set(
                h,
                "open_file_cache_min_uses",
                &["2"],
                why(
                    "open_file_cache_min_uses",
                    "Cache only files asked for twice, so one-off requests do not evict hot files.",
                ),
            );
            self.omit("open_file_cache_errors", why("omit.open_file_cache_errors", "Caching 'file not found' would keep answering 404 for up to a minute after a deploy adds the file."));
        }
        self.set(
            h,
            "gzip",
            &["on"],
            why("gzip", "Compress text responses on the fly."),
        );
        self.set(
            h,
            "gzip_comp_level",
            &["1"],
            why("gzip_comp_level", "Level 1 compresses nearly as well as 5 for a fraction of the CPU; higher levels make a busy server CPU-bound. Static files are precompressed at level 9 instead.")
                .inputs(&["workload"]),
        );
        self.set(
            h,
            "gzip_min_length",
            &["256"],
            why(
                "gzip_min_length",
                "Below about 256 bytes compression saves less than it costs.",
            ),
        );
        self.set(h, "gzip_types", COMPRESSIBLE_TYPES, why("gzip_types", "Text formats worth compressing; text/html is always included and listing it again logs a warning."));
        self.set(h, "gzip_proxied", &["any"], why("gzip_proxied", "Also compress for requests that came through a proxy or CDN (they carry a Via header, which the default refuses)."));
        self.set(
            h,
            "gzip_vary",
            &["on"],
            why(
                "gzip_vary",
                "Send Vary: Accept-Encoding so caches keep compressed and plain copies apart (worth its ~22 bytes per response: without it a cache may hand compressed bytes to a client that cannot read them).",
            ),
        );
        if i.workload.serves_files() {
            self.set(h, "gzip_static", &["on"], why("gzip_static", "Serve the precompressed .gz file next to the original when there is one: no compression work per request.").inputs(&["workload"]));
        }
        if i.brotli {
            self.set(
                h,
                "brotli",
                &["on"],
                why(
                    "brotli",
                    "Compress on the fly with brotli for clients that accept it.",
                )
                .inputs(&["brotli"]),
            );
            self.set(h, "brotli_comp_level", &["3"], why("brotli_comp_level", "Levels up to 4 cost about as much CPU as gzip's lowest while compressing better; static files are precompressed at 11.").inputs(&["brotli"]));
            self.set(
                h,
                "brotli_types",
                COMPRESSIBLE_TYPES,
                why("brotli_types", "The same text formats as gzip."),
            );
            if i.workload.serves_files() {
                self.set(
                    h,
                    "brotli_static",
                    &["on"],
                    why(
                        "brotli_static",
                        "Serve the precompressed .br file when there is one.",
                    )
                    .inputs(&["brotli", "workload"]),
                );
            }
        }
        if i.behind_lb {
            for cidr in &i.trusted_proxies {
                self.set_value(h, "set_real_ip_from", cidr, why("set_real_ip_from", "Trust X-Forwarded-For only from the load balancers, so logs and limits see the real client address.").inputs(&["trusted_proxies"]));
            }
            self.set(
                h,
                "real_ip_header",
                &["X-Forwarded-For"],
                why("real_ip_header", "The header the load balancer adds."),
            );
            self.set(
                h,
                "real_ip_recursive",
                &["on"],
                why(
                    "real_ip_recursive",
                    "Skip every trusted address in the chain, not only the last.",
                ),
            );
        }
        if i.tls {
            self.tls_http();
        }
        self.set(h, "include", &["conf.d/*.conf"], why("include.sites", "The site file written next to this one (relative, so `nginx -t -c` checks a generated tree as a whole)."));
    }

    fn tls_http(&mut self) {
        let (i, t) = (self.i, self.t);
        let v = i.versions();
        let h = Scope::Http;
        match i.tls_profile {
            TlsProfile::Intermediate => {
                self.set(h, "ssl_protocols", &["TLSv1.2", "TLSv1.3"], why("ssl_protocols", "Mozilla intermediate: TLS 1.2 and 1.3. Written out because older nginx and Debian's stock configuration still enable TLS 1.0 and 1.1.").inputs(&["tls_profile"]));
                self.set(h, "ssl_ciphers", &[INTERMEDIATE_CIPHERS], why("ssl_ciphers", "Mozilla intermediate (guideline 6.0): forward-secret AEAD suites only; no DHE, so no dhparam file.").inputs(&["tls_profile"]));
            }
            TlsProfile::Modern => {
                self.set(
                    h,
                    "ssl_protocols",
                    &["TLSv1.3"],
                    why(
                        "ssl_protocols.modern",
                        "Mozilla modern: TLS 1.3 only; its cipher suites need no configuration.",
                    )
                    .inputs(&["tls_profile"]),
                );
            }
        }
        self.set(h, "ssl_prefer_server_ciphers", &["off"], why("ssl_prefer_server_ciphers", "Every offered suite is strong, so let clients pick what is fastest for them (Mozilla)."));
        let curves = if v.has(Feature::PostQuantumKex) {
            "X25519MLKEM768:X25519:prime256v1:secp384r1"
        } else {
            "X25519:prime256v1:secp384r1"
        };
        self.set(
            h,
            "ssl_ecdh_curve",
            &[curves],
            why("ssl_ecdh_curve", "Mozilla's key-exchange groups; the post-quantum X25519MLKEM768 only with OpenSSL ≥ 3.5, where older versions would refuse the whole list.")
                .formula(format!("OpenSSL {} {} 3.5.0", i.openssl_version, if v.has(Feature::PostQuantumKex) { "≥" } else { "<" }))
                .inputs(&["openssl_version"]),
        );
        self.set_args(
            h,
            "ssl_session_cache",
            vec![format!("shared:SSL:{}m", t.session_cache_mib).into()],
            why("ssl_session_cache", "Shared by all workers; one MiB holds about 4000 sessions, four per planned concurrent client.")
                .formula(format!("ceil({} clients / 1000) MiB = {}m", t.clients, t.session_cache_mib))
                .inputs(&["clients", "vcpu", "ram"]),
        );
        self.set(h, "ssl_session_timeout", &["1d"], why("ssl_session_timeout", "Returning visitors resume sessions for a day (Mozilla), skipping a full handshake."));
        if v.has(Feature::TicketKeyRotation) {
            self.omit("ssl_session_tickets", why("omit.ssl_session_tickets", "nginx ≥ 1.23.2 rotates ticket keys itself when a shared session cache is set; turning tickets off only costs resumptions."));
        } else {
            self.set(h, "ssl_session_tickets", &["off"], why("ssl_session_tickets", "Before nginx 1.23.2 ticket keys never rotate, which undoes forward secrecy (Mozilla).").inputs(&["nginx_version"]));
        }
        if i.workload.proxies() {
            self.set(
                h,
                "ssl_buffer_size",
                &["4k"],
                why(
                    "ssl_buffer_size",
                    "Smaller TLS records deliver the first bytes of dynamic responses sooner.",
                )
                .inputs(&["workload"]),
            );
        }
    }

    fn upstream(&mut self) {
        let (i, t) = (self.i, self.t);
        if !i.workload.proxies() {
            return;
        }
        for upstream in &i.upstreams {
            self.set_value(
                Scope::Upstream,
                "server",
                &upstream,
                why("upstream.server", "An application server.").inputs(&["upstreams"]),
            );
        }
        let keepalive = t.upstream_keepalive.unwrap_or(8);
        self.set_value(
            Scope::Upstream,
            "keepalive",
            &keepalive,
            why("keepalive", "Idle connections to the application kept open per worker, so requests skip the TCP handshake and do not exhaust ephemeral ports.")
                .formula(format!(
                    "1.2 × {} clients / {} workers × {}% in flight, rounded up to 8, within 8..512 = {keepalive}",
                    t.clients,
                    t.workers,
                    t.profile.in_flight_permille / 10
                ))
                .inputs(&["workload", "clients", "vcpu"]),
        );
    }

    fn proxy_location(&mut self, scope: Scope) {
        let (i, t) = (self.i, self.t);
        let v = i.versions();
        self.set(
            scope,
            "proxy_pass",
            &["http://app"],
            why(
                "proxy_pass",
                "Hand the request to the application servers of the upstream block.",
            ),
        );
        if !v.has(Feature::UpstreamKeepaliveByDefault) {
            self.set(
                scope,
                "proxy_http_version",
                &["1.1"],
                why(
                    "proxy_http_version",
                    "Upstream keepalive needs HTTP/1.1 before nginx 1.29.7.",
                )
                .inputs(&["nginx_version"]),
            );
            self.set(scope, "proxy_set_header", &["Connection", ""], why("proxy_set_header.connection", "Keep the upstream connection open: before nginx 1.29.7 nginx sends Connection: close.").inputs(&["nginx_version"]));
        }
        self.set(
            scope,
            "proxy_set_header",
            &["Host", "$host"],
            why(
                "proxy_set_header.host",
                "The requested host name, as nginx validated it ($http_host could be spoofed).",
            ),
        );
        self.set(
            scope,
            "proxy_set_header",
            &["X-Real-IP", "$remote_addr"],
            why(
                "proxy_set_header.real_ip",
                "The client's address for the application.",
            ),
        );
        self.set(
            scope,
            "proxy_set_header",
            &["X-Forwarded-For", "$proxy_add_x_forwarded_for"],
            why(
                "proxy_set_header.forwarded_for",
                "The chain of client addresses.",
            ),
        );
        self.set(
            scope,
            "proxy_set_header",
            &["X-Forwarded-Proto", "$scheme"],
            why(
                "proxy_set_header.forwarded_proto",
                "Whether the client used HTTPS, for redirects and secure cookies.",
            ),
        );
        if let Some(b) = t.proxy {
            self.set_args(
                scope,
                "proxy_buffer_size",
                vec![kib(b.header).into()],
                why(
                    "proxy_buffer_size",
                    "Room for the application's response headers, cookies and tokens included, and the first part of the body: 16k measured 2% less CPU per proxied 32 KiB page than 8k (docs/benchmarks.md).",
                )
                .inputs(&["workload"]),
            );
            self.set_args(
                scope,
                "proxy_buffers",
                vec![b.count.to_string().into(), kib(b.size).into()],
                why("proxy_buffers", "A typical response body fits in memory, so the upstream connection is released at once instead of waiting for a slow client; few large buffers read it in one or two calls instead of eight (measured faster than 8 4k).")
                    .formula(format!(
                        "size = clamp(pow2({}), 4k, 32k) = {}; count = max(ceil({} / size) + 1, 4, 1 + ceil({} / size)) = {}",
                        i.response_size,
                        kib(b.size),
                        i.response_size,
                        kib(b.header.max(b.size)),
                        b.count
                    ))
                    .inputs(&["response_size", "workload"]),
            );
            self.set_args(
                scope,
                "proxy_busy_buffers_size",
                vec![kib(b.busy).into()],
                why("proxy_busy_buffers_size", "What may be busy sending to the client; nginx requires it between the largest buffer and all buffers but one.")
                    .formula(format!(
                        "clamp(2 × {}, {}, ({} − 1) × {}) = {}",
                        kib(b.header.max(b.size)),
                        kib(b.header.max(b.size)),
                        b.count,
                        kib(b.size),
                        kib(b.busy)
                    ))
                    .inputs(&["response_size", "workload"]),
            );
        }
        self.set(scope, "proxy_connect_timeout", &["5s"], why("proxy_connect_timeout", "Fail over to the next application server quickly when one does not accept connections."));
    }

    /// Appends to `args` the listen options that may appear once per address and port,
    /// written on the catch-all server that owns the port.
    fn push_listen_options(&self, args: &mut Vec<Cow<'static, str>>, tls: bool) {
        let t = self.t;
        args.push("default_server".into());
        if t.reuseport {
            args.push("reuseport".into());
        }
        args.push(format!("backlog={}", t.backlog).into());
        if let (Some(queue), false) = (t.fastopen, tls) {
            args.push(format!("fastopen={queue}").into());
        }
    }

    fn listen_why(&self, tls: bool) -> Why {
        let t = self.t;
        let text = "Options that apply to the whole address and port, set once on the catch-all server: a listen queue (backlog) sized for a reconnect storm, paired with net.core.somaxconn; reuseport, where written, gives each worker its own queue";
        let fastopen = t.fastopen.is_some() && !tls;
        why(
            if fastopen {
                "listen.catch_all.fastopen"
            } else {
                "listen.catch_all"
            },
            text,
        )
        .formula(format!(
            "backlog = clamp(pow2({} clients / {} s × {} ms), 512, 65535) = {}{}",
            t.clients,
            tuning::RECONNECT_STORM_SECONDS,
            tuning::ACCEPT_WAIT_MS,
            t.backlog,
            if fastopen {
                "; fastopen paired with net.ipv4.tcp_fastopen = 3"
            } else {
                ""
            }
        ))
        .inputs(&["clients", "vcpu", "listen", "workload", "behind_lb"])
    }

    fn site(&mut self) {
        let i = self.i;
        let v = i.versions();

        // Catch-all servers own the listen options and refuse unknown host names.
        let catch_all = Scope::Server {
            server: ServerRole::CatchAll,
        };
        // The address and at most four options.
        let mut args = Vec::with_capacity(5);
        args.push(i.listen.to_string().into());
        self.push_listen_options(&mut args, false);
        let w = self.listen_why(false);
        self.set_args(catch_all, "listen", args, w);
        self.set(catch_all, "return", &["444"], why("return.catch_all", "Close connections for host names this server does not serve, instead of showing the first site to scanners."));

        if i.tls {
            let scope = Scope::Server {
                server: ServerRole::CatchAllTls,
            };
            let port = i.listen.with_port(i.tls_port);
            // The address, `ssl`, `http2` and at most three options.
            let mut args = Vec::with_capacity(6);
            args.push(port.clone().into());
            args.push("ssl".into());
            if !v.has(Feature::Http2Directive) {
                args.push("http2".into());
            }
            self.push_listen_options(&mut args, true);
            let w = self.listen_why(true);
            self.set_args(scope, "listen", args, w);
            if i.http3 {
                self.set_args(scope, "listen", vec![port.into(), "quic".into(), "default_server".into(), "reuseport".into()], why("listen.quic", "HTTP/3 over UDP on the same port; reuseport is required for QUIC with several workers.").inputs(&["http3"]));
            }
            if v.has(Feature::SslRejectHandshake) {
                self.set(scope, "ssl_reject_handshake", &["on"], why("ssl_reject_handshake", "Refuse TLS for unknown host names without presenting the site's certificate.").inputs(&["nginx_version"]));
                let misdirected = Scope::Location {
                    server: ServerRole::CatchAllTls,
                    location: LocationRole::Root,
                };
                self.set(misdirected, "return", &["421"], why("return.misdirected", "A browser may reuse the site's HTTP/2 connection for another host name; such requests land here and get 421 Misdirected Request, so the browser opens a proper connection."));
            } else {
                self.certificate(scope);
                self.set(scope, "return", &["444"], why("return.catch_all", "Close connections for host names this server does not serve, instead of showing the first site to scanners."));
            }
        }

        let site = Scope::Server {
            server: ServerRole::Site,
        };
        let names: Vec<Cow<'static, str>> = i
            .server_names
            .iter()
            .map(|n| n.as_str().to_owned().into())
            .collect();
        self.set_args(
            site,
            "listen",
            vec![i.listen.to_string().into()],
            why("listen.site", "The site on plain HTTP.").inputs(&["listen"]),
        );
        self.set_args(
            site,
            "server_name",
            names,
            why("server_name", "The names this site answers to.").inputs(&["server_names"]),
        );
        if i.tls {
            let acme = Scope::Location {
                server: ServerRole::Site,
                location: LocationRole::Acme,
            };
            self.set(
                acme,
                "root",
                &["/var/www/_letsencrypt"],
                why(
                    "acme.root",
                    "Let ACME HTTP-01 challenges through on plain HTTP so certificates renew.",
                ),
            );
            self.set(
                site,
                "return",
                &["308", "https://$host$request_uri"],
                why(
                    "return.https",
                    "Send plain-HTTP visitors to HTTPS; 308 keeps the method and body.",
                ),
            );
            self.tls_site();
        } else {
            self.content(ServerRole::Site);
        }
    }

    fn certificate(&mut self, scope: Scope) {
        let i = self.i;
        let name = i.primary_name().file_stem();
        let cert = i.tls_cert.as_ref().map_or_else(
            || format!("/etc/letsencrypt/live/{name}/fullchain.pem"),
            |p| p.as_str().to_owned(),
        );
        let key = i.tls_key.as_ref().map_or_else(
            || format!("/etc/letsencrypt/live/{name}/privkey.pem"),
            |p| p.as_str().to_owned(),
        );
        self.set_args(
            scope,
            "ssl_certificate",
            vec![cert.into()],
            why(
                "ssl_certificate",
                "The certificate chain (Let's Encrypt's path unless one is given).",
            )
            .inputs(&["tls_cert", "server_names"]),
        );
        self.set_args(
            scope,
            "ssl_certificate_key",
            vec![key.into()],
            why(
                "ssl_certificate_key",
                "The private key of that certificate.",
            )
            .inputs(&["tls_key", "server_names"]),
        );
    }

    fn tls_site(&mut self) {
        let i = self.i;
        let v = i.versions();
        let scope = Scope::Server {
            server: ServerRole::SiteTls,
        };
        let port = i.listen.with_port(i.tls_port);
        let mut args = vec![port.clone().into(), "ssl".into()];
        if !v.has(Feature::Http2Directive) {
            args.push("http2".into());
        }
        self.set_args(
            scope,
            "listen",
            args,
            why(
                "listen.tls",
                "The site on HTTPS; before nginx 1.25.1 HTTP/2 is switched on here.",
            )
            .inputs(&["tls_port", "nginx_version"]),
        );
        if i.http3 {
            self.set_args(
                scope,
                "listen",
                vec![port.into(), "quic".into()],
                why("listen.quic.site", "The site on HTTP/3.").inputs(&["http3"]),
            );
            self.set(
                scope,
                "http3",
                &["on"],
                why("http3", "Serve HTTP/3 on the QUIC listener.").inputs(&["http3"]),
            );
        }
        if v.has(Feature::Http2Directive) {
            self.set(scope, "http2", &["on"], why("http2", "HTTP/2 for TLS clients; nginx ≥ 1.25.1 switches it on with this directive (the listen parameter is deprecated).").inputs(&["nginx_version"]));
        }
        let names: Vec<Cow<'static, str>> = i
            .server_names
            .iter()
            .map(|n| n.as_str().to_owned().into())
            .collect();
        self.set_args(
            scope,
            "server_name",
            names,
            why("server_name", "The names this site answers to.").inputs(&["server_names"]),
        );
        self.certificate(scope);
        if i.ocsp_stapling {
            self.set(scope, "ssl_stapling", &["on"], why("ssl_stapling", "Staple the CA's OCSP response (asked for; does nothing for certificates without an OCSP URL, such as Let's Encrypt's since 2025).").inputs(&["ocsp_stapling"]));
            self.set(
                scope,
                "ssl_stapling_verify",
                &["on"],
                why(
                    "ssl_stapling_verify",
                    "Check the stapled response before sending it.",
                ),
            );
            self.set(
                scope,
                "resolver",
                &["127.0.0.53", "valid=300s"],
                why(
                    "resolver",
                    "Stapling looks up the OCSP responder; this is systemd-resolved's local stub.",
                )
                .inputs(&["ocsp_stapling"]),
            );
        } else {
            self.omit("ssl_stapling", why("omit.ssl_stapling", "Let's Encrypt ended OCSP in 2025; stapling its certificates only logs a warning. Opt in with --ocsp-stapling for CAs that still run OCSP."));
        }
        self.set(
            scope,
            "add_header",
            &["Strict-Transport-Security", "max-age=63072000", "always"],
            why("hsts", "Browsers use HTTPS only, for two years (Mozilla)."),
        );
        if i.http3 {
            self.set_args(
                scope,
                "add_header",
                vec![
                    "Alt-Svc".into(),
                    format!("h3=\":{}\"; ma=86400", i.tls_port).into(),
                    "always".into(),
                ],
                why("alt_svc", "Tell browsers HTTP/3 is available on this port.")
                    .inputs(&["http3", "tls_port"]),
            );
        }
        self.content(ServerRole::SiteTls);
    }

    /// Headers, root and locations of the server that serves the site.
    fn content(&mut self, server: ServerRole) {
        let i = self.i;
        let scope = Scope::Server { server };
        if i.workload.proxies() {
            self.omit("add_header X-Frame-Options, X-Content-Type-Options", why("omit.header.app", "The application sets these itself (Django, Rails, Spring Security and helmet do by default). nginx would add a second copy, and two different X-Frame-Options values make browsers ignore both."));
        } else {
            self.set(scope, "add_header", &["X-Content-Type-Options", "nosniff", "always"], why("header.nosniff", "Browsers must not guess content types. All headers are set at this one level, because an add_header inside a location would drop them. With Vary they add about 85 bytes to a response: 0.3 % of a 30 KB page on a full link (docs/benchmarks.md), a price worth paying."));
            self.set(
                scope,
                "add_header",
                &["X-Frame-Options", "SAMEORIGIN", "always"],
                why(
                    "header.frame",
                    "Other sites may not frame these pages (clickjacking).",
                ),
            );
        }
        self.omit("add_header Referrer-Policy", why("omit.header.referrer", "strict-origin-when-cross-origin is what browsers do without the header (Chrome 85, Firefox 87, Safari 15.2 and later); sending it would add 50 bytes to every response for nothing."));
        let root = Scope::Location {
            server,
            location: LocationRole::Root,
        };
        match i.workload {
            Workload::Static | Workload::Mixed => {
                let document_root = i
                    .root
                    .as_ref()
                    .map_or(i.layout.default_root(), |r| r.as_str());
                self.set_args(
                    scope,
                    "root",
                    vec![document_root.to_owned().into()],
                    why("root", "Where the site's files are.").inputs(&["root", "layout"]),
                );
                self.set(
                    scope,
                    "index",
                    &["index.html"],
                    why("index", "The file served for a directory."),
                );
                if i.workload == Workload::Mixed {
                    self.set(root, "try_files", &["$uri", "$uri/", "@app"], why("try_files", "Serve the file if it exists, otherwise the directory's index, otherwise the application.").inputs(&["workload"]));
                } else {
                    self.omit("try_files", why("omit.try_files", "nginx already serves the file, the directory's index or 404; try_files would only add a file lookup to every request (measured 5-10% of throughput on small pages)."));
                }
                let assets = Scope::Location {
                    server,
                    location: LocationRole::Assets,
                };
                self.set(
                    assets,
                    "expires",
                    &["7d"],
                    why(
                        "expires",
                        "Browsers keep styles, scripts, images and fonts for a week.",
                    ),
                );
                self.set(
                    assets,
                    "access_log",
                    &["off"],
                    why(
                        "access_log.assets",
                        "Asset requests add little to the log but cost a write each.",
                    ),
                );
                if i.workload == Workload::Mixed {
                    self.proxy_location(Scope::Location {
                        server,
                        location: LocationRole::App,
                    });
                }
            }
            Workload::Proxy | Workload::Api => self.proxy_location(root),
        }
    }

    fn sysctl(&mut self) {
        let (i, t) = (self.i, self.t);
        let s = Scope::Sysctl;
        self.set_value(
            s,
            "net.core.somaxconn",
            &t.somaxconn,
            why("net.core.somaxconn", "The kernel caps every listen queue at this value; it must be at least the backlog= on nginx's listen, and is never set below the kernel's own default.")
                .formula(format!("max(backlog {}, kernel default {}) = {}", t.backlog, tuning::SOMAXCONN_DEFAULT, t.somaxconn))
                .inputs(&["clients", "vcpu"]),
        );
        if t.backlog > t.syn_backlog_default {
            self.set_value(
                s,
                "net.ipv4.tcp_max_syn_backlog",
                &t.backlog,
                why("net.ipv4.tcp_max_syn_backlog", "Half-open connections the kernel keeps while SYN cookies are off; raised to the listen backlog.")
                    .formula(format!("backlog {} > kernel default {} for {}", t.backlog, t.syn_backlog_default, i.ram))
                    .inputs(&["ram", "clients"]),
            );
        } else {
            self.omit(
                "net.ipv4.tcp_max_syn_backlog",
                why(
                    "omit.net.ipv4.tcp_max_syn_backlog",
                    "The kernel's default for this much RAM already covers the listen backlog.",
                ),
            );
        }
        if t.fastopen.is_some() {
            self.set(s, "net.ipv4.tcp_fastopen", &["3"], why("net.ipv4.tcp_fastopen", "Enable TCP Fast Open for servers too; paired with fastopen= on the listen socket. Only for static files, because a SYN's data may be replayed.").inputs(&["workload", "behind_lb"]));
        } else {
            self.omit("net.ipv4.tcp_fastopen", why("omit.net.ipv4.tcp_fastopen", "Fast Open data may be replayed, so it is used only for static files served directly; without fastopen= on the listen socket the sysctl does nothing."));
        }
        if i.workload.proxies() {
            self.set_args(
                s,
                "net.ipv4.ip_local_port_range",
                vec![tuning_port_range().into()],
                why("net.ipv4.ip_local_port_range", "More ephemeral ports for connections to the application, starting above the usual service ports so none is taken before its service binds it.")
                    .inputs(&["workload"]),
            );
            let mut reserved: Vec<u16> = RESERVED_PORTS.to_vec();
            reserved.extend(
                i.upstreams
                    .iter()
                    .filter(|u| u.is_local())
                    .filter_map(super::inputs::Upstream::port)
                    .filter(|p| *p >= EPHEMERAL_START),
            );
            reserved.sort_unstable();
            reserved.dedup();
            let list: Vec<String> = reserved.iter().map(ToString::to_string).collect();
            self.set_args(s, "net.ipv4.ip_local_reserved_ports", vec![list.join(",").into()], why("net.ipv4.ip_local_reserved_ports", "Service ports inside the widened range (memcached, RabbitMQ, MongoDB and local upstreams) stay free for their services.").inputs(&["upstreams"]));
            if i.upstreams.iter().any(|u| !u.is_local()) {
                self.set(s, "net.ipv4.tcp_tw_reuse", &["1"], why("net.ipv4.tcp_tw_reuse", "Reuse TIME-WAIT ports for new outgoing connections to remote application servers; the default (2) does it only for loopback.").inputs(&["upstreams"]));
            } else {
                self.omit("net.ipv4.tcp_tw_reuse", why("omit.net.ipv4.tcp_tw_reuse.local", "The default (2) already reuses TIME-WAIT ports on loopback, where these upstreams are."));
            }
        } else {
            self.omit(
                "net.ipv4.ip_local_port_range",
                why(
                    "omit.net.ipv4.ip_local_port_range",
                    "Only outgoing connections use ephemeral ports, and a static site opens none.",
                ),
            );
            self.omit("net.ipv4.tcp_tw_reuse", why("omit.net.ipv4.tcp_tw_reuse", "It affects only outgoing connections, and a static site opens none (the default is 2, not 0)."));
        }
        if let Some(file_max) = t.file_max {
            self.set_value(
                s,
                "fs.file-max",
                &file_max,
                why("fs.file-max", "The workers together may open more files than the kernel's default allows; raised, never lowered.")
                    .formula(format!("{} workers × {} + 65536 > {} (RAM KiB / 10)", t.workers, t.rlimit_nofile, t.file_max_default))
                    .inputs(&["vcpu", "ram"]),
            );
        } else {
            self.omit("fs.file-max", why("omit.fs.file-max", "The kernel's default (RAM in KiB / 10) already exceeds what all workers can open; a fixed number could lower it."));
        }
        if i.http3 {
            for key in ["net.core.rmem_max", "net.core.wmem_max"] {
                self.set(s, key, &["7500000"], why("udp_buffers", "QUIC sends and receives through UDP socket buffers; larger maxima avoid drops at high rates.").inputs(&["http3"]));
            }
        }
        self.omit("net.core.netdev_max_backlog", why("omit.net.core.netdev_max_backlog", "Raise it only when the second column of /proc/net/softnet_stat (drops) grows; the default suits VPS network rates."));
        let wc = t.worker_connections;
        self.set_value(
            Scope::Systemd,
            "LimitNOFILE",
            &t.limit_nofile,
            why("LimitNOFILE", "The service's file limit, at least worker_rlimit_nofile; never below systemd's default hard limit, which a smaller value would lower.")
                .formula(format!("max(worker_rlimit_nofile {}, {}) = {} ≥ 2 × {wc}", t.rlimit_nofile, tuning::SYSTEMD_HARD_NOFILE, t.limit_nofile))
                .inputs(&["vcpu", "ram", "workload"]),
        );
    }

    fn warnings(&self) -> Vec<Warning> {
        let (i, t) = (self.i, self.t);
        let mut out = Vec::new();
        let mut warn = |id, field, message: String| out.push(Warning { id, field, message });
        if t.clients < t.clients_target {
            let field = if i.clients.is_some() {
                Some("clients")
            } else {
                Some("ram")
            };
            warn("capacity", field, format!(
                "{} concurrent clients were asked for, but {} fit: {} MiB per active client against a budget of {} MiB. Add RAM or expect fewer clients.",
                t.clients_target,
                t.clients,
                t.client_bytes.div_ceil(1024 * 1024).max(1),
                t.memory_budget / (1024 * 1024)
            ).replace(" 1 MiB per", &format!(" {} KiB per", t.client_bytes.div_ceil(1024))));
        }
        if i.http3 && i.behind_lb {
            warn("http3_behind_lb", Some("http3"), "HTTP/3 usually ends at the load balancer; nginx's QUIC listener is reachable only if UDP reaches this host.".into());
        }
        if i.http3 {
            warn(
                "http3_firewall",
                Some("http3"),
                format!("Open UDP port {} in the firewall for HTTP/3.", i.tls_port),
            );
        }
        if i.ocsp_stapling {
            warn("ocsp", Some("ocsp_stapling"), "Let's Encrypt certificates carry no OCSP URL since 2025: nginx will log that stapling is ignored.".into());
        }
        if i.brotli && i.layout != Layout::Debian {
            warn(
                "brotli_module",
                Some("brotli"),
                format!(
                    "The {} packages do not ship the brotli modules; build ngx_brotli for your nginx or turn brotli off.",
                    i.layout
                ),
            );
        }
        if i.workload.proxies() && i.upstreams.iter().any(super::inputs::Upstream::is_hostname) {
            warn("upstream_dns", Some("upstreams"), "Upstream host names are resolved once, when nginx starts; reload nginx when their addresses change.".into());
        }
        if i.behind_lb && i.trusted_proxies == crate::inputs::defaults().trusted_proxies {
            warn("trusted_proxies", Some("trusted_proxies"), "X-Forwarded-For is trusted from every private network; narrow --trusted-proxy to your load balancers' addresses.".into());
        }
        if i.layout == Layout::Docker {
            warn("docker", Some("layout"), "In a container the sysctl and systemd files apply to the host: pass them as docker run --sysctl and --ulimit nofile instead.".into());
        }
        for a in ADVISORIES {
            if a.affects(i.nginx_version) && (i.tls || !a.tls_only) {
                warn(
                    "advisory",
                    Some("nginx_version"),
                    format!(
                        "nginx {} is affected by {}: {}. Upgrade nginx.",
                        i.nginx_version, a.id, a.summary
                    ),
                );
            }
        }
        if i.workload == Workload::Static && i.upstreams != crate::inputs::defaults().upstreams {
            warn(
                "upstreams_unused",
                Some("upstreams"),
                "The static workload proxies nothing; the upstreams are ignored.".into(),
            );
        }
        out
    }
}

fn tuning_port_range() -> String {
    format!("{EPHEMERAL_START} 65535")
}

fn permille(p: u32) -> String {
    match p {
        0 => "0".into(),
        1000 => "1".into(),
        p => format!("0.{}", format!("{p:03}").trim_end_matches('0')),
    }
}

impl Plan {
    /// Computes the plan for validated inputs. Never fails.
    pub fn new(inputs: &Inputs) -> Self {
        let tuning = Tuning::compute(inputs);
        let mut b = Builder {
            i: inputs,
            t: &tuning,
            settings: Vec::with_capacity(128),
            omitted: Vec::with_capacity(24),
        };
        b.main();
        b.http();
        b.upstream();
        b.site();
        b.sysctl();
        let warnings = b.warnings();
        let (settings, omitted) = (b.settings, b.omitted);
        let limited_by = if tuning.clients < tuning.clients_target.min(tuning.memory_clients) {
            Limit::Slots
        } else if tuning.clients < tuning.clients_target {
            Limit::Memory
        } else if inputs.clients.is_some() {
            Limit::Given
        } else {
            Limit::Cpu
        };
        let capacity = Capacity {
            clients: tuning.clients,
            limited_by,
            memory_clients: tuning.memory_clients,
            client_bytes: tuning.client_bytes,
            peak_memory: tuning.peak_memory,
            connection_slots: u64::from(tuning.workers) * u64::from(tuning.worker_connections),
        };
        let precompress = inputs
            .workload
            .serves_files()
            .then(|| precompress_command(inputs));
        Self {
            inputs: inputs.clone(),
            tuning,
            settings,
            omitted,
            capacity,
            warnings,
            precompress,
            command: inputs.to_command(),
        }
    }
}

/// The command that writes `.gz` (and `.br`) files next to every compressible file.
fn precompress_command(inputs: &Inputs) -> String {
    let root = inputs
        .root
        .as_ref()
        .map_or(inputs.layout.default_root(), |r| r.as_str());
    let brotli = if inputs.brotli {
        " -exec brotli -f -k -q 11 {} +"
    } else {
        ""
    };
    format!(
        "find {root} -type f \\( -name '*.html' -o -name '*.css' -o -name '*.js' -o -name '*.mjs' -o -name '*.json' -o -name '*.svg' -o -name '*.xml' -o -name '*.txt' \\) -exec gzip -f -k -9 {{}} +{brotli}"
    )
}
