//! The loose form of the inputs as a front end has them ([`RawInputs`], whose struct the
//! registry declares), reading the JSON document, and the errors every front end reports.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::RawInputs;
use super::texts::{self, Msg};
use crate::i18n::Catalogue;
use crate::json::{self, Number, Reader};

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
    ///
    /// Read by core's own JSON reader (`crate::json`), one field at a time through
    /// [`RawInputs::set`]; the messages are `serde_json`'s words, so they read as before.
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
        let syntax = |e: json::Error| named("input", &e.to_string());
        let mut r = Reader::new(text).map_err(syntax)?;
        let mut raw = Self::default();
        let mut seen: Vec<String> = Vec::new();
        if !r.open(b'{', b'}') {
            loop {
                let key = r.key().map_err(syntax)?;
                let Some(shape) = Shape::of(&key) else {
                    let mut message = format!("unknown field `{key}`, expected one of ");
                    for (i, input) in super::INPUTS.iter().enumerate() {
                        message.push_str(if i == 0 { "`" } else { ", `" });
                        message.push_str(input.name);
                        message.push('`');
                    }
                    let field = if key.is_empty() {
                        "input".to_owned()
                    } else {
                        printable(&key)
                    };
                    return Err(named(&field, &r.error(message, false).to_string()));
                };
                if seen.contains(&key) {
                    let e = r.error(format!("duplicate field `{key}`"), false);
                    return Err(named(&key, &e.to_string()));
                }
                let value = shape
                    .read(&mut r)
                    .map_err(|e| named(if e.syntax { "input" } else { &key }, &e.to_string()))?;
                // `Shape::of` found the shape `set` takes, so this cannot fail.
                raw.set(&key, value).map_err(|_| {
                    named(
                        &key,
                        &format!("invalid type, expected {}", shape.expected()),
                    )
                })?;
                seen.push(key);
                if !r.next_or_close(b'}').map_err(syntax)? {
                    break;
                }
            }
        }
        if !r.at_end() {
            return Err(document_error(&texts::TRAILING));
        }
        Ok(raw)
    }
}

/// The error of `field` for a message in the JSON reader's (`serde_json`'s) words.
fn named(field: &str, raw_message: &str) -> InputErrors {
    // The document's own text (a key, a value) is escaped before it is shown.
    let message = printable_up_to(raw_message, 300);
    let accepted = if field == "input" {
        &texts::ACCEPTED_OBJECT
    } else if message.starts_with("unknown field") {
        &texts::ACCEPTED_FIELDS
    } else {
        &texts::ACCEPTED_TYPE
    };
    // The reader's words have no template: they stay as written.
    InputErrors(vec![InputError::new(
        field,
        Msg::Verbatim(message),
        Msg::of(accepted),
    )])
}

/// The JSON shape of a [`RawInputs`] field, found by asking [`RawInputs::set`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// [`Scalar`]: a whole number, as a number or as text.
    Number,
    /// A string.
    Text,
    /// A boolean.
    Switch,
    /// A list of strings.
    List,
}

impl Shape {
    /// The shape of the input `name`; `None` for a name that is not an input.
    fn of(name: &str) -> Option<Self> {
        let mut probe = RawInputs::default();
        [
            (Self::Switch, RawValue::Bool(false)),
            (Self::Number, RawValue::Int(0)),
            (Self::List, RawValue::List(Vec::new())),
            (Self::Text, RawValue::Text(String::new())),
        ]
        .into_iter()
        .find(|(_, value)| probe.set(name, Some(value.clone())).is_ok())
        .map(|(shape, _)| shape)
    }

    fn expected(self) -> &'static str {
        match self {
            Self::Number => "a whole number, as a number or as text",
            Self::Text => "a string",
            Self::Switch => "a boolean",
            Self::List => "a sequence",
        }
    }

    /// Reads one value of this shape; `null` is an unset field. A value of another type is
    /// refused at its first byte, as `serde_json` does.
    fn read(self, r: &mut Reader<'_>) -> Result<Option<RawValue>, json::Error> {
        let wrong = |r: &Reader<'_>, what: &str| {
            Err(r.error(
                format!("invalid type: {what}, expected {}", self.expected()),
                false,
            ))
        };
        match r.peek() {
            Some(b'"') => {
                let s = r.string()?;
                match self {
                    Self::Number | Self::Text => Ok(Some(RawValue::Text(s))),
                    _ => wrong(r, &["string ", &quoted(&s)].concat()),
                }
            }
            Some(b'-' | b'0'..=b'9') => match (r.number()?, self) {
                (Number::Int(n), Self::Number) => Ok(Some(RawValue::Int(n))),
                (Number::Large(_), Self::Number) => Err(r.error("the number is too large", false)),
                (Number::Int(n), _) => wrong(r, &format!("integer `{n}`")),
                (Number::Large(n), _) => wrong(r, &format!("integer `{n}`")),
                (Number::Other(t), _) => wrong(r, &format!("floating point `{t}`")),
            },
            Some(b'[') if self == Self::List => {
                let mut items = Vec::new();
                if !r.open(b'[', b']') {
                    loop {
                        if r.peek() == Some(b'n') {
                            r.literal()?;
                            return Err(r.error("invalid type: null, expected a string", false));
                        }
                        match Self::Text.read(r)? {
                            Some(RawValue::Text(s)) => items.push(s),
                            _ => return Err(r.error("expected a string", false)),
                        }
                        if !r.next_or_close(b']')? {
                            break;
                        }
                    }
                }
                Ok(Some(RawValue::List(items)))
            }
            Some(b'[') => wrong(r, "sequence"),
            Some(b'{') => wrong(r, "map"),
            None => r.skip(0).map(|()| None),
            Some(_) => match r.literal()? {
                Some(b) if self == Self::Switch => Ok(Some(RawValue::Bool(b))),
                Some(b) => wrong(r, &format!("boolean `{b}`")),
                None => Ok(None),
            },
        }
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

