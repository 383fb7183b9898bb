//! A small JSON reader for the two documents core reads: the input document
//! ([`crate::inputs::RawInputs::from_json`]) and translation catalogues
//! ([`crate::i18n::Catalogue::from_json`]).
//!
//! Written by hand rather than with `serde_json`'s deserializer: that deserializer, the
//! path tracking that names a field and the float formatting reached only through its
//! error messages were about a fifth of the browser builds. It reads RFC 8259 JSON
//! (objects, arrays, strings with every escape including `\uXXXX` surrogate pairs,
//! numbers, `true`, `false`, `null`), nests at most [`MAX_DEPTH`] deep, reads at most
//! [`MAX_LEN`] bytes, and never panics. Its error messages are `serde_json`'s words with
//! the same `at line L column C` suffix.

use std::fmt;

pub mod write;

/// Deepest nesting of arrays and objects (`serde_json`'s limit).
pub(crate) const MAX_DEPTH: usize = 128;
/// Longest document, in bytes.
pub(crate) const MAX_LEN: usize = 8 << 20;

/// A JSON value, as the tests read it (core itself reads past values it does not keep,
/// [`Reader::skip`]). Numbers keep their text.
#[cfg_attr(
    not(test),
    allow(dead_code, reason = "built by the tests' reader only")
)]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// A number as written (validated JSON number syntax).
    Number(String),
    Str(String),
    Array(Vec<Json>),
    /// Members in document order; a repeated key is kept twice.
    Object(Vec<(String, Json)>),
}

/// A syntax error (or a caller's error) at a byte offset of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    /// What is wrong, in `serde_json`'s words.
    pub message: String,
    /// Line (from 1) and column (from 1, in bytes) of the offending byte.
    pub line: usize,
    pub column: usize,
    /// A syntax error (as opposed to a value of the wrong type).
    pub syntax: bool,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

/// A number as read: a whole number that fits in `i64`, one that only fits in `u64`, or
/// anything else (fraction, exponent, out of range), as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Number<'a> {
    Int(i64),
    Large(u64),
    Other(&'a str),
}

