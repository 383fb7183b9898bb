//! # nginx-gen for JavaScript
//!
//! Thin wasm-bindgen bindings over [`nginx_gen_core`]: every function reads the same JSON
//! input document as the CLI's `--input`, and `generate` returns the same document as the
//! CLI's `--format json` (plus the files). Values cross the boundary as JSON text, written
//! by core's JSON writer exactly as the CLI writes them and read by the engine's
//! `JSON.parse`, so the objects are identical to what the CLI prints.
//!
//! Invalid input never panics: it throws a JS `Error` whose `field`, `accepted` and `errors`
//! properties come from core's [`InputErrors`].
//!
//! TypeScript: the `.d.ts` that wasm-pack writes is generated. Core's serde types derive
//! `tsify::Tsify` under its `ts` feature; the few types defined here derive it too, and the
//! functions name those types with `unchecked_*_type`. Where the bindings live and why:
//! docs/wasm.md.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::inputs::Msg;
use nginx_gen_core::json::write::{ToJson, Writer, to_string_pretty};
use nginx_gen_core::render::{self, File, Format, InstallSteps, JsonPlan, SCHEMA_VERSION};
use nginx_gen_core::{
    InputError, InputErrors, Inputs, Lang, Layout, Plan, RawInputs, TlsProfile, Workload,
};
use serde::Serialize;
use serde::ser::SerializeMap;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// The allocator: talc instead of the standard library's dlmalloc (docs/wasm.md, "Size").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// What `generate()` returns: the CLI's `--format json` document with the files added.
/// (Describes the result for TypeScript; `generate` builds it from core's own JSON text.)
#[derive(Debug, Serialize, Tsify)]
pub struct Generated<'a> {
    /// The document the CLI prints with `--format json` (same fields, same values).
    #[serde(flatten)]
    pub document: JsonPlan<'a>,
    /// Path → contents of every file, in the order the CLI writes them.
    #[tsify(type = "Record<string, string>")]
    pub files: Files,
}

/// The files of a plan as one JSON object (path → contents), in render order.
#[derive(Debug)]
pub struct Files(pub Vec<File>);

impl Serialize for Files {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for f in &self.0 {
            map.serialize_entry(&f.path, &f.contents)?;
        }
        map.end()
    }
}

impl ToJson for Files {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            for f in &self.0 {
                w.field(&f.path, &f.contents);
            }
        });
    }
}

/// The properties of the `Error` thrown for invalid input (besides `message` and `name`).
#[derive(Debug, Serialize, Tsify)]
pub struct InputFailure {
    /// Field of the first problem (`ram`, `server_names`, …; `input` for a document that
    /// is not a JSON object, `format` or `directive` for the other arguments).
    pub field: String,
    /// What would be accepted for that field.
    pub accepted: String,
    /// Every problem found, each naming its field.
    pub errors: Vec<InputError>,
}

/// The accepted names of every closed choice, for building forms.
#[derive(Debug, Serialize, Tsify)]
pub struct Choices {
    /// `workload` values.
    pub workload: &'static [&'static str],
    /// `layout` values.
    pub layout: &'static [&'static str],
    /// `tls_profile` values.
    pub tls_profile: &'static [&'static str],
    /// `lang` values.
    pub lang: &'static [&'static str],
    /// `render()` formats (the CLI's `--format`).
    pub format: &'static [&'static str],
}

impl ToJson for InputFailure {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("field", &self.field);
            w.field("accepted", &self.accepted);
            w.field("errors", &self.errors);
        });
    }
}

impl ToJson for Choices {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            w.field("workload", self.workload);
            w.field("layout", self.layout);
            w.field("tls_profile", self.tls_profile);
            w.field("lang", self.lang);
            w.field("format", self.format);
        });
    }
}

/// Writes with core's JSON writer (as the CLI's `--format json`) and parses the text in
/// JS. (Not `serde_json`: its serializer was 3 KB of the module; the serde derives stay for
/// the TypeScript types.)
fn to_js<T: ToJson + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&to_string_pretty(value))
}