/// At most `max` characters of `s`, escaped as `char::escape_debug` escapes them, then `…`
/// if there were more.
pub(crate) fn printable_up_to(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max) + 2);
    for c in s.chars().take(max) {
        escape_into(&mut out, c);
    }
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// `s` in double quotes, escaped as `{s:?}` shows it (`serde_json`'s words for a string
/// value), without `Debug`: the browser builds compile `Debug` out (`-Zfmt-debug=none`).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '\'' {
            out.push(c);
        } else {
            escape_into(&mut out, c);
        }
    }
    out.push('"');
    out
}

/// Characters shown as `\u{…}` besides the control characters: Unicode's invisible and
/// format characters, separators other than the space, combining marks, private use and
/// non-characters (ranges, inclusive). `char::escape_debug` asks the standard library's
/// Unicode tables instead, which cost the browser builds about 1.5 KB; this list covers
/// what can hide or reorder text in a message (a test compares it with `escape_debug`).
const HIDDEN: &[(u32, u32)] = &[
    (0xa0, 0xa0),
    (0xad, 0xad),
    (0x300, 0x36f),
    (0x600, 0x605),
    (0x61c, 0x61c),
    (0x6dd, 0x6dd),
    (0x70f, 0x70f),
    (0x1680, 0x1680),
    (0x180e, 0x180e),
    (0x1ab0, 0x1aff),
    (0x1dc0, 0x1dff),
    (0x2000, 0x200f),
    (0x2028, 0x202f),
    (0x205f, 0x206f),
    (0x20d0, 0x20ff),
    (0x3000, 0x3000),
    (0xd800, 0xf8ff),
    (0xfe00, 0xfe0f),
    (0xfe20, 0xfe2f),
    (0xfeff, 0xfeff),
    (0xfff9, 0xfffb),
    (0xfffe, 0xffff),
    (0x000e_0000, 0x000e_0fff),
    (0x000f_0000, 0x0010_ffff),
];

/// Appends `c` as `char::escape_debug` writes it (see [`HIDDEN`]).
fn escape_into(out: &mut String, c: char) {
    let short = match c {
        '\0' => '0',
        '\t' => 't',
        '\r' => 'r',
        '\n' => 'n',
        '\\' | '\'' | '"' => c,
        _ => {
            let code = u32::from(c);
            if c.is_control() || HIDDEN.iter().any(|&(lo, hi)| (lo..=hi).contains(&code)) {
                out.push_str("\\u{");
                let digits = (32 - code.leading_zeros()).div_ceil(4).max(1);
                for i in (0..digits).rev() {
                    out.push(char::from(
                        b"0123456789abcdef"[(code >> (4 * i) & 0xf) as usize],
                    ));
                }
                out.push('}');
            } else {
                out.push(c);
            }
            return;
        }
    };
    out.push('\\');
    out.push(short);
}

#[cfg(test)]
mod tests {
    use super::super::Inputs;

    #[test]
    fn quoted_as_debug_quotes() {
        for s in [
            "yes",
            "",
            "it's",
            "a \"b\"",
            "back\\slash",
            "tab\tnew\nline\0",
            "\u{7f}\u{200b}é",
        ] {
            assert_eq!(super::quoted(s), format!("{s:?}"), "{s:?}");
        }
    }

    /// The escapes are `escape_debug`'s for ASCII, the Latin-1 block, the listed ranges'
    /// edges and common scripts; elsewhere (unassigned code points and the like) the
    /// standard library may escape more.
    #[test]
    fn escapes_as_escape_debug_does() {
        let std = |c: char| c.escape_debug().to_string();
        let ours = |c: char| super::printable(&c.to_string());
        let mut checked = (0..0x3000).chain(0xfe00..0x10000).collect::<Vec<u32>>();
        for &(lo, hi) in super::HIDDEN {
            checked.extend([lo.saturating_sub(1), lo, hi, hi + 1]);
        }
        for c in checked.into_iter().filter_map(char::from_u32) {
            // Assigned, printable in std's tables, or one of ours: the two must agree.
            let (s, o) = (std(c), ours(c));
            if s.starts_with("\\u{") == o.starts_with("\\u{") {
                assert_eq!(o, s, "U+{:04X}", u32::from(c));
            } else {
                // Where they differ, std escapes an unassigned or rare code point.
                assert!(
                    o.len() < s.len(),
                    "U+{:04X}: ours {o}, std {s}",
                    u32::from(c)
                );
            }
        }
        assert_eq!(
            super::printable("a\u{202e}b\u{200b}\n"),
            "a\\u{202e}b\\u{200b}\\n"
        );
    }

