//! The whole plan as one JSON document (schema in docs/inputs.md).

use serde::Serialize;

use std::borrow::Cow;

use crate::i18n::Catalogue;
use crate::inputs::{RawInputs, Scalar};
use crate::json::write::{ToJson, Writer, to_string_pretty};
use crate::plan::{
    Capacity, Limit, LocationRole, Omitted, Plan, Reason, Scope, ServerRole, TableRole, Warning,
};
use crate::render::path_of;
use crate::{POLICY_VERSION, VERSION};

/// Version of the JSON document's layout; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

/// One setting in the JSON document: where it goes, what it is and why.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct JsonSetting<'a> {
    /// The file it is written to.
    pub file: String,
    /// Where in that file.
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", tsify(type = "Scope"))] // a union: intersect, not `extends`
    pub scope: Scope,
    /// Directive, sysctl or systemd setting.
    pub name: &'a str,
    /// The value as written.
    pub value: String,
    /// The reason.
    #[serde(flatten)]
    pub setting: Reason,
}

/// The JSON document.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct JsonPlan<'a> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// nginx-gen's version.
    pub generator: &'static str,
    /// Tuning policy version.
    pub policy_version: &'static str,
    /// The command that reproduces this document.
    pub command: String,
    /// Every input, defaults filled in (valid input for `--input`).
    pub inputs: RawInputs,
    /// The capacity estimate.
    pub capacity: Capacity,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// Every setting written.
    pub settings: Vec<JsonSetting<'a>>,
    /// Settings left at their defaults on purpose.
    pub omitted: Vec<Omitted>,
    /// Command that precompresses the site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precompress: Option<&'a str>,
}

/// `reason` with its explanation in the catalogue's language.
fn reason_in(reason: &Reason, cat: &Catalogue) -> Reason {
    let mut translated = reason.clone();
    if cat.lookup(reason.id).is_some() {
        translated.why = Cow::Owned(cat.why(reason).into_owned());
    }
    translated
}

impl<'a> JsonPlan<'a> {
    /// The document for `plan`, in English.
    pub fn new(plan: &'a Plan) -> Self {
        Self::new_in(plan, Catalogue::english())
    }

    /// The document for `plan`, its human texts in the catalogue's language.
    pub fn new_in(plan: &'a Plan, cat: &Catalogue) -> Self {
        Self {
            schema_version: SCHEMA_VERSION,
            generator: VERSION,
            policy_version: POLICY_VERSION,
            command: plan.command.clone(),
            inputs: {
                // Every input and the policy, so the document reproduces this output.
                let mut raw = plan.inputs.to_raw();
                raw.policy.get_or_insert_with(|| POLICY_VERSION.to_owned());
                raw
            },
            capacity: plan.capacity,
            warnings: plan
                .warnings
                .iter()
                .map(|w| Warning {
                    message: super::warning_message(w, cat).into_owned(),
                    ..w.clone()
                })
                .collect(),
            settings: plan
                .settings
                .iter()
                .map(|s| JsonSetting {
                    file: path_of(plan, s.scope.file()),
                    scope: s.scope,
                    name: s.name,
                    value: s.value(),
                    setting: reason_in(&s.reason, cat),
                })
                .collect(),
            omitted: plan
                .omitted
                .iter()
                .map(|o| Omitted {
                    reason: reason_in(&o.reason, cat),
                    ..o.clone()
                })
                .collect(),
            precompress: plan.precompress.as_deref(),
        }
    }
}

/// Renders the plan as pretty-printed JSON, in English.
pub fn json(plan: &Plan) -> String {
    json_in(plan, Catalogue::english())
}

/// Renders the plan as pretty-printed JSON, its human texts (reasons, warnings) in the
/// catalogue's language.
///
/// # Panics
/// Never: the document holds only strings, numbers and booleans.
pub fn json_in(plan: &Plan, cat: &Catalogue) -> String {
    let mut s = to_string_pretty(&JsonPlan::new_in(plan, cat));
    s.push('\n');
    s
}

// The document as `crate::json::write` writes it: the same members in the same order as
// the serde derives above (the tests compare the two on generated plans).

