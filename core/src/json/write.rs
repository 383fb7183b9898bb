//! A small JSON writer for the one document core writes: the plan (`--format json`,
//! [`crate::render::json`]).
//!
//! Written by hand rather than with `serde_json`'s serializer: the derived `Serialize`
//! impls with `serde_json`'s pretty printer (and the flattening machinery the document
//! uses) were 5 KB of the page's compressed first load. The output is byte for byte what
//! `serde_json::to_string_pretty` writes for the same document — two-space indent, `[]` and
//! `{}` when empty, the same string escapes — which the tests check against `serde_json`
//! on generated plans (the types keep their serde derives: they describe the schema for
//! TypeScript and are the tests' oracle).

/// A value that writes itself as JSON.
pub trait ToJson {
    /// Writes the value at the writer's position.
    fn write_json(&self, w: &mut Writer);
}

/// Pretty-printed JSON being written.
#[derive(Debug, Default)]
pub struct Writer {
    out: String,
    depth: usize,
    /// Whether the array or object being written has a member yet.
    has_value: bool,
}

impl Writer {
    /// The document written so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// Opens an array or object; `close` ends it after `body` wrote its members.
    fn nested(&mut self, open: char, close: char, body: &mut dyn FnMut(&mut Self)) {
        self.out.push(open);
        self.depth += 1;
        let outer = std::mem::replace(&mut self.has_value, false);
        body(self);
        self.depth -= 1;
        if self.has_value {
            self.newline();
        }
        self.out.push(close);
        self.has_value = outer;
    }

    /// Starts a member: a comma after the previous one, a new line, the indent.
    fn member(&mut self) {
        if self.has_value {
            self.out.push(',');
        }
        self.newline();
        self.has_value = true;
    }

    /// An object whose members `body` writes with [`Writer::field`].
    pub fn object(&mut self, mut body: impl FnMut(&mut Self)) {
        self.nested('{', '}', &mut body);
    }

    /// An array of `items`.
    pub fn array<T: ToJson>(&mut self, items: impl IntoIterator<Item = T>) {
        let mut items = items.into_iter();
        self.nested('[', ']', &mut |w| {
            for item in items.by_ref() {
                w.member();
                item.write_json(w);
            }
        });
    }

    /// One member of the object being written.
    pub fn field<T: ToJson + ?Sized>(&mut self, key: &str, value: &T) {
        self.key(key);
        value.write_json(self);
    }

    /// A member's key.
    fn key(&mut self, key: &str) {
        self.member();
        self.string(key);
        self.out.push_str(": ");
    }

    /// A member that is left out when it is `None`.
    pub fn field_some<T: ToJson>(&mut self, key: &str, value: Option<&T>) {
        if let Some(value) = value {
            self.field(key, value);
        }
    }

    /// A string, escaped as `serde_json` escapes it: `"` and `\`, the control characters
    /// (short forms where JSON has them, `\u00XX` otherwise); everything else as it is.
    pub fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.out.push('"');
        let mut start = 0;
        for (i, b) in s.bytes().enumerate() {
            let short = match b {
                b'"' => '"',
                b'\\' => '\\',
                b'\n' => 'n',
                b'\r' => 'r',
                b'\t' => 't',
                0x08 => 'b',
                0x0c => 'f',
                0x00..=0x1f => 'u',
                _ => continue,
            };
            self.out.push_str(&s[start..i]);
            self.out.push('\\');
            self.out.push(short);
            if short == 'u' {
                self.out.push_str("00");
                self.out.push(char::from(HEX[usize::from(b >> 4)]));
                self.out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
            start = i + 1;
        }
        self.out.push_str(&s[start..]);
        self.out.push('"');
    }

    /// A raw token: a number or a literal.
    fn token(&mut self, text: &str) {
        self.out.push_str(text);
    }
}

impl ToJson for str {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl ToJson for String {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, w: &mut Writer) {
        (**self).write_json(w);
    }
}

impl ToJson for bool {
    fn write_json(&self, w: &mut Writer) {
        w.token(if *self { "true" } else { "false" });
    }
}

macro_rules! numbers {
    ($($t:ty)*) => {$(
        impl ToJson for $t {
            fn write_json(&self, w: &mut Writer) {
                w.token(&self.to_string());
            }
        }
    )*};
}
numbers!(u32 u64 i64);

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
}

/// `value` as pretty-printed JSON.
pub fn to_string_pretty<T: ToJson + ?Sized>(value: &T) -> String {
    let mut w = Writer::default();
    value.write_json(&mut w);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A JSON value built from the writer's building blocks.
    #[derive(Debug, Clone)]
    enum V {
        Str(String),
        Num(u64),
        Neg(i64),
        Bool(bool),
        Arr(Vec<V>),
        Obj(Vec<(String, V)>),
    }

    impl ToJson for V {
        fn write_json(&self, w: &mut Writer) {
            match self {
                V::Str(s) => w.string(s),
                V::Num(n) => n.write_json(w),
                V::Neg(n) => n.write_json(w),
                V::Bool(b) => b.write_json(w),
                V::Arr(items) => w.array(items),
                V::Obj(members) => w.object(|w| {
                    for (k, v) in members {
                        w.field(k, v);
                    }
                }),
            }
        }
    }

    impl serde::Serialize for V {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            match self {
                V::Str(v) => s.serialize_str(v),
                V::Num(n) => s.serialize_u64(*n),
                V::Neg(n) => s.serialize_i64(*n),
                V::Bool(b) => s.serialize_bool(*b),
                V::Arr(items) => s.collect_seq(items),
                V::Obj(members) => {
                    let mut map = s.serialize_map(Some(members.len()))?;
                    for (k, v) in members {
                        map.serialize_entry(k, v)?;
                    }
                    map.end()
                }
            }
        }
    }

    fn value() -> impl Strategy<Value = V> {
        let leaf = prop_oneof![
            any::<String>().prop_map(V::Str),
            "[\\x00-\\x20\"\\\\/\u{7f}é€😀]{0,8}".prop_map(V::Str),
            any::<u64>().prop_map(V::Num),
            any::<i64>().prop_map(V::Neg),
            any::<bool>().prop_map(V::Bool),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(V::Arr),
                prop::collection::vec(("[a-z_\"\\n]{0,6}", inner), 0..5).prop_map(V::Obj),
            ]
        })
    }

    proptest! {
        #[test]
        fn writes_what_serde_json_writes(v in value()) {
            prop_assert_eq!(to_string_pretty(&v), serde_json::to_string_pretty(&v).unwrap());
        }
    }

    #[test]
    fn empty_containers_and_escapes() {
        let v = V::Obj(vec![
            ("a".into(), V::Arr(vec![])),
            ("b".into(), V::Obj(vec![])),
            (
                "c".into(),
                V::Str("\u{1}\u{8}\u{c}\u{1f}\"\\/\u{7f}".into()),
            ),
        ]);
        let text = to_string_pretty(&v);
        assert_eq!(
            text,
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": \"\\u0001\\b\\f\\u001f\\\"\\\\/\u{7f}\"\n}"
        );
        assert_eq!(text, serde_json::to_string_pretty(&v).unwrap());
    }
}
