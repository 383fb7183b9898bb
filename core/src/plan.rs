//! The plan: every directive, sysctl and limit nginx-gen writes, each with its reason,
//! plus what it deliberately leaves at the default, the capacity estimate and warnings.
//!
//! Renderers are pure functions of the [`Plan`]; nothing here knows about output syntax.

use std::borrow::Cow;

use serde::Serialize;

use crate::inputs::Inputs;
use crate::rules::{self, Ctx};
use crate::tuning::Tuning;

mod args;

pub use args::{Args, ArgsIter};

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
    /// The site's other names (`canonical`), redirected to the first: on HTTPS with TLS
    /// (plain HTTP redirects every name at once), else on plain HTTP.
    Alias,
    /// nginx's `stub_status` counters on a loopback port, for monitoring agents.
    Status,
}

impl ServerRole {
    /// Every role, in output order.
    pub const ALL: [Self; 6] = [
        Self::CatchAll,
        Self::CatchAllTls,
        Self::Site,
        Self::SiteTls,
        Self::Alias,
        Self::Status,
    ];
}

/// What the hidden-files locations refuse: dot files but `/.well-known/`, and editors'
/// and dumps' leftovers (one literal, for both forms of [`LocationRole::Hidden`]).
macro_rules! hidden_files {
    () => {
        r"/\.(?!well-known/)|\.(?:bak|dist|inc|ini|log|old|orig|save|sql|sw[op])$|~$"
    };
}

/// Which location of a server block a setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum LocationRole {
    /// ACME HTTP-01 challenges, kept on plain HTTP for certificate renewal.
    Acme,
    /// The load balancer's health probe, answered by nginx itself.
    Health,
    /// Hidden files (`.env`, `.git/`) and editors' backups, never served.
    Hidden,
    /// The same where PHP runs: up to a script's path info (`/x.php/…`), which names no
    /// file on disk.
    HiddenPhp,
    /// Where nginx serves no files (proxy, api): version-control directories and a root
    /// `.env` only, never passed to the application; its other paths are its own.
    Repository,
    /// `/`.
    Root,
    /// Static assets with long cache lifetimes.
    Assets,
    /// Inside [`Self::Assets`]: images and fonts, compressed in their own formats, so no
    /// precompressed copy of them is looked for.
    Media,
    /// PHP scripts, run by PHP-FPM (workload php).
    Php,
    /// The proxied application (named location in the mixed workload).
    App,
}

impl LocationRole {
    /// Every role, in output order (regular-expression locations are tried in this order:
    /// hidden files first, then PHP scripts, whose path info may end like an asset:
    /// `/remote.php/dav/files/a/photo.jpg` is the script's, not a file on disk).
    pub const ALL: [Self; 10] = [
        Self::Acme,
        Self::Health,
        Self::Hidden,
        Self::HiddenPhp,
        Self::Repository,
        Self::Root,
        Self::Php,
        Self::Assets,
        Self::Media,
        Self::App,
    ];

    /// The location this one is nested in, if any: nginx tries a nested location only
    /// once its parent has matched, so requests outside the parent pay nothing for it.
    pub const fn parent(self) -> Option<Self> {
        match self {
            Self::Media => Some(Self::Assets),
            _ => None,
        }
    }

    /// The `location` arguments of this role; fixed by the site's design.
    pub const fn matcher(self) -> &'static [&'static str] {
        match self {
            Self::Acme => &["^~", "/.well-known/acme-challenge/"],
            Self::Health => &["=", "/healthz"],
            // Unanchored: PCRE tries it only from a `/`, `.` or `~` (its first-character
            // optimisation), where the PHP form below runs a lookahead at every character.
            Self::Hidden => &["~", hidden_files!()],
            // Up to a script's path info (`/x.php/…`), which names no file on disk; `(?s)`:
            // a decoded line feed in the URI is a character like any other.
            Self::HiddenPhp => &[
                "~",
                concat!(r"(?s)^(?:(?!\.php/).)*?(?:", hidden_files!(), ")"),
            ],
            Self::Repository => &["~", r"/\.(?:git|svn|hg|bzr)(?:/|$)|^/\.env(?:$|\.)"],
            Self::Root => &["/"],
            Self::Assets => &[
                "~*",
                r"\.(?:css|js|mjs|map|png|jpe?g|gif|ico|svg|webp|avif|woff2?)$",
            ],
            Self::Media => &["~*", r"\.(?:png|jpe?g|gif|ico|webp|avif|woff2?)$"],
            Self::Php => &["~", r"[^/]\.php(?:/|$)"],
            Self::App => &["@app"],
        }
    }
}