/// The JS `Error` for invalid input: message lists every problem; properties name them.
fn input_error(errors: &InputErrors) -> JsValue {
    let err = js_sys::Error::new(&format!("nginx-gen: invalid input\n{errors}"));
    err.set_name("InputError");
    let first = errors.0.first();
    let failure = InputFailure {
        field: first.map_or_else(|| "input".to_owned(), |e| e.field.clone()),
        accepted: first.map(|e| e.accepted.clone()).unwrap_or_default(),
        errors: errors.0.clone(),
    };
    if let Ok(props) = to_js(&failure) {
        js_sys::Object::assign(err.as_ref(), props.unchecked_ref());
    }
    err.into()
}

fn one_error(field: &str, message: String, accepted: String) -> JsValue {
    input_error(&InputErrors(vec![InputError::new(
        field,
        Msg::Verbatim(message),
        Msg::Verbatim(accepted),
    )]))
}

/// Reads the inputs argument: a `RawInputs` object, its JSON text, or nothing (defaults).
fn raw_inputs(inputs: &JsValue) -> Result<RawInputs, JsValue> {
    if inputs.is_undefined() || inputs.is_null() {
        return Ok(RawInputs::default());
    }
    let text = match inputs.as_string() {
        Some(text) => text,
        None if inputs.is_object() && !js_sys::Array::is_array(inputs) => {
            js_sys::JSON::stringify(inputs)
                .map(String::from)
                .map_err(|_| {
                    one_error(
                        "input",
                        "cannot be written as JSON".into(),
                        accepted_document(),
                    )
                })?
        }
        None => {
            return Err(one_error(
                "input",
                "is not an object".into(),
                accepted_document(),
            ));
        }
    };
    RawInputs::from_json(&text).map_err(|e| input_error(&e))
}

fn accepted_document() -> String {
    "an object (or its JSON text) with the fields listed in docs/inputs.md".to_owned()
}

thread_local! {
    /// The catalogues handed to [`set_catalogue`]; English is built in.
    static CATALOGUES: RefCell<Vec<Rc<Catalogue>>> = const { RefCell::new(Vec::new()) };
}

/// The catalogue of `lang`: English, or one handed to `setCatalogue`.
fn catalogue(lang: Lang) -> Option<Rc<Catalogue>> {
    if lang == Lang::En {
        return Some(Rc::new(Catalogue::default()));
    }
    CATALOGUES.with(|c| c.borrow().iter().find(|c| c.lang == lang).cloned())
}

/// The catalogue for a plan's language; asking for a language whose catalogue was not
/// handed over is an error rather than silently English.
fn catalogue_of(plan: &Plan) -> Result<Rc<Catalogue>, JsValue> {
    let lang = plan.inputs.lang;
    catalogue(lang).ok_or_else(|| {
        one_error(
            "lang",
            format!("no catalogue for '{lang}' was loaded"),
            format!(
                "en, or a language whose catalogue (the package's i18n/{lang}.json) was passed to setCatalogue()"
            ),
        )
    })
}

/// Hands the module the translations of one language: the text of a catalogue file
/// (`i18n/<lang>.json` in the package). Returns the language's name. Afterwards every
/// function renders in that language when the inputs ask for it.
#[wasm_bindgen(js_name = setCatalogue)]
pub fn set_catalogue(json: &str) -> Result<String, JsValue> {
    let cat = Catalogue::from_json(json).map_err(|e| {
        one_error(
            "catalogue",
            e.to_string(),
            "the text of a catalogue file, i18n/<lang>.json".to_owned(),
        )
    })?;
    let lang = cat.lang;
    CATALOGUES.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|old| old.lang != lang);
        c.push(Rc::new(cat));
    });
    Ok(lang.to_string())
}

/// What [`set_install_steps`] takes.
const STEPS_FILE: &str = "the text of this package's script/install-steps.sh";