impl ToJson for JsonPlan<'_> {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("schema_version", &self.schema_version);
            w.field("generator", self.generator);
            w.field("policy_version", self.policy_version);
            w.field("command", &self.command);
            w.field("inputs", &self.inputs);
            w.field("capacity", &self.capacity);
            w.field("warnings", &self.warnings);
            w.field("settings", &self.settings);
            w.field("omitted", &self.omitted);
            w.field_some("precompress", self.precompress.as_ref());
        });
    }
}

impl ToJson for JsonSetting<'_> {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("file", &self.file);
            scope_fields(w, self.scope);
            w.field("name", self.name);
            w.field("value", &self.value);
            reason_fields(w, &self.setting);
        });
    }
}

/// A scope's members: its `context` and the roles that place it.
fn scope_fields(w: &mut Writer, scope: Scope) {
    let context = match scope {
        Scope::Main => "main",
        Scope::Events => "events",
        Scope::Http => "http",
        Scope::Table { .. } => "table",
        Scope::Upstream => "upstream",
        Scope::Server { .. } => "server",
        Scope::Location { .. } => "location",
        Scope::Sysctl => "sysctl",
        Scope::Systemd => "systemd",
        Scope::PhpPool => "php_pool",
    };
    w.field("context", context);
    match scope {
        Scope::Table { table } => w.field("table", &table),
        Scope::Server { server } => w.field("server", &server),
        Scope::Location { server, location } => {
            w.field("server", &server);
            w.field("location", &location);
        }
        _ => {}
    }
}

fn reason_fields(w: &mut Writer, r: &Reason) {
    w.field("id", r.id);
    w.field("why", &*r.why);
    w.field_some("formula", r.formula.as_ref());
    w.field("inputs", r.inputs);
    w.field_some("default", r.default.as_ref());
    w.field("doc", r.doc);
}

impl ToJson for Reason {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| reason_fields(w, self));
    }
}

impl ToJson for Omitted {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("name", self.name);
            w.field("reason", &self.reason);
        });
    }
}

impl ToJson for Warning {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("id", self.id);
            w.field_some("field", self.field.as_ref());
            w.field("message", &self.message);
        });
    }
}

impl ToJson for Capacity {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("clients", &self.clients);
            w.field("limited_by", &self.limited_by);
            w.field("memory_clients", &self.memory_clients);
            w.field("client_bytes", &self.client_bytes);
            w.field("idle_bytes", &self.idle_bytes);
            w.field("active_clients", &self.active_clients);
            w.field("idle_memory", &self.idle_memory);
            w.field("peak_memory", &self.peak_memory);
            w.field("connection_slots", &self.connection_slots);
        });
    }
}

/// Unit enums written as their `snake_case` names.
macro_rules! names {
    ($($ty:ident { $($variant:ident => $name:literal),* $(,)? })*) => {$(
        impl ToJson for $ty {
            fn write_json(&self, w: &mut Writer) {
                w.string(match self { $($ty::$variant => $name),* });
            }
        }
    )*};
}
names! {
    Limit { Cpu => "cpu", Given => "given", Memory => "memory", Slots => "slots" }
    ServerRole {
        CatchAll => "catch_all", CatchAllTls => "catch_all_tls", Site => "site",
        SiteTls => "site_tls", Alias => "alias", Status => "status",
    }
    LocationRole {
        Acme => "acme", Health => "health", Hidden => "hidden", HiddenPhp => "hidden_php", Repository => "repository", Root => "root",
        Assets => "assets", Media => "media", Php => "php", App => "app",
    }
    TableRole {
        Types => "types", FrameOptions => "frame_options", PageExpires => "page_expires",
        PageByUri => "page_by_uri", ConnectionUpgrade => "connection_upgrade",
        ForwardedFor => "forwarded_for", ForwardedScheme => "forwarded_scheme",
        ForwardedHttps => "forwarded_https",
        CacheBypass => "cache_bypass", ClientPort => "client_port",
        LimitClient => "limit_client", LimitPath => "limit_path",
    }
}

impl ToJson for crate::inputs::InputError {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("field", &self.field);
            w.field("message", &self.message);
            w.field("accepted", &self.accepted);
        });
    }
}

impl ToJson for Scalar {
    fn write_json(&self, w: &mut Writer) {
        match self {
            Self::Int(n) => n.write_json(w),
            Self::Text(s) => w.string(s),
        }
    }
}

impl ToJson for RawInputs {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| self.write_fields(w));
    }
}
