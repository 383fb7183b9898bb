//! The JSON schema of the input document, built from the registry.
//!
//! Written with core's JSON writer, not as a `serde_json::Value`: the map, the value type
//! and the `Debug` formatting `json!` brings were about 2 KB of the module's compressed
//! size (its `inputSchema()`). The text is byte for byte what `serde_json` prints for the
//! same document — keys in sorted order, as its map keeps them — which a test checks
//! against the `Value` built the old way.

use super::spec::{DefaultValue, Input, Kind};
use super::{INPUTS, limits};
use crate::json::write::{ToJson, Writer};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";
const TITLE: &str = "nginx-gen inputs";
const DESCRIPTION: &str =
    "What nginx-gen tunes for. Every field is optional; a missing field takes its default.";
const INT_PATTERN: &str = r"^\s*[+-]?[0-9]+\s*$";
const PATH_PATTERN: &str = "^/[A-Za-z0-9/._+@%,:=~-]*$";
const PATH_MAX: u64 = 1024;

/// The JSON schema (draft 2020-12) of the input document that `--input`, the wasm module
/// and the share URL read: one property per input, with its type, range and default; as
/// pretty-printed JSON text (`nginx-gen schema`, the module's `inputSchema()`).
pub fn json_schema() -> String {
    let mut w = Writer::default();
    w.object(|w| {
        w.field("$schema", DRAFT);
        w.field("additionalProperties", &false);
        w.field("description", DESCRIPTION);
        w.field("properties", &Properties);
        w.field("title", TITLE);
        w.field("type", "object");
    });
    w.finish()
}

/// Every input's property, by name in byte order.
struct Properties;

impl ToJson for Properties {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| {
            // The names in order without a sort: the next name after the last one written.
            let mut last = "";
            while let Some(input) = INPUTS
                .iter()
                .filter(|i| i.name > last)
                .min_by_key(|i| i.name)
            {
                w.field(input.name, &Property(input));
                last = input.name;
            }
        });
    }
}

/// One input's property: its keys in byte order, as `serde_json` writes a map.
struct Property<'a>(&'a Input);

impl ToJson for Property<'_> {
    fn write_json(&self, w: &mut Writer) {
        let input = self.0;
        w.object(|w| {
            match input.default {
                DefaultValue::Value(text) => match input.kind {
                    Kind::Int { .. } => match text.parse::<u64>() {
                        Ok(n) => w.field("default", &n),
                        Err(_) => w.field("default", text),
                    },
                    Kind::Bool => w.field("default", &(text == "true")),
                    _ => w.field("default", text),
                },
                DefaultValue::List(items) => w.field("default", items),
                DefaultValue::Unset(_) => {}
            }
            w.field("description", &description(input));
            match input.kind {
                Kind::Int { min, max } => {
                    w.field("maximum", &max);
                    w.field("minimum", &min);
                    w.field("pattern", INT_PATTERN);
                    w.field("type", &["integer", "string"][..]);
                }
                Kind::Choice(names) => {
                    w.field("enum", names);
                    w.field("type", "string");
                }
                Kind::Bool => w.field("type", "boolean"),
                Kind::Path => {
                    w.field("maxLength", &PATH_MAX);
                    w.field("pattern", PATH_PATTERN);
                    w.field("type", "string");
                }
                Kind::Size { .. } | Kind::Version { .. } | Kind::Text { .. } => {
                    w.field("type", "string");
                }
                Kind::List { .. } => {
                    w.field("items", &StringItems);
                    w.field("maxItems", &(limits::LIST_MAX as u64));
                    w.field("minItems", &1_u64);
                    w.field("type", "array");
                    w.field("uniqueItems", &true);
                }
            }
        });
    }
}

/// `{"type": "string"}`, a list's items.
struct StringItems;

impl ToJson for StringItems {
    fn write_json(&self, w: &mut Writer) {
        w.object(|w| w.field("type", "string"));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    /// The schema as a `serde_json::Value`, built as it was before core wrote it itself:
    /// the oracle for the text.
    fn oracle() -> Value {
        let properties: Map<String, Value> = INPUTS
            .iter()
            .map(|input| (input.name.to_owned(), oracle_property(input)))
            .collect();
        json!({
            "$schema": DRAFT,
            "title": TITLE,
            "description": DESCRIPTION,
            "type": "object",
            "additionalProperties": false,
            "properties": properties,
        })
    }

    fn oracle_property(input: &Input) -> Value {
        let mut p = match input.kind {
            Kind::Int { min, max } => json!({
                "type": ["integer", "string"],
                "minimum": min,
                "maximum": max,
                "pattern": INT_PATTERN,
            }),
            Kind::Choice(names) => json!({ "type": "string", "enum": names }),
            Kind::Bool => json!({ "type": "boolean" }),
            Kind::Path => json!({
                "type": "string",
                "maxLength": PATH_MAX,
                "pattern": PATH_PATTERN,
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

    #[test]
    fn the_text_is_what_serde_json_prints_for_the_document() {
        assert_eq!(json_schema(), format!("{:#}", oracle()));
    }

    fn schema() -> Value {
        serde_json::from_str(&json_schema()).unwrap()
    }

    #[test]
    fn every_input_is_a_property_and_nothing_else_is_allowed() {
        let schema = schema();
        let props = schema["properties"].as_object().unwrap();
        assert_eq!(props.len(), INPUTS.len());
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(props["vcpu"]["maximum"], json!(1024));
        assert_eq!(
            props["workload"]["enum"],
            json!(["static", "proxy", "api", "mixed", "php"])
        );
        assert_eq!(props["tls"]["default"], json!(false));
        assert_eq!(props["upstreams"]["default"], json!(["127.0.0.1:8080"]));
        assert!(props["clients"].get("default").is_none());
    }

    #[test]
    fn the_defaults_in_the_schema_form_a_valid_document() {
        let schema = schema();
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