thread_local! {
    /// The install script's functions handed to [`set_install_steps`].
    static STEPS: Cell<Option<InstallSteps<'static>>> = const { Cell::new(None) };
}

/// Hands the module the install script's functions: the text of the package's
/// `script/install-steps.sh` (the same for every plan, so it is not compiled in: 3.2 KB of
/// the module that only `render(…, "script")` needs). It must be this version's file.
#[wasm_bindgen(js_name = setInstallSteps)]
pub fn set_install_steps(text: String) -> Result<(), JsValue> {
    if STEPS.get().is_none() {
        let text: &'static str = text.leak();
        let steps = InstallSteps::check(text)
            .map_err(|e| one_error("steps", e.into(), STEPS_FILE.into()))?;
        STEPS.set(Some(steps));
    }
    Ok(())
}

fn plan_of(raw: &RawInputs) -> Result<Plan, JsValue> {
    Inputs::from_raw(raw).map(|i| Plan::new(&i)).map_err(|e| {
        // The messages in the inputs' language when its catalogue is at hand.
        let lang = raw.lang.as_deref().and_then(|l| l.parse().ok());
        match lang.and_then(catalogue) {
            Some(cat) => input_error(&e.localized(&cat)),
            None => input_error(&e),
        }
    })
}

/// Every file, the plan, capacity and warnings for `inputs` (the CLI's `--format json`
/// document plus `files`). Without `vcpu`/`ram` the defaults (4 vCPU, 8G) are used, as
/// with the CLI's `--no-detect`. `today` (`YYYY-MM-DD`, optional: the module reads no
/// clock) adds the warnings that depend on the date, such as stale CDN ranges.
#[wasm_bindgen(unchecked_return_type = "Generated")]
pub fn generate(
    #[wasm_bindgen(unchecked_param_type = "RawInputs | string")] inputs: &JsValue,
    today: Option<String>,
) -> Result<JsValue, JsValue> {
    let mut plan = plan_of(&raw_inputs(inputs)?)?;
    if let Some(date) = today {
        let days = nginx_gen_core::policy::cdn::days(&date).ok_or_else(|| {
            one_error(
                "today",
                format!("'{date}' is not a date"),
                "YYYY-MM-DD".into(),
            )
        })?;
        plan.check_date(days);
    }
    let cat = catalogue_of(&plan)?;
    // The very text `nginx-gen --format json` prints, parsed by JS, plus the files.
    let document = js_sys::JSON::parse(&render::json_in(&plan, &cat))?;
    js_sys::Reflect::set(
        &document,
        &"files".into(),
        &to_js(&Files(render::files_in(&plan, &cat)))?,
    )?;
    Ok(document)
}

/// One output as text, exactly as the CLI prints it with `--format FORMAT`.
#[wasm_bindgen]
pub fn render(
    #[wasm_bindgen(unchecked_param_type = "RawInputs | string")] inputs: &JsValue,
    format: &str,
) -> Result<String, JsValue> {
    let format: Format = format.parse().map_err(|()| {
        one_error(
            "format",
            format!("'{format}' is not a format"),
            format!("one of {}", Format::NAMES.join(", ")),
        )
    })?;
    let plan = plan_of(&raw_inputs(inputs)?)?;
    render::render_with(&plan, format, &*catalogue_of(&plan)?, STEPS.get()).ok_or_else(|| {
        one_error(
            "format",
            "'script' needs setInstallSteps() first".into(),
            STEPS_FILE.into(),
        )
    })
}

/// The capacity summary and warnings the CLI prints after the files.
#[wasm_bindgen]
pub fn summary(
    #[wasm_bindgen(unchecked_param_type = "RawInputs | string")] inputs: &JsValue,
) -> Result<String, JsValue> {
    let plan = plan_of(&raw_inputs(inputs)?)?;
    Ok(render::summary_in(&plan, &*catalogue_of(&plan)?))
}

