//! The rule registry: every setting nginx-gen writes or deliberately leaves out is one
//! [`Rule`], defined once in the file of its directive family, with its tests beside it.
//!
//! A rule names the setting it decides, the reason texts it may give (id, English text,
//! the inputs they depend on) and its decision: a data row for settings that never change
//! ([`Decide::Fixed`], [`Decide::When`], [`Decide::Omit`]), or code that computes the value
//! ([`Decide::Code`]). Computed values come with a [`formula::Formula`] built by the same
//! operations that computed them, so the explanation cannot disagree with the value. Stock
//! defaults and documentation links come from the policy tables ([`crate::policy`]) by name.
//!
//! [`RULES`] lists every rule in output order; [`run`] evaluates them for one set of inputs.
//! Sizing numbers that depend on each other are computed first, in [`crate::tuning`].

pub mod formula;

mod cache;
mod compression;
mod events;
mod files;
mod headers;
mod http;
mod kernel;
mod limits;
mod listen;
mod php;
mod process;
mod proxy;
mod ratelimit;
mod site;
mod tls;
pub(crate) mod warnings;

use std::borrow::Cow;

use crate::inputs::Inputs;
use crate::plan::{Args, Omitted, Reason, Scope, ServerRole, Setting};
use crate::policy::{Lookup, Versions, fill_versions};
use crate::tuning::Tuning;
use formula::Formula;

/// A reason a rule gives: a stable id (translations and `explain` use it), the English
/// text, and the inputs the value depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text {
    /// Stable id.
    pub id: &'static str,
    /// The explanation in English.
    pub en: &'static str,
    /// The inputs (JSON keys) the value depends on.
    pub inputs: &'static [&'static str],
    /// Whether the text has `{…}` placeholders (found when the text is compiled, so a plan
    /// does not search a hundred texts for them).
    pub placeholders: bool,
}

/// Whether `text` contains `{`, in a constant context.
const fn has_brace(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            return true;
        }
        i += 1;
    }
    false
}

impl Text {
    /// A reason that depends on no input.
    pub const fn new(id: &'static str, en: &'static str) -> Self {
        Self {
            id,
            en,
            inputs: &[],
            placeholders: has_brace(en),
        }
    }
    /// The same reason, depending on `inputs`.
    #[must_use]
    pub const fn inputs(self, inputs: &'static [&'static str]) -> Self {
        Self { inputs, ..self }
    }
}

/// Declares a table of texts: a `static` [`Text`] per entry (`NAME = "id" => "English",`)
/// and `TEXTS`, every entry in order, documented by the first argument. The input errors
/// and the renderers' own texts are such tables.
macro_rules! text_table {
    ($doc:literal; $($(#[$meta:meta])* $name:ident = $id:literal => $en:literal,)*) => {
        $($(#[$meta])* pub(crate) static $name: $crate::rules::Text = $crate::rules::Text::new($id, $en);)*
        #[doc = $doc]
        pub static TEXTS: &[&$crate::rules::Text] = &[$(&$name),*];
    };
}
pub(crate) use text_table;

/// How a rule decides.
#[derive(Clone, Copy)]
pub enum Decide {
    /// Always written, with these arguments, for the rule's first reason.
    Fixed {
        /// Where.
        scope: Scope,
        /// The arguments.
        args: &'static [&'static str],
    },
    /// Written with these arguments when `when` holds.
    When {
        /// The condition.
        when: fn(&Ctx) -> bool,
        /// Where.
        scope: Scope,
        /// The arguments.
        args: &'static [&'static str],
    },
    /// Left at the default when `when` holds, for the rule's first reason.
    Omit {
        /// The condition.
        when: fn(&Ctx) -> bool,
        /// Where it would go.
        scope: Scope,
    },
    /// Computed from the inputs.
    Code(fn(&Ctx, &mut Out)),
}

impl std::fmt::Debug for Decide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Fixed { scope, args } => write!(f, "Fixed({scope:?}, {args:?})"),
            Self::When { scope, args, .. } => write!(f, "When({scope:?}, {args:?})"),
            Self::Omit { scope, .. } => write!(f, "Omit({scope:?})"),
            Self::Code(_) => f.write_str("Code"),
        }
    }
}

