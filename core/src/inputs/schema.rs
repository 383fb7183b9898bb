//! The JSON schema of the input document, built from the registry.

use serde_json::{Map, Value, json};

use super::spec::{DefaultValue, Input, Kind};
use super::{INPUTS, limits};

/// The JSON schema (draft 2020-12) of the input document that `--input`, the wasm module
/// and the share URL read: one property per input, with its type, range and default.
pub fn json_schema() -> Value {
    let properties: Map<String, Value> = INPUTS
        .iter()
        .map(|input| (input.name.to_owned(), property(input)))
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "nginx-gen inputs",
        "description": "What nginx-gen tunes for. Every field is optional; a missing field takes its default.",
        "type": "object",
        "additionalProperties": false,
        "properties": properties,
    })
}

/// The words of the schema's `description`: what it is, what is accepted, the rule
/// involving other inputs.
fn description(input: &Input) -> String {
    let mut text = format!("{}. Accepted: {}", input.help, input.kind.accepted());
    if !input.note.is_empty() {
        text.push_str("; ");
        text.push_str(input.note);
    }
    text.push('.');
    if let DefaultValue::Unset(what) = input.default {
        text.push_str(" Default: ");
        text.push_str(what);
        text.push('.');
    }
    text
}

fn property(input: &Input) -> Value {
    let mut p = match input.kind {
        Kind::Int { min, max } => json!({
            "type": ["integer", "string"],
            "minimum": min,
            "maximum": max,
            "pattern": r"^\s*[+-]?[0-9]+\s*$",
        }),
        Kind::Choice(names) => json!({ "type": "string", "enum": names }),
        Kind::Bool => json!({ "type": "boolean" }),
        Kind::Path => json!({
            "type": "string",
            "maxLength": 1024,
            "pattern": "^/[A-Za-z0-9/._+@%,:=~-]*$",
        }),
        Kind::Size { .. } | Kind::Version { .. } | Kind::Text { .. } => {
            json!({ "type": "string" })
        }
        Kind::List { .. } => json!({
            "type": "array",
            "items": { "type": "string" },
            "minItems": 1,
            "maxItems": limits::LIST_MAX,
            "uniqueItems": true,
        }),
    };
    p["description"] = Value::String(description(input));
    match input.default {
        DefaultValue::Value(text) => {
            p["default"] = match input.kind {
                Kind::Int { .. } => text
                    .parse::<u64>()
                    .map_or_else(|_| json!(text), |n| json!(n)),
                Kind::Bool => json!(text == "true"),
                _ => json!(text),
            };
        }
        DefaultValue::List(items) => p["default"] = json!(items),
        DefaultValue::Unset(_) => {}
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_is_a_property_and_nothing_else_is_allowed() {
        let schema = json_schema();
        let props = schema["properties"].as_object().unwrap();
        assert_eq!(props.len(), INPUTS.len());
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(props["vcpu"]["maximum"], json!(1024));
        assert_eq!(
            props["workload"]["enum"],
            json!(["static", "proxy", "api", "mixed"])
        );
        assert_eq!(props["tls"]["default"], json!(false));
        assert_eq!(props["upstreams"]["default"], json!(["127.0.0.1:8080"]));
        assert!(props["clients"].get("default").is_none());
    }

    #[test]
    fn the_defaults_in_the_schema_form_a_valid_document() {
        let schema = json_schema();
        let document: Map<String, Value> = schema["properties"]
            .as_object()
            .unwrap()
            .iter()
            .filter_map(|(k, p)| p.get("default").map(|d| (k.clone(), d.clone())))
            .collect();
        let inputs = super::super::Inputs::from_json(&Value::Object(document).to_string());
        assert_eq!(inputs.unwrap(), super::super::Inputs::default());
    }
}