/// What nginx-gen says about one directive, sysctl or limit, as `nginx-gen explain NAME`
/// prints it. `lang` (optional) overrides the inputs' language; `inputs` (optional)
/// describes the machine, the defaults otherwise.
#[wasm_bindgen]
pub fn explain(
    directive: &str,
    lang: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "RawInputs | string | undefined")] inputs: &JsValue,
) -> Result<String, JsValue> {
    let mut raw = raw_inputs(inputs)?;
    if lang.is_some() {
        raw.lang = lang;
    }
    let plan = plan_of(&raw)?;
    render::explain_directive_in(&plan, directive, &*catalogue_of(&plan)?).ok_or_else(|| {
        one_error(
            "directive",
            format!("nginx-gen writes no '{directive}' for these inputs"),
            format!("one of {}", render::known_names(&plan).join(", ")),
        )
    })
}

/// The default inputs as a complete document (4 vCPU, 8G, static).
#[wasm_bindgen(unchecked_return_type = "RawInputs")]
pub fn defaults() -> Result<JsValue, JsValue> {
    to_js(&Inputs::default().to_raw())
}

/// The accepted names of every closed choice (`workload`, `layout`, `tls_profile`, `lang`, `format`).
#[wasm_bindgen(unchecked_return_type = "Choices")]
pub fn choices() -> Result<JsValue, JsValue> {
    to_js(&Choices {
        workload: Workload::NAMES,
        layout: Layout::NAMES,
        tls_profile: TlsProfile::NAMES,
        lang: Lang::NAMES,
        format: Format::NAMES,
    })
}

/// The JSON schema of the inputs document (draft 2020-12), built from core's input
/// registry: the same document as `nginx-gen schema`.
#[wasm_bindgen(js_name = inputSchema, unchecked_return_type = "Record<string, unknown>")]
pub fn input_schema() -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&nginx_gen_core::inputs::json_schema())
}

/// Version of the JSON document's layout (`schema_version` in `generate()`'s result).
#[wasm_bindgen(js_name = schemaVersion)]
pub fn schema_version() -> u32 {
    SCHEMA_VERSION
}

/// nginx-gen's version (the `generator` field).
#[wasm_bindgen]
pub fn version() -> String {
    nginx_gen_core::VERSION.to_owned()
}

/// Version of the tuning rules (the `policy_version` field).
#[wasm_bindgen(js_name = policyVersion)]
pub fn policy_version() -> String {
    nginx_gen_core::POLICY_VERSION.to_owned()
}

#[cfg(test)]
mod tests {
    use nginx_gen_core::inputs::{INPUTS, Kind};

    const WIDGET: &str = include_str!("../../docs/widget/src/nginx-gen-widget.js");

    /// The quoted names of the JS array or set declared as `const NAME = ...;`.
    fn js_names(name: &str) -> Vec<&'static str> {
        let start = WIDGET
            .find(&format!("const {name} = "))
            .unwrap_or_else(|| panic!("the widget declares no {name}"));
        let body = &WIDGET[start..];
        let body = &body[..body.find(';').expect("the declaration ends")];
        body.split('\'').skip(1).step_by(2).collect()
    }

    /// The widget's attribute list (docs/widget/src/nginx-gen-widget.js) is checked against
    /// the input registry: every input, lists and switches read as such.
    #[test]
    fn the_widget_knows_every_input() {
        let names: Vec<&str> = INPUTS.iter().map(|i| i.name).collect();
        assert_eq!(js_names("INPUTS"), names, "the widget's INPUTS");
        let lists: Vec<&str> = INPUTS
            .iter()
            .filter(|i| matches!(i.kind, Kind::List { .. }))
            .map(|i| i.name)
            .collect();
        assert_eq!(js_names("LISTS"), lists, "the widget's LISTS");
        let switches: Vec<&str> = INPUTS
            .iter()
            .filter(|i| i.kind == Kind::Bool)
            .map(|i| i.name)
            .collect();
        assert_eq!(js_names("FLAGS"), switches, "the widget's FLAGS");
    }
}
