//! The whole plan as one JSON document (schema in docs/inputs.md).

use serde::Serialize;

use std::borrow::Cow;

use crate::i18n::Catalogue;
use crate::inputs::RawInputs;
use crate::plan::{Capacity, Omitted, Plan, Reason, Scope, Warning};
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
    let doc = JsonPlan::new_in(plan, cat);
    // Not `expect`: formatting serde_json's error would bring its messages into the
    // browser builds for a case that cannot happen.
    let Ok(mut s) = serde_json::to_string_pretty(&doc) else {
        unreachable!("the plan document holds only strings, numbers and booleans")
    };
    s.push('\n');
    s
}