/// One rule.
#[derive(Debug)]
pub struct Rule {
    /// The setting it decides: directive, sysctl key or systemd setting, or what it leaves
    /// out (`add_header Referrer-Policy`).
    pub name: &'static str,
    /// Every reason it may give; the first is the one of data rows.
    pub texts: &'static [Text],
    /// The decision.
    pub decide: Decide,
}

/// Always: the condition of unconditional data rows.
pub(crate) fn always(_: &Ctx) -> bool {
    true
}

/// What a rule sees: the validated inputs, the sizing numbers and the target versions.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The inputs.
    pub i: &'a Inputs,
    /// The numbers.
    pub t: &'a Tuning,
    /// The nginx and OpenSSL versions the output targets.
    pub v: Versions,
}

impl Ctx<'_> {
    /// The server block that serves the site's content: HTTPS when TLS is on.
    pub fn content_server(&self) -> ServerRole {
        if self.i.tls {
            ServerRole::SiteTls
        } else {
            ServerRole::Site
        }
    }

    /// The names redirected to the first (`canonical`); none without it, and none while
    /// bootstrapping, when plain HTTP serves every name until the certificate exists.
    pub fn aliases(&self) -> &[crate::inputs::ServerName] {
        if self.i.canonical && !self.i.bootstrap {
            &self.i.server_names[1..]
        } else {
            &[]
        }
    }

    /// The servers that speak the site's HTTPS, each with the site's certificate: the site
    /// itself, then the server of its other names (`canonical`). None without TLS.
    pub fn https_servers(&self) -> impl Iterator<Item = Scope> + use<> {
        let alias = self.i.tls && !self.aliases().is_empty();
        [ServerRole::SiteTls, ServerRole::Alias]
            .into_iter()
            .take(usize::from(self.i.tls) + usize::from(alias))
            .map(|server| Scope::Server { server })
    }

    /// The names the site serves itself: the first alone where the others redirect to it.
    pub fn served_names(&self) -> &[crate::inputs::ServerName] {
        let names = &self.i.server_names;
        &names[..names.len() - self.aliases().len()]
    }

    /// The site answers every host name (`server_name _`): it is the default server
    /// itself, and there is no catch-all.
    pub fn site_takes_all(&self) -> bool {
        self.i.server_names.iter().any(|n| n.as_str() == "_")
    }

    /// A plain-HTTP catch-all server exists.
    pub fn catch_all(&self) -> bool {
        !self.site_takes_all()
    }

    /// A TLS catch-all server exists: not when the site takes every name, nor when a
    /// name is an IP address (clients send no SNI for those, so the site must be the
    /// port's default server).
    pub fn catch_all_tls(&self) -> bool {
        self.i.tls
            && self.catch_all()
            && !self
                .i
                .server_names
                .iter()
                .any(crate::inputs::ServerName::is_ip)
    }

    /// The server that owns the listen options (`default_server`, `backlog=`) of the
    /// plain-HTTP port, or of the TLS port.
    pub fn listen_owner(&self, tls: bool) -> ServerRole {
        match (tls, tls && self.catch_all_tls() || !tls && self.catch_all()) {
            (false, true) => ServerRole::CatchAll,
            (false, false) => ServerRole::Site,
            (true, true) => ServerRole::CatchAllTls,
            (true, false) => ServerRole::SiteTls,
        }
    }
}

/// Where a rule writes its settings.
#[derive(Debug)]
pub struct Out<'p> {
    rule: &'static Rule,
    index: u16,
    i: &'p Inputs,
    settings: &'p mut Vec<Setting>,
    omitted: &'p mut Vec<Omitted>,
}