/// A cursor over a document.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`; a document longer than [`MAX_LEN`] is refused.
    pub fn new(text: &'a str) -> Result<Self, Error> {
        let r = Self { text, at: 0 };
        if text.len() > MAX_LEN {
            return Err(r.syntax("the document is larger than 8 MiB"));
        }
        Ok(r)
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// An error at the current position.
    pub fn error(&self, message: impl Into<String>, syntax: bool) -> Error {
        let done = &self.bytes()[..self.at.min(self.text.len())];
        // Not `str` slicing: an error may stop inside a multi-byte character.
        let line = done.split(|&b| b == b'\n').count();
        let column = done.iter().rev().take_while(|&&b| b != b'\n').count();
        Error {
            message: message.into(),
            line,
            column: column.max(1),
            syntax,
        }
    }

    fn syntax(&self, message: &str) -> Error {
        self.error(message, true)
    }

    /// Skips whitespace; the next byte, if any.
    pub fn peek(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes().get(self.at) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.at += 1;
            } else {
                return Some(b);
            }
        }
        None
    }

    /// Whether only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Reads `,` or the closing `close` (`}` or `]`), after an element; `Ok(true)` when
    /// another element follows.
    pub fn next_or_close(&mut self, close: u8) -> Result<bool, Error> {
        match self.peek() {
            None => Err(self.syntax(if close == b'}' {
                "EOF while parsing an object"
            } else {
                "EOF while parsing a list"
            })),
            Some(b',') => {
                self.at += 1;
                if self.peek() == Some(close) {
                    self.at += 1;
                    return Err(self.syntax("trailing comma"));
                }
                Ok(true)
            }
            Some(b) if b == close => {
                self.at += 1;
                Ok(false)
            }
            Some(_) => {
                self.at += 1;
                Err(self.syntax(if close == b'}' {
                    "expected `,` or `}`"
                } else {
                    "expected `,` or `]`"
                }))
            }
        }
    }

    /// The next key of an object (and its `:`), `None` after its closing `}`; `first` is
    /// true before the object's `{`, which this reads.
    pub fn next_key(&mut self, first: &mut bool) -> Result<Option<String>, Error> {
        if *first {
            *first = false;
            if self.peek() != Some(b'{') {
                return Err(self.error("invalid type, expected an object", false));
            }
            if self.open(b'{', b'}') {
                return Ok(None);
            }
        } else if !self.next_or_close(b'}')? {
            return Ok(None);
        }
        self.key().map(Some)
    }

    /// After `{` (or `,`): the next key and its `:`.
    pub fn key(&mut self) -> Result<String, Error> {
        match self.peek() {
            Some(b'"') => {}
            None => return Err(self.syntax("EOF while parsing an object")),
            Some(_) => {
                self.at += 1;
                return Err(self.syntax("key must be a string"));
            }
        }
        let key = self.string()?;
        match self.peek() {
            Some(b':') => {
                self.at += 1;
                Ok(key)
            }
            None => Err(self.syntax("EOF while parsing an object")),
            Some(_) => {
                self.at += 1;
                Err(self.syntax("expected `:`"))
            }
        }
    }

    /// Consumes `{` and tells whether the object is empty (consuming its `}` then).
    pub fn open(&mut self, open: u8, close: u8) -> bool {
        self.at += usize::from(self.peek() == Some(open));
        if self.peek() == Some(close) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A string, at its opening quote (after whitespace).
    pub fn string(&mut self) -> Result<String, Error> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("expected value"));
        }
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.bytes().get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // `text` is a `str` and the stops are ASCII: both ends are char boundaries.
            out.push_str(self.text.get(start..self.at).unwrap_or_default());
            match self.bytes().get(self.at) {
                None => return Err(self.syntax("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                Some(_) => {
                    self.at += 1;
                    return Err(self.syntax(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ));
                }
            }
        }
    }

    /// The character of an escape, after its backslash.
    fn escape(&mut self) -> Result<char, Error> {
        let Some(&b) = self.bytes().get(self.at) else {
            return Err(self.syntax("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                match first {
                    0xD800..=0xDBFF => {
                        if self.bytes().get(self.at..self.at + 2) != Some(b"\\u") {
                            return Err(self.syntax("lone leading surrogate in hex escape"));
                        }
                        self.at += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.syntax("lone leading surrogate in hex escape"));
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        char::from_u32(code)
                            .ok_or_else(|| self.syntax("invalid unicode code point"))?
                    }
                    0xDC00..=0xDFFF => {
                        return Err(self.syntax("lone trailing surrogate in hex escape"));
                    }
                    _ => char::from_u32(first)
                        .ok_or_else(|| self.syntax("invalid unicode code point"))?,
                }
            }
            _ => return Err(self.syntax("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let Some(&b) = self.bytes().get(self.at) else {
                return Err(self.syntax("EOF while parsing a string"));
            };
            self.at += 1;
            let digit = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => return Err(self.syntax("invalid escape")),
            };
            n = n * 16 + u32::from(digit);
        }
        Ok(n)
    }

    /// A number, at its first byte (after whitespace).
    pub fn number(&mut self) -> Result<Number<'a>, Error> {
        let start = self.at;
        let negative = self.bytes().get(self.at) == Some(&b'-');
        self.at += usize::from(negative);
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.bytes().get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            r.at - from
        };
        let int_start = self.at;
        let int_digits = digits(self);
        if int_digits == 0 || (int_digits > 1 && self.bytes().get(int_start) == Some(&b'0')) {
            self.at += usize::from(int_digits == 0 && self.at < self.text.len());
            return Err(
                self.syntax(if int_digits == 0 && self.at >= self.text.len() {
                    "EOF while parsing a value"
                } else {
                    "invalid number"
                }),
            );
        }
        let int_end = self.at;
        let mut whole = true;
        if self.bytes().get(self.at) == Some(&b'.') {
            whole = false;
            self.at += 1;
            if digits(self) == 0 {
                return Err(self.syntax("invalid number"));
            }
        }
        if matches!(self.bytes().get(self.at), Some(b'e' | b'E')) {
            whole = false;
            self.at += 1;
            if matches!(self.bytes().get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.syntax("invalid number"));
            }
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        if whole {
            let magnitude = self
                .text
                .get(int_start..int_end)
                .and_then(crate::digits::parse_u64);
            match (negative, magnitude) {
                (false, Some(n)) => {
                    return Ok(i64::try_from(n).map_or(Number::Large(n), Number::Int));
                }
                // -0 is not an integer for serde_json either.
                (true, Some(n)) if n != 0 && n <= 1 << 63 => {
                    return Ok(Number::Int(0_i64.wrapping_sub_unsigned(n)));
                }
                _ => {}
            }
        }
        Ok(Number::Other(text))
    }

    /// `true`, `false` (`Some`) or `null` (`None`), at its first byte.
    pub fn literal(&mut self) -> Result<Option<bool>, Error> {
        let (word, value): (&[u8], _) = match self.bytes().get(self.at) {
            Some(b't') => (b"true", Some(true)),
            Some(b'f') => (b"false", Some(false)),
            Some(b'n') => (b"null", None),
            _ => {
                self.at += 1;
                return Err(self.syntax("expected value"));
            }
        };
        for &b in word {
            match self.bytes().get(self.at) {
                Some(&c) if c == b => self.at += 1,
                None => return Err(self.syntax("EOF while parsing a value")),
                Some(_) => {
                    self.at += 1;
                    return Err(self.syntax("expected ident"));
                }
            }
        }
        Ok(value)
    }

    /// Reads past any value, nested at most `depth` more levels; `out` (the tests') gets
    /// the value.
    pub fn skip(&mut self, depth: usize) -> Result<(), Error> {
        self.value::<false>(depth, &mut Vec::new())
    }

    /// Reads a value; with `KEEP` (the tests), pushes it on `out`.
    fn value<const KEEP: bool>(&mut self, depth: usize, out: &mut Vec<Json>) -> Result<(), Error> {
        let value = match self.peek() {
            None => return Err(self.syntax("EOF while parsing a value")),
            Some(b'"') => Json::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                self.number()?;
                if !KEEP {
                    return Ok(());
                }
                Json::Number(self.text.get(start..self.at).unwrap_or_default().to_owned())
            }
            Some(open @ (b'[' | b'{')) => {
                if depth == 0 {
                    self.at += 1;
                    return Err(self.syntax("recursion limit exceeded"));
                }
                let object = open == b'{';
                let close = if object { b'}' } else { b']' };
                let mut keys = Vec::new();
                let mut items = Vec::new();
                if !self.open(open, close) {
                    loop {
                        if object {
                            let key = self.key()?;
                            if KEEP {
                                keys.push(key);
                            }
                        }
                        self.value::<KEEP>(depth - 1, &mut items)?;
                        if !self.next_or_close(close)? {
                            break;
                        }
                    }
                }
                if object {
                    Json::Object(keys.into_iter().zip(items).collect())
                } else {
                    Json::Array(items)
                }
            }
            Some(_) => match self.literal()? {
                Some(b) => Json::Bool(b),
                None => Json::Null,
            },
        };
        if KEEP {
            out.push(value);
        }
        Ok(())
    }
}