    fn raw(json: &str) -> Result<Inputs, super::InputErrors> {
        Inputs::from_json(json)
    }

    #[test]
    fn unknown_fields_and_types_are_named() {
        assert_eq!(raw(r#"{"cpus": 4}"#).unwrap_err().0[0].field, "cpus");
        assert_eq!(raw(r#"{"tls": "yes"}"#).unwrap_err().0[0].field, "tls");
        assert_eq!(raw("{").unwrap_err().0[0].field, "input");
    }

    #[test]
    fn messages_read_as_serde_json_wrote_them() {
        let message = |json: &str| {
            let e = raw(json).unwrap_err().0.remove(0);
            (e.field, e.message)
        };
        for (json, field, start) in [
            (
                r#"{"tls": "yes"}"#,
                "tls",
                r#"invalid type: string \"yes\", expected a boolean"#,
            ),
            (
                r#"{"vcpu": 4.5}"#,
                "vcpu",
                "invalid type: floating point `4.5`, expected a whole number",
            ),
            (
                r#"{"vcpu": true}"#,
                "vcpu",
                "invalid type: boolean `true`, expected a whole",
            ),
            (
                r#"{"vcpu": [4, }"#,
                "vcpu",
                "invalid type: sequence, expected a whole number",
            ),
            (
                r#"{"vcpu": 9223372036854775808}"#,
                "vcpu",
                "the number is too large",
            ),
            (
                r#"{"root": 4}"#,
                "root",
                "invalid type: integer `4`, expected a string",
            ),
            (
                r#"{"root": {}}"#,
                "root",
                "invalid type: map, expected a string",
            ),
            (
                r#"{"lang": ["en"]}"#,
                "lang",
                "invalid type: sequence, expected a string",
            ),
            (
                r#"{"upstreams": "a"}"#,
                "upstreams",
                r#"invalid type: string \"a\", expected a sequence"#,
            ),
            (
                r#"{"upstreams": ["a", 1]}"#,
                "upstreams",
                "invalid type: integer `1`, expected a string",
            ),
            (
                r#"{"upstreams": [null]}"#,
                "upstreams",
                "invalid type: null, expected a string",
            ),
            (
                r#"{"cpus": 4}"#,
                "cpus",
                "unknown field `cpus`, expected one of `vcpu`, `ram`",
            ),
            (
                r#"{"vcpu": 4, "vcpu": 5}"#,
                "vcpu",
                "duplicate field `vcpu`",
            ),
            (
                r#"{"vcpu": 4,}"#,
                "input",
                "trailing comma at line 1 column",
            ),
            (
                r#"{"vcpu": 4"#,
                "input",
                "EOF while parsing an object at line 1 column",
            ),
            ("{\"a\u{0}\": 1}", "input", "control character"),
        ] {
            let (f, m) = message(json);
            assert_eq!(f, field, "{json}: {m}");
            assert!(m.starts_with(start), "{json}: {m}");
            // The list of fields is cut at 300 characters, before the position.
            if field != "input" && field != "cpus" {
                assert!(m.contains(" at line 1 column "), "{json}: {m}");
            }
        }
    }

    #[test]
    fn numbers_text_and_null_read_as_before() {
        use super::{RawInputs, Scalar};
        let raw = RawInputs::from_json(
            r#"{"vcpu": 4, "clients": "4", "static_files": -3, "ram": null, "tls": false, "server_names": []}"#,
        )
        .unwrap();
        assert_eq!(raw.vcpu, Some(Scalar::Int(4)));
        assert_eq!(raw.clients, Some(Scalar::Text("4".into())));
        assert_eq!(raw.static_files, Some(Scalar::Int(-3)));
        assert_eq!(raw.ram, None);
        assert_eq!(raw.tls, Some(false));
        assert_eq!(raw.server_names, Some(Vec::new()));
        // `4.0` is not a whole number for the document, as with serde_json.
        assert_eq!(
            RawInputs::from_json(r#"{"vcpu": 4.0}"#).unwrap_err().0[0].field,
            "vcpu"
        );
    }

    #[test]
    fn every_document_serde_json_writes_is_read_back() {
        let full = super::super::defaults().to_raw();
        let text = serde_json::to_string_pretty(&full).unwrap();
        assert_eq!(super::RawInputs::from_json(&text).unwrap(), full);
        let text = serde_json::to_string(&full).unwrap();
        assert_eq!(super::RawInputs::from_json(&text).unwrap(), full);
    }
}