/// A block of fixed rows in the site file (`map`, `types`): its setting gives the block's
/// name, arguments and reason; the rows are part of the design, like a location's matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum TableRole {
    /// Content types the distributions' `mime.types` lacks.
    Types,
    /// `$frame_options`: `SAMEORIGIN` for an HTML response whose application sent no
    /// `X-Frame-Options` of its own, empty (no header) otherwise.
    FrameOptions,
    /// `$page_expires`: `epoch` for HTML pages and their 304s (revalidated on every
    /// visit), `off` for every other type.
    PageExpires,
    /// `$page_by_uri`: for a response without a type (a 304), `epoch` when its URI is a
    /// page's, `off` otherwise.
    PageByUri,
    /// `$connection_upgrade`: `upgrade` for WebSocket requests, empty (keepalive, and no
    /// other protocol's upgrade) otherwise.
    ConnectionUpgrade,
    /// `$forwarded_for_chain`: the load balancer's chain plus its address, or the client.
    ForwardedFor,
    /// `$forwarded_scheme`: the load balancer's scheme, or this connection's.
    ForwardedScheme,
    /// `$forwarded_https`: `on` when that scheme is HTTPS, empty otherwise (PHP's `HTTPS`).
    ForwardedHttps,
    /// `$cache_bypass`: 1 for requests with a cookie or credentials, which the micro-cache
    /// neither answers nor stores.
    CacheBypass,
    /// `$client_port`: `:PORT` when the client's Host header names a port (or, without a
    /// Host header, HTTP/3, when it connected to a port no scheme has), else empty.
    ClientPort,
    /// `$limit_client`: the client's address, empty (not counted) for an asset request.
    LimitClient,
    /// `$limit_path_key`: the client's address for the paths with a stricter rate limit,
    /// empty (not limited there) for the others.
    LimitPath,
}