impl Out<'_> {
    fn reason(&self, text: &Text, formula: Option<Formula>) -> Reason {
        debug_assert!(
            self.rule.texts.iter().any(|t| t.id == text.id),
            "rule {} gives reason {} it does not declare",
            self.rule.name,
            text.id
        );
        let known = LOOKUPS[usize::from(self.index)];
        let (default, doc) = (known.default_at(self.i.versions().nginx), known.doc);
        Reason {
            id: text.id,
            why: if text.placeholders {
                let filled = self.rule.texts.iter().position(|t| t.id == text.id);
                match filled.and_then(|at| WHYS[usize::from(self.index)].get(at)) {
                    Some(why) => Cow::Borrowed(why),
                    None => fill_versions(text.en),
                }
            } else {
                Cow::Borrowed(text.en)
            },
            formula: formula.map(Formula::into_string),
            inputs: text.inputs,
            default,
            doc,
        }
    }

    /// Writes the rule's setting with fixed arguments.
    pub fn set(&mut self, scope: Scope, args: &'static [&'static str], text: &Text) {
        self.push(scope, Args::Fixed(args), text, None);
    }

    /// Writes the rule's setting with arguments chosen from fixed words when the plan is made.
    pub fn set_words(&mut self, scope: Scope, args: &[&'static str], text: &Text) {
        let args = args.iter().copied().map(Cow::Borrowed).collect();
        self.set_args(scope, args, text, None);
    }

    /// Writes the rule's setting with computed arguments and, where computed, the formula.
    pub fn set_args(
        &mut self,
        scope: Scope,
        args: Vec<Cow<'static, str>>,
        text: &Text,
        formula: Option<Formula>,
    ) {
        self.push(scope, Args::Computed(args), text, formula);
    }

    fn push(&mut self, scope: Scope, args: Args, text: &Text, formula: Option<Formula>) {
        let reason = self.reason(text, formula);
        self.settings.push(Setting {
            scope,
            name: self.rule.name,
            args,
            reason,
            rule: self.index,
        });
    }

    /// Writes the rule's setting with one computed argument.
    pub fn set_value(
        &mut self,
        scope: Scope,
        value: impl std::fmt::Display,
        text: &Text,
        formula: Option<Formula>,
    ) {
        self.push(scope, Args::One(value.to_string().into()), text, formula);
    }

    /// Leaves the rule's setting at its default, for `text`.
    pub fn omit(&mut self, scope: Scope, text: &Text) {
        let reason = self.reason(text, None);
        self.omitted.push(Omitted {
            name: self.rule.name,
            scope,
            reason,
            rule: self.index,
        });
    }
}

/// Rules of the upstream block whose directive shares its name with another module's (the
/// http core's `keepalive_timeout` and `resolver`): their stock defaults and documentation
/// are the upstream module's, looked up as `upstream NAME`.
static UPSTREAM_NAMESAKES: &[&Rule] = &[
    &proxy::UPSTREAM_KEEPALIVE_TIMEOUT,
    &proxy::UPSTREAM_RESOLVER,
];

