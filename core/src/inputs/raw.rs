//! The loose form of the inputs as a front end has them ([`RawInputs`], whose struct the
//! registry declares), reading the JSON document, and the errors every front end reports.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::RawInputs;
use super::texts::{self, Msg};
use crate::i18n::Catalogue;

/// A number as it arrives: JSON gives integers, forms and flags give text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum Scalar {
    /// A JSON integer.
    Int(i64),
    /// Text to be read as a whole number.
    Text(String),
}

/// Read by hand rather than as an untagged enum: serde's untagged machinery buffers every
/// value and costs the browser builds several kilobytes.
impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number, as a number or as text")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int(n))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Scalar, E> {
                i64::try_from(n)
                    .map(Scalar::Int)
                    .map_err(|_| E::custom("the number is too large"))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(s.to_owned()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl From<u32> for Scalar {
    fn from(n: u32) -> Self {
        Self::Int(i64::from(n))
    }
}

/// One input that is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct InputError {
    /// The input's name in the JSON schema (`ram`, `server_names`, …); `input` for a
    /// document that is not JSON at all.
    pub field: String,
    /// What is wrong with the value.
    pub message: String,
    /// What would be accepted.
    pub accepted: String,
    /// `message` and `accepted` as templates with their values, for translations.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", tsify(skip))]
    pub source: Option<Box<(Msg, Msg)>>,
}

impl InputError {
    /// An error of `field`: what is wrong and what is accepted, in English.
    pub fn new(field: impl Into<String>, message: Msg, accepted: Msg) -> Self {
        let english = Catalogue::english();
        Self {
            field: field.into(),
            message: message.text(english),
            accepted: accepted.text(english),
            source: Some(Box::new((message, accepted))),
        }
    }

    /// The error with its message and accepted values in the catalogue's language.
    #[must_use]
    pub fn localized(&self, cat: &Catalogue) -> Self {
        match &self.source {
            Some(source) => Self {
                field: self.field.clone(),
                message: source.0.text(cat),
                accepted: source.1.text(cat),
                source: self.source.clone(),
            },
            None => self.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (accepted: {})",
            self.field, self.message, self.accepted
        )
    }
}

/// Every problem found in one set of inputs; never empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct InputErrors(pub Vec<InputError>);

impl InputErrors {
    /// Every error in the catalogue's language.
    #[must_use]
    pub fn localized(&self, cat: &Catalogue) -> Self {
        Self(self.0.iter().map(|e| e.localized(cat)).collect())
    }

    /// The error for `field`, if there is one.
    pub fn for_field(&self, field: &str) -> Option<&InputError> {
        self.0.iter().find(|e| e.field == field)
    }
}

impl fmt::Display for InputErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputErrors {}

impl RawInputs {
    /// Parses the JSON input document without validating values; a syntax error, a wrong
    /// type or an unknown field is reported naming the field.
    pub fn from_json(text: &str) -> Result<Self, InputErrors> {
        let document_error = |message: &'static crate::rules::Text| {
            InputErrors(vec![InputError::new(
                "input",
                Msg::of(message),
                Msg::of(&texts::ACCEPTED_DOCUMENT),
            )])
        };
        if !text.trim_start().starts_with('{') {
            return Err(document_error(&texts::NOT_OBJECT));
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        let raw = Self::deserialize_named(de)?;
        de.end().map_err(|_| document_error(&texts::TRAILING))?;
        Ok(raw)
    }

    /// Deserializes, naming the field of the first error.
    fn deserialize_named(
        de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<Self, InputErrors> {
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let raw_message = inner.to_string();
            // The document's own text (a key, a value) is escaped before it is shown.
            let message = printable_up_to(&raw_message, 300);
            let field = if let Some(rest) = raw_message.strip_prefix("unknown field `") {
                match rest.split('`').next().unwrap_or_default() {
                    "" => "input".to_owned(),
                    name => printable(name),
                }
            } else if path == "." || inner.is_syntax() || inner.is_eof() {
                "input".to_owned()
            } else {
                path.split(['.', '['])
                    .find(|s| !s.is_empty())
                    .unwrap_or("input")
                    .to_owned()
            };
            let accepted = if field == "input" {
                &texts::ACCEPTED_OBJECT
            } else if message.starts_with("unknown field") {
                &texts::ACCEPTED_FIELDS
            } else {
                &texts::ACCEPTED_TYPE
            };
            // serde's own words have no template: they stay as serde wrote them.
            InputErrors(vec![InputError::new(
                field,
                Msg::Verbatim(message),
                Msg::of(accepted),
            )])
        })
    }
}

/// One raw value without its field's type: what the CLI and the web form hand to
/// [`RawInputs::set`], and what [`RawInputs::get`] gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawValue {
    /// A JSON number.
    Int(i64),
    /// Text: a number, size, version, choice, path or address as typed.
    Text(String),
    /// A yes/no input.
    Bool(bool),
    /// The entries of a list input.
    List(Vec<String>),
}

/// A value of the wrong shape for its field (a list for a number, text for a switch), or
/// a field name that is not an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongShape;

/// The raw types of [`RawInputs`]' fields, converted to and from [`RawValue`].
pub(crate) trait RawField: Sized {
    fn into_value(self) -> RawValue;
    fn from_value(value: RawValue) -> Result<Self, WrongShape>;
}

impl RawField for Scalar {
    fn into_value(self) -> RawValue {
        match self {
            Self::Int(n) => RawValue::Int(n),
            Self::Text(t) => RawValue::Text(t),
        }
    }
    fn from_value(value: RawValue) -> Result<Self, WrongShape> {
        match value {
            RawValue::Int(n) => Ok(Self::Int(n)),
            RawValue::Text(t) => Ok(Self::Text(t)),
            RawValue::Bool(_) | RawValue::List(_) => Err(WrongShape),
        }
    }
}

impl RawField for String {
    fn into_value(self) -> RawValue {
        RawValue::Text(self)
    }
    fn from_value(value: RawValue) -> Result<Self, WrongShape> {
        match value {
            RawValue::Text(t) => Ok(t),
            _ => Err(WrongShape),
        }
    }
}

impl RawField for bool {
    fn into_value(self) -> RawValue {
        RawValue::Bool(self)
    }
    fn from_value(value: RawValue) -> Result<Self, WrongShape> {
        match value {
            RawValue::Bool(b) => Ok(b),
            _ => Err(WrongShape),
        }
    }
}

impl RawField for Vec<String> {
    fn into_value(self) -> RawValue {
        RawValue::List(self)
    }
    fn from_value(value: RawValue) -> Result<Self, WrongShape> {
        match value {
            RawValue::List(items) => Ok(items),
            _ => Err(WrongShape),
        }
    }
}

/// Shows a rejected value safely inside a one-line message: control characters escaped,
/// long values cut.
pub(crate) fn printable(s: &str) -> String {
    printable_up_to(s, 64)
}

fn printable_up_to(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).flat_map(char::escape_debug).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Inputs;

    fn raw(json: &str) -> Result<Inputs, super::InputErrors> {
        Inputs::from_json(json)
    }

    #[test]
    fn unknown_fields_and_types_are_named() {
        assert_eq!(raw(r#"{"cpus": 4}"#).unwrap_err().0[0].field, "cpus");
        assert_eq!(raw(r#"{"tls": "yes"}"#).unwrap_err().0[0].field, "tls");
        assert_eq!(raw("{").unwrap_err().0[0].field, "input");
    }
}
