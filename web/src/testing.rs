//! What the unit tests of several modules build their cases from.

use nginx_gen_core::{Inputs, Plan};

/// The inputs of a JSON document that must be valid.
pub fn inputs(json: &str) -> Inputs {
    Inputs::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The plan of a JSON document that must be valid.
pub fn plan(json: &str) -> Plan {
    Plan::new(&inputs(json))
}

/// The plan the page shows for a JSON document of the form's fields: a document without a
/// release gets the page's default one (the share link's rule).
pub fn page_plan(json: &str) -> Plan {
    let mut doc = json.trim().trim_end_matches('}').trim_end().to_owned();
    if !json.contains("\"release\"") {
        let sep = if doc.ends_with('{') { "" } else { ", " };
        let release = nginx_gen_core::policy::SUGGESTED.to_string();
        doc.extend([sep, "\"release\": \"", &release, "\""]);
    }
    doc.push('}');
    plan(&doc)
}