/// Reads one whole document: a value and nothing after it.
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<Json, Error> {
    let mut r = Reader::new(text)?;
    let mut values = Vec::new();
    r.value::<true>(MAX_DEPTH, &mut values)?;
    if r.at_end() {
        values.pop().ok_or_else(|| r.syntax("no value"))
    } else {
        r.at += 1;
        Err(r.syntax("trailing characters"))
    }
}

/// Whether `text` is one whole document, read without keeping it.
#[cfg(test)]
pub(crate) fn check(text: &str) -> Result<(), Error> {
    let mut r = Reader::new(text)?;
    r.skip(MAX_DEPTH)?;
    if r.at_end() {
        Ok(())
    } else {
        Err(r.syntax("trailing characters"))
    }
}

#[cfg(test)]
mod tests {
    use super::{Json, MAX_DEPTH, check, parse};
    use proptest::prelude::*;

    /// The same document as `serde_json` reads it.
    fn same(json: &Json, value: &serde_json::Value) -> bool {
        use serde_json::Value as V;
        match (json, value) {
            (Json::Null, V::Null) => true,
            (Json::Bool(a), V::Bool(b)) => a == b,
            (Json::Number(a), V::Number(b)) => {
                // serde_json's default float parsing may differ from Rust's in the last bit.
                let close = match (a.parse::<f64>(), b.as_f64()) {
                    (Ok(x), Some(y)) => (x - y).abs() <= x.abs().max(y.abs()) * 1e-15,
                    _ => false,
                };
                close
                    || b.as_i64().is_some_and(|b| a == &b.to_string())
                    || b.as_u64().is_some_and(|b| a == &b.to_string())
            }
            (Json::Str(a), V::String(b)) => a == b,
            (Json::Array(a), V::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
            }
            (Json::Object(a), V::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|b| same(v, b)))
            }
            _ => false,
        }
    }

    #[test]
    fn reads_every_kind_of_value() {
        let doc = r#" {"a": [1, -2, 3.5e-1, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": []} "#;
        let v: serde_json::Value = serde_json::from_str(doc).unwrap();
        assert!(same(&parse(doc).unwrap(), &v));
        let Json::Object(m) = parse(doc).unwrap() else {
            panic!("an object")
        };
        let Json::Array(a) = &m[0].1 else {
            panic!("an array")
        };
        assert_eq!(
            a[6],
            Json::Str("x\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1f600}".into())
        );
    }

    #[test]
    fn rejects_what_serde_json_rejects() {
        for bad in [
            "",
            " ",
            "{",
            "[",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a: 1}",
            "01",
            "1.",
            "1e",
            "-",
            "+1",
            ".5",
            "tru",
            "nul",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"a\u{0}\"",
            "\"abc",
            "[1 2]",
            "{} x",
            "{}{}",
            "NaN",
            "Infinity",
            "é",
            "[1, é]",
            "{\"a\": é}",
            "\n\n€",
            "'a'",
            "[1,,2]",
            "{\"a\":1 \"b\":2}",
            "\"\\",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was read");
            assert!(
                serde_json::from_str::<serde_json::Value>(bad).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn nesting_is_limited() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(parse(&deep).unwrap_err().message.contains("recursion"));
        // Far deeper than the stack would allow without the limit.
        assert!(parse(&"[".repeat(1_000_000)).is_err());
        assert!(check(&"[".repeat(1_000_000)).is_err());
        assert!(check(&deep).is_err() && check(&ok).is_ok());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("{\n  \"a\": tru }").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, "expected ident"));
        assert!(e.to_string().ends_with("at line 2 column 11"), "{e}");
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value as V;
        let leaf = prop_oneof![
            Just(V::Null),
            any::<bool>().prop_map(V::Bool),
            any::<i64>().prop_map(V::from),
            any::<u64>().prop_map(V::from),
            (-1e300..1e300f64).prop_map(V::from),
            any::<String>().prop_map(V::String),
        ];
        leaf.prop_recursive(6, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(V::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..8)
                    .prop_map(|m| V::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            let text = String::from_utf8_lossy(&bytes);
            let ours = parse(&text);
            let theirs = serde_json::from_str::<serde_json::Value>(&text);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}", text);
            prop_assert_eq!(check(&text).is_ok(), theirs.is_ok(), "{:?}", text);
        }

        #[test]
        fn json_like_text_never_panics(text in "[\\[\\]{}\",:0-9a-z\\\\.eE+ -]{0,40}") {
            let ours = parse(&text);
            let theirs = serde_json::from_str::<serde_json::Value>(&text);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}", text);
            prop_assert_eq!(check(&text).is_ok(), theirs.is_ok(), "{:?}", text);
        }

        #[test]
        fn reads_serde_json_documents(value in json_value(), pretty in any::<bool>()) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            let read = parse(&text).unwrap();
            prop_assert!(same(&read, &value), "{}", text);
        }
    }
}