/// One row of a table: the key and its values, as written.
pub type Row = (&'static str, &'static [&'static str]);

impl TableRole {
    /// Every table, in output order.
    pub const ALL: [Self; 12] = [
        Self::Types,
        Self::FrameOptions,
        Self::PageExpires,
        Self::PageByUri,
        Self::ConnectionUpgrade,
        Self::ClientPort,
        Self::ForwardedFor,
        Self::ForwardedScheme,
        Self::ForwardedHttps,
        Self::CacheBypass,
        Self::LimitClient,
        Self::LimitPath,
    ];

    /// The rows of the block.
    pub const fn rows(self) -> &'static [Row] {
        match self {
            Self::Types => &[
                ("text/javascript", &["mjs"]),
                ("application/manifest+json", &["webmanifest"]),
            ],
            // The key is `<the response's own X-Frame-Options>=<its type>`: only an empty
            // header before the `=` matches. The types nginx sets itself are exact keys, found
            // in the map's hash without running the pattern, which stays for an
            // application's type with a charset. Anything else: empty, no header (the
            // default written out, as gixy's hash_without_default wants).
            Self::FrameOptions => &[
                ("default", &[""]),
                ("=text/html", &["SAMEORIGIN"]),
                ("=application/xhtml+xml", &["SAMEORIGIN"]),
                (r"~*^=(?:text/html|application/xhtml\+xml)", &["SAMEORIGIN"]),
            ],
            // The key is the response's type, exact keys first as above. A 304 has no type
            // (nginx's not-modified filter clears it before this is read), so a page's 304 is
            // known by its URI, in the next table.
            Self::PageExpires => &[
                ("default", &["off"]),
                ("text/html", &["epoch"]),
                ("application/xhtml+xml", &["epoch"]),
                ("", &["$page_by_uri"]),
                (r"~*^(?:text/html|application/xhtml\+xml)", &["epoch"]),
            ],
            // The key is the URI: a directory's index or an `.html` file.
            Self::PageByUri => &[
                ("default", &["off"]),
                (r"~*^/(?:.*(?:/|\.html?))?$", &["epoch"]),
            ],
            // WebSocket only: an `h2c` upgrade passed on would let a client talk HTTP/2
            // to the application past nginx's locations (h2c smuggling).
            Self::ConnectionUpgrade => &[("default", &[""]), ("~*^websocket$", &["upgrade"])],
            // The realip module replaced the address only if the connection came from a
            // trusted proxy that named a client; the same address twice means it did not.
            // (`=` joins the values: no address contains it, and no key needs quoting, so
            // no parser has to agree on escapes.)
            Self::ForwardedFor => &[
                (r"~^([^=]+)=\1$", &["$remote_addr"]),
                ("default", &["$http_x_forwarded_for, $realip_remote_addr"]),
            ],
            Self::ForwardedScheme => &[
                (r"~^([^=]+)=\1=", &["$scheme"]),
                ("~=(https?)$", &["$1"]),
                ("default", &["$scheme"]),
            ],
            Self::ForwardedHttps => &[("https", &["on"])],
            Self::CacheBypass => &[("", &["0"]), ("default", &["1"])],
            // The key is `$http_host|$server_port`. Digits only: the name before them is
            // the one nginx matched ($host). No Host header at all (HTTP/3, whose
            // :authority nginx does not turn into one): the port connected to, unless
            // it is a scheme's own.
            Self::ClientPort => &[
                ("default", &[""]),
                (r"~(:[0-9]+)\|", &["$1"]),
                (r"~^\|(?!(?:80|443)$)([0-9]+)$", &[":$1"]),
            ],
            // The assets' location's pattern (a test keeps them equal).
            Self::LimitClient => &[
                ("default", &["$binary_remote_addr"]),
                (
                    r"~*\.(?:css|js|mjs|map|png|jpe?g|gif|ico|svg|webp|avif|woff2?)$",
                    &[""],
                ),
            ],
            // The source is the prefixes, separated by `|`, then `>` and the URI (no path
            // can contain either): a whole prefix that the URI starts with.
            Self::LimitPath => &[
                (
                    r"~(?:^|\|)([^|>]+)(?:\|[^>]*)?>\1",
                    &["$binary_remote_addr"],
                ),
                ("default", &[""]),
            ],
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
    /// Site file, a block of fixed rows (`map`, `types`).
    Table {
        /// Which table.
        table: TableRole,
    },
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
    /// The PHP-FPM pool file (workload php).
    PhpPool,
}

/// The files nginx-gen writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// `/etc/nginx/nginx.conf`.
    Nginx,
    /// The site file in `/etc/nginx/conf.d/`.
    Site,
    /// The sysctl.d file.
    Sysctl,
    /// The systemd drop-in.
    Systemd,
    /// The PHP-FPM pool file (workload php only).
    PhpPool,
}

impl FileKind {
    /// Every file, in the order they are written.
    pub const ALL: [Self; 5] = [
        Self::Nginx,
        Self::Site,
        Self::Sysctl,
        Self::Systemd,
        Self::PhpPool,
    ];
}

impl Scope {
    /// The file a setting of this scope goes to: the one `Scope → file` mapping.
    pub const fn file(self) -> FileKind {
        match self {
            Self::Main | Self::Events | Self::Http => FileKind::Nginx,
            Self::Table { .. } | Self::Upstream | Self::Server { .. } | Self::Location { .. } => {
                FileKind::Site
            }
            Self::Sysctl => FileKind::Sysctl,
            Self::Systemd => FileKind::Systemd,
            Self::PhpPool => FileKind::PhpPool,
        }
    }
}

/// Why a value is what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Reason {
    /// Stable key of this explanation (for translations and `explain`).
    pub id: &'static str,
    /// The explanation in English (a [`crate::i18n::Catalogue`] translates it when the
    /// plan is rendered).
    pub why: Cow<'static, str>,
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
    pub args: Args,
    /// Why.
    pub reason: Reason,
    /// The rule that wrote it: its index in [`rules::RULES`].
    #[serde(skip)]
    pub rule: u16,
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
    /// Where it would go.
    #[serde(skip)]
    pub scope: Scope,
    /// Why it is not written.
    pub reason: Reason,
    /// The rule that left it out: its index in [`rules::RULES`].
    #[serde(skip)]
    pub rule: u16,
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
    /// The message, in English.
    pub message: String,
    /// The values filled into the template of `id`, for translations.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", tsify(skip))]
    pub values: Vec<(&'static str, String)>,
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
    /// Concurrent clients the memory budget would allow (with the same active share).
    pub memory_clients: u32,
    /// Estimated memory of one active client, in bytes.
    pub client_bytes: u64,
    /// Estimated memory of one idle keep-alive connection, in bytes.
    pub idle_bytes: u64,
    /// Connections the estimate has transferring at once (a tenth of the clients).
    pub active_clients: u64,
    /// Estimated memory of nginx with every client connected and idle, in bytes.
    pub idle_memory: u64,
    /// Estimated peak memory of nginx, with the active clients transferring, in bytes.
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
        self.inputs.document_root()
    }
    /// The site file's path, e.g. `/etc/nginx/conf.d/example.com.conf`.
    pub fn site_path(&self) -> String {
        self.inputs.site_file(".conf")
    }
}

impl Plan {
    /// Computes the plan for validated inputs. Never fails.
    pub fn new(inputs: &Inputs) -> Self {
        // Bootstrapping, the rules see TLS off (no HTTPS server, no redirect) and the
        // bootstrap flag (the ACME location and the warning); the command keeps both.
        let served;
        let rules_inputs = if inputs.bootstrap {
            served = Inputs {
                tls: false,
                ..inputs.clone()
            };
            &served
        } else {
            inputs
        };
        let tuning = Tuning::compute(rules_inputs);
        let ctx = Ctx {
            i: rules_inputs,
            t: &tuning,
            v: inputs.versions(),
        };
        let (settings, omitted) = rules::run(&ctx);
        let warnings = rules::warnings::warnings(&ctx);
        // Slots bind when fewer clients fit than asked for; memory binds when the estimate
        // at that many exceeds the budget (a warning then says so; slots are not cut).
        let limited_by = if tuning.clients < tuning.clients_target {
            Limit::Slots
        } else if tuning.memory_clients < tuning.clients {
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
            idle_bytes: tuning.idle_bytes,
            active_clients: tuning.active_clients,
            idle_memory: tuning.idle_memory,
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
    let root = inputs.document_root();
    let brotli = if inputs.brotli {
        " -exec brotli -f -k -q 11 {} +"
    } else {
        ""
    };
    format!(
        "find {root} -type f \\( -name '*.html' -o -name '*.css' -o -name '*.js' -o -name '*.mjs' -o -name '*.json' -o -name '*.svg' -o -name '*.xml' -o -name '*.txt' \\) -exec gzip -f -k -9 {{}} +{brotli}"
    )
}