/// The name a rule's stock default and documentation link are looked up by.
pub(crate) fn lookup_name(rule: &'static Rule) -> Cow<'static, str> {
    if UPSTREAM_NAMESAKES.iter().any(|r| std::ptr::eq(*r, rule)) {
        Cow::Owned(format!("upstream {}", rule.name))
    } else {
        Cow::Borrowed(rule.name)
    }
}

/// Each rule's stock defaults and documentation link, by its index in [`RULES`].
static LOOKUPS: std::sync::LazyLock<Vec<Lookup>> =
    std::sync::LazyLock::new(|| RULES.iter().map(|r| Lookup::of(&lookup_name(r))).collect());

/// Each rule's reason texts with their version placeholders filled, by rule index and text
/// index: the gates are constants, so each text is filled once, not at every plan.
static WHYS: std::sync::LazyLock<Vec<Vec<String>>> = std::sync::LazyLock::new(|| {
    RULES
        .iter()
        .map(|r| {
            r.texts
                .iter()
                .map(|t| fill_versions(t.en).into_owned())
                .collect()
        })
        .collect()
});

/// Every rule, in output order (within each scope, settings appear in this order).
pub static RULES: &[&Rule] = &[
    &process::USER,
    &process::WORKER_PROCESSES,
    &limits::WORKER_RLIMIT_NOFILE,
    &process::PID,
    &process::ERROR_LOG,
    &process::INCLUDE_MODULES,
    &process::LOAD_MODULE,
    &process::PCRE_JIT,
    &events::WORKER_CONNECTIONS,
    &events::USE,
    &events::MULTI_ACCEPT,
    &events::WORKER_CPU_AFFINITY,
    &events::ACCEPT_MUTEX,
    &http::INCLUDE_MIME,
    &http::DEFAULT_TYPE,
    &http::TYPES_HASH_MAX_SIZE,
    &http::SERVER_TOKENS,
    &http::ABSOLUTE_REDIRECT,
    &http::SERVER_NAMES_HASH_BUCKET_SIZE,
    &files::SENDFILE,
    &files::TCP_NOPUSH,
    &http::TCP_NODELAY,
    &files::AIO,
    &http::KEEPALIVE_TIMEOUT,
    &http::HTTP2_IDLE_TIMEOUT,
    &http::KEEPALIVE_REQUESTS,
    &http::CLIENT_BODY_BUFFER_SIZE,
    &http::LARGE_CLIENT_HEADER_BUFFERS,
    &http::CLIENT_HEADER_BUFFER_SIZE,
    &http::LOG_FORMAT,
    &http::ACCESS_LOG,
    &cache::PROXY_CACHE_PATH,
    &cache::FASTCGI_CACHE_PATH,
    &files::OPEN_FILE_CACHE,
    &files::OPEN_FILE_CACHE_VALID,
    &files::OPEN_FILE_CACHE_MIN_USES,
    &files::OPEN_FILE_CACHE_ERRORS,
    &compression::GZIP,
    &compression::GZIP_COMP_LEVEL,
    &compression::GZIP_MIN_LENGTH,
    &compression::GZIP_TYPES,
    &compression::GZIP_PROXIED,
    &compression::GZIP_VARY,
    &compression::GZIP_STATIC,
    &compression::BROTLI,
    &compression::BROTLI_COMP_LEVEL,
    &compression::BROTLI_TYPES,
    &compression::BROTLI_STATIC,
    &http::SET_REAL_IP_FROM,
    &http::REAL_IP_HEADER,
    &http::REAL_IP_RECURSIVE,
    &ratelimit::LIMIT_REQ_ZONE,
    &ratelimit::LIMIT_REQ_ZONE_PATHS,
    &ratelimit::LIMIT_CONN_ZONE,
    &ratelimit::LIMIT_REQ_STATUS,
    &ratelimit::LIMIT_CONN_STATUS,
    &ratelimit::CLIENT_HEADER_TIMEOUT,
    &ratelimit::CLIENT_BODY_TIMEOUT,
    &ratelimit::SEND_TIMEOUT,
    &tls::SSL_PROTOCOLS,
    &tls::SSL_CIPHERS,
    &tls::SSL_PREFER_SERVER_CIPHERS,
    &tls::SSL_ECDH_CURVE,
    &tls::SSL_SESSION_CACHE,
    &tls::SSL_SESSION_TIMEOUT,
    &tls::SSL_SESSION_TICKETS,
    &tls::SSL_BUFFER_SIZE,
    &tls::SSL_CONF_COMMAND,
    &http::INCLUDE_SITES,
    &http::INCLUDE_SITES_ENABLED,
    &site::TYPES,
    &headers::FRAME_OPTIONS_MAP,
    &site::PAGE_EXPIRES_MAP,
    &site::PAGE_BY_URI_MAP,
    &proxy::UPGRADE_MAP,
    &proxy::CLIENT_PORT_MAP,
    &proxy::FORWARDED_FOR_MAP,
    &proxy::FORWARDED_SCHEME_MAP,
    &php::FORWARDED_HTTPS_MAP,
    &cache::BYPASS_MAP,
    &ratelimit::LIMIT_CLIENT_MAP,
    &ratelimit::LIMIT_PATH_MAP,
    &proxy::UPSTREAM_ZONE,
    &proxy::UPSTREAM_SERVER,
    &proxy::UPSTREAM_RESOLVER,
    &proxy::KEEPALIVE,
    &proxy::UPSTREAM_KEEPALIVE_TIMEOUT,
    &listen::LISTEN_CATCH_ALL,
    &listen::RETURN_CATCH_ALL,
    &listen::LISTEN_CATCH_ALL_TLS,
    &listen::LISTEN_QUIC_CATCH_ALL,
    &tls::SSL_REJECT_HANDSHAKE,
    &listen::RETURN_MISDIRECTED,
    &tls::SSL_CERTIFICATE_CATCH_ALL,
    &tls::SSL_CERTIFICATE_KEY_CATCH_ALL,
    &listen::RETURN_CATCH_ALL_TLS,
    &headers::HSTS_CATCH_ALL,
    &listen::HEALTH_RETURN,
    &listen::HEALTH_TYPE,
    &listen::HEALTH_LOG,
    &listen::LISTEN_SITE,
    &site::SERVER_NAME,
    &site::ACME_ROOT,
    &site::RETURN_HTTPS,
    &listen::LISTEN_SITE_TLS,
    &listen::LISTEN_QUIC_SITE,
    &site::HTTP3,
    &site::HTTP2,
    &site::SERVER_NAME_TLS,
    &listen::LISTEN_ALIAS,
    &site::SERVER_NAME_ALIAS,
    &site::HTTP2_ALIAS,
    &tls::SSL_CERTIFICATE,
    &tls::SSL_CERTIFICATE_KEY,
    &tls::SSL_STAPLING,
    &tls::SSL_STAPLING_VERIFY,
    &tls::SSL_TRUSTED_CERTIFICATE,
    &tls::RESOLVER,
    &ratelimit::LIMIT_REQ,
    &ratelimit::LIMIT_REQ_PATHS,
    &ratelimit::LIMIT_CONN,
    &headers::HSTS,
    &site::RETURN_ALIAS,
    &headers::ALT_SVC,
    &headers::APP_HEADERS,
    &headers::NOSNIFF,
    &headers::FRAME_OPTIONS,
    &headers::REFERRER_POLICY,
    &cache::CACHE_STATUS,
    &site::CLIENT_MAX_BODY_SIZE,
    &site::HIDDEN,
    &site::ROOT,
    &site::CHARSET,
    &site::CHARSET_TYPES,
    &site::INDEX,
    &site::TRY_FILES,
    &site::EXPIRES,
    &site::ACCESS_LOG_ASSETS,
    &site::ASSET_FALLBACK,
    &site::GZIP_STATIC_MEDIA,
    &site::BROTLI_STATIC_MEDIA,
    &proxy::PROXY_PASS,
    &proxy::PROXY_HTTP_VERSION,
    &proxy::UPGRADE,
    &proxy::CONNECTION,
    &proxy::HOST,
    &proxy::REAL_IP,
    &proxy::FORWARDED_FOR,
    &proxy::FORWARDED_PROTO,
    &proxy::PROXY_BUFFER_SIZE,
    &proxy::PROXY_BUFFERS,
    &proxy::PROXY_BUSY_BUFFERS_SIZE,
    &proxy::PROXY_CONNECT_TIMEOUT,
    &proxy::PROXY_READ_TIMEOUT,
    &cache::PROXY_CACHE,
    &cache::PROXY_CACHE_KEY,
    &cache::PROXY_CACHE_VALID,
    &cache::PROXY_CACHE_LOCK,
    &cache::PROXY_CACHE_USE_STALE,
    &cache::PROXY_CACHE_BACKGROUND_UPDATE,
    &cache::PROXY_CACHE_BYPASS,
    &cache::PROXY_NO_CACHE,
    &php::SPLIT_PATH_INFO,
    &php::PATH_INFO,
    &php::SCRIPT_EXISTS,
    &php::FASTCGI_PASS,
    &php::INCLUDE_PARAMS,
    &php::SCRIPT_FILENAME,
    &php::FORWARDED_SCHEME,
    &php::FASTCGI_BUFFER_SIZE,
    &php::FASTCGI_BUFFERS,
    &php::FASTCGI_BUSY_BUFFERS_SIZE,
    &cache::FASTCGI_CACHE,
    &cache::FASTCGI_CACHE_KEY,
    &cache::FASTCGI_CACHE_VALID,
    &cache::FASTCGI_IGNORE_HEADERS,
    &cache::FASTCGI_CACHE_LOCK,
    &cache::FASTCGI_CACHE_USE_STALE,
    &cache::FASTCGI_CACHE_BACKGROUND_UPDATE,
    &cache::FASTCGI_CACHE_BYPASS,
    &cache::FASTCGI_NO_CACHE,
    &site::OWN_ADDITIONS,
    &site::STATUS_LISTEN,
    &site::STUB_STATUS,
    &site::STATUS_ALLOW,
    &site::STATUS_DENY,
    &site::STATUS_LOG,
    &kernel::SOMAXCONN,
    &kernel::TCP_MAX_SYN_BACKLOG,
    &kernel::TCP_FASTOPEN,
    &kernel::IP_LOCAL_PORT_RANGE,
    &kernel::IP_LOCAL_RESERVED_PORTS,
    &kernel::TCP_TW_REUSE,
    &kernel::FILE_MAX,
    &kernel::RMEM_MAX,
    &kernel::WMEM_MAX,
    &kernel::NETDEV_MAX_BACKLOG,
    &limits::LIMIT_NOFILE,
    &php::PM,
    &php::PM_MAX_CHILDREN,
    &php::PM_START_SERVERS,
    &php::PM_MIN_SPARE_SERVERS,
    &php::PM_MAX_SPARE_SERVERS,
    &php::PM_MAX_REQUESTS,
    &php::REQUEST_TERMINATE_TIMEOUT,
    &php::POST_MAX_SIZE,
    &php::UPLOAD_MAX_FILESIZE,
    &php::LIMIT_EXTENSIONS,
];

/// Evaluates every rule for `ctx`: the settings written and those left out, in order.
pub fn run(ctx: &Ctx) -> (Vec<Setting>, Vec<Omitted>) {
    let mut settings = Vec::with_capacity(128);
    let mut omitted = Vec::with_capacity(24);
    for (index, rule) in RULES.iter().enumerate() {
        let mut out = Out {
            rule,
            index: index as u16,
            i: ctx.i,
            settings: &mut settings,
            omitted: &mut omitted,
        };
        match rule.decide {
            Decide::Fixed { scope, args } => out.set(scope, args, &rule.texts[0]),
            Decide::When { when, scope, args } => {
                if when(ctx) {
                    out.set(scope, args, &rule.texts[0]);
                }
            }
            Decide::Omit { when, scope } => {
                if when(ctx) {
                    out.omit(scope, &rule.texts[0]);
                }
            }
            Decide::Code(decide) => decide(ctx, &mut out),
        }
    }
    (settings, omitted)
}

/// Every reason text of the registry, each id once (rules that share a reason carry
/// identical copies; a test checks that).
pub fn texts() -> impl Iterator<Item = &'static Text> {
    let mut seen = std::collections::BTreeSet::new();
    RULES
        .iter()
        .flat_map(|r| r.texts.iter())
        .chain(warnings::TEXTS.iter())
        .filter(move |t| seen.insert(t.id))
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the rule tests beside each rule.

    use crate::inputs::Inputs;
    use crate::plan::{LocationRole, Plan, Scope, ServerRole};

    /// The plain-HTTP catch-all server.
    pub(crate) const CATCH_ALL: Scope = Scope::Server {
        server: ServerRole::CatchAll,
    };

    /// A location of a server.
    pub(crate) fn at(server: ServerRole, location: LocationRole) -> Scope {
        Scope::Location { server, location }
    }

    /// The plan for a JSON input document (`--no-detect` semantics: only what is given).
    pub(crate) fn plan(json: &str) -> Plan {
        Plan::new(&Inputs::from_json(json).expect("valid test input"))
    }

    /// The values of every setting called `name`, in order.
    pub(crate) fn values(plan: &Plan, name: &str) -> Vec<String> {
        plan.settings
            .iter()
            .filter(|s| s.name == name)
            .map(crate::plan::Setting::value)
            .collect()
    }

    /// The single value of `name`, if written once.
    pub(crate) fn value(plan: &Plan, name: &str) -> Option<String> {
        let all = values(plan, name);
        assert!(
            all.len() <= 1,
            "{name} written {} times: {all:?}",
            all.len()
        );
        all.into_iter().next()
    }

    /// The values of `name` in `scope`.
    pub(crate) fn values_in(plan: &Plan, scope: Scope, name: &str) -> Vec<String> {
        plan.in_scope(scope)
            .filter(|s| s.name == name)
            .map(crate::plan::Setting::value)
            .collect()
    }

    /// Whether `name` is left at its default on purpose.
    pub(crate) fn omitted(plan: &Plan, name: &str) -> bool {
        plan.omitted.iter().any(|o| o.name == name)
    }

    /// The formula of the first setting called `name`.
    pub(crate) fn formula(plan: &Plan, name: &str) -> String {
        plan.get(name)
            .and_then(|s| s.reason.formula.clone())
            .unwrap_or_else(|| panic!("{name} has no formula"))
    }
}

#[cfg(test)]
mod tests;
