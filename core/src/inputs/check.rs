//! Reading one raw value into its typed form, driven by the registry's [`Kind`]: the
//! range that is checked is the range the message states.

use std::fmt::Display;
use std::str::FromStr;

use crate::size::ByteSize;
use crate::version::Version;

use super::raw::printable;
use super::spec::{DefaultValue, Input, Kind};
use super::texts::{self, Arg, Msg, value};
use super::values::{
    AccessLog, Cache, Cdn, Hsts, Lang, Layout, Listen, PhpVersion, PolicyVersion, Release,
    Resolver, SafePath, Target, TlsProfile, Workload,
};
use super::{InputError, Scalar, limits};

/// Collects validation errors while reading fields one by one.
#[derive(Debug, Default)]
pub(crate) struct Checker {
    pub(crate) errors: Vec<InputError>,
}

impl Checker {
    pub(crate) fn fail(&mut self, field: &str, message: Msg, accepted: Msg) {
        self.errors.push(InputError::new(field, message, accepted));
    }

    /// A registry entry whose kind does not fit its field's type: a bug in the table,
    /// reported like an input error rather than a panic (a test keeps it from happening).
    fn wrong_kind<T>(&mut self, spec: &Input) -> Option<T> {
        self.fail(
            spec.name,
            Msg::of(&texts::REGISTRY_KIND),
            spec.kind.accepted_msg(),
        );
        None
    }

    fn number(&mut self, spec: &Input, raw: &Scalar) -> Option<u32> {
        let Kind::Int { min, max } = spec.kind else {
            return self.wrong_kind(spec);
        };
        let value = match raw {
            Scalar::Int(n) => Some(*n),
            Scalar::Text(t) => crate::digits::parse_i64(t.trim()),
        };
        match value {
            Some(n) if (i64::from(min)..=i64::from(max)).contains(&n) => u32::try_from(n).ok(),
            Some(n) => {
                self.fail(
                    spec.name,
                    Msg::with(&texts::OUT_OF_RANGE, vec![("value", texts::value(n))]),
                    spec.kind.accepted_msg(),
                );
                None
            }
            None => {
                let text = match raw {
                    Scalar::Text(t) => t.as_str(),
                    Scalar::Int(_) => "",
                };
                self.fail(
                    spec.name,
                    Msg::with(
                        &texts::NOT_WHOLE,
                        vec![("value", texts::value(printable(text)))],
                    ),
                    spec.kind.accepted_msg(),
                );
                None
            }
        }
    }

    fn size(&mut self, spec: &Input, text: &str) -> Option<ByteSize> {
        let Kind::Size { min, max } = spec.kind else {
            return self.wrong_kind(spec);
        };
        match text.parse::<ByteSize>() {
            Ok(size) if (min..=max).contains(&size) => Some(size),
            Ok(_) => {
                let message = Msg::with(
                    &texts::OUT_OF_RANGE_QUOTED,
                    vec![("value", value(printable(text)))],
                );
                self.fail(spec.name, message, spec.kind.accepted_msg());
                None
            }
            Err(e) => {
                let message = invalid(text, Arg::Msg(Box::new(e.msg())));
                self.fail(spec.name, message, spec.kind.accepted_msg());
                None
            }
        }
    }

    fn version(&mut self, spec: &Input, text: &str) -> Option<Target> {
        let Kind::Version { min } = spec.kind else {
            return self.wrong_kind(spec);
        };
        if text.trim().eq_ignore_ascii_case("any") {
            return Some(Target::Any);
        }
        match text.parse::<Version>() {
            Ok(v) if v >= min && v.major < 10 => Some(Target::Known(v)),
            Ok(v) => {
                self.fail(
                    spec.name,
                    Msg::with(&texts::UNSUPPORTED, vec![("value", value(v))]),
                    spec.kind.accepted_msg(),
                );
                None
            }
            Err(e) => {
                let message = invalid(text, Arg::Msg(Box::new(Msg::english(&e.to_string()))));
                self.fail(spec.name, message, spec.kind.accepted_msg());
                None
            }
        }
    }

    fn choice<T: FromStr>(&mut self, spec: &Input, text: &str) -> Option<T> {
        if !matches!(spec.kind, Kind::Choice(_)) {
            return self.wrong_kind(spec);
        }
        text.parse().ok().or_else(|| {
            let message = Msg::with(
                &texts::UNKNOWN_CHOICE,
                vec![("value", value(printable(text)))],
            );
            self.fail(spec.name, message, spec.kind.accepted_msg());
            None
        })
    }

    fn parsed<T: FromStr<Err = &'static str>>(&mut self, spec: &Input, text: &str) -> Option<T> {
        text.parse()
            .map_err(|e| {
                let message = invalid(text, Arg::Msg(Box::new(Msg::english(e))));
                self.fail(spec.name, message, spec.kind.accepted_msg());
            })
            .ok()
    }

    fn list<T: FromStr<Err = &'static str> + PartialEq>(
        &mut self,
        spec: &Input,
        items: &[String],
    ) -> Option<Vec<T>> {
        if !self.list_fits(spec, items) {
            return None;
        }
        let before = self.errors.len();
        let mut out: Vec<T> = Vec::with_capacity(items.len());
        for item in items {
            if let Some(v) = self.parsed::<T>(spec, item) {
                if out.contains(&v) {
                    self.twice(spec, item);
                } else {
                    out.push(v);
                }
            }
        }
        (self.errors.len() == before).then_some(out)
    }

    /// Whether `items` is a list of the accepted length (else the error is recorded). Apart
    /// from [`Checker::list`], which is generic, so that each list type does not repeat it.
    fn list_fits(&mut self, spec: &Input, items: &[String]) -> bool {
        if !matches!(spec.kind, Kind::List { .. }) {
            let _: Option<()> = self.wrong_kind(spec);
            return false;
        }
        if items.is_empty() || items.len() > limits::LIST_MAX {
            self.fail(
                spec.name,
                Msg::with(&texts::ENTRIES, vec![("count", value(items.len()))]),
                Msg::with(
                    &texts::ACCEPTED_LIST,
                    vec![
                        ("max", value(limits::LIST_MAX)),
                        ("accepted", Arg::Msg(Box::new(spec.kind.accepted_msg()))),
                    ],
                ),
            );
            return false;
        }
        true
    }

    /// Records an entry given twice.
    fn twice(&mut self, spec: &Input, item: &str) {
        let message = Msg::with(&texts::TWICE, vec![("value", value(printable(item)))]);
        self.fail(spec.name, message, spec.kind.accepted_msg());
    }
}

/// `'value': reason`, the message of a value its type's parser rejected.
fn invalid(text: &str, reason: Arg) -> Msg {
    Msg::with(
        &texts::INVALID,
        vec![("value", value(printable(text))), ("reason", reason)],
    )
}

/// The type of a field of [`super::Inputs`]: how its raw value is checked, what its
/// registry default is and how it is written back.
pub(crate) trait Value: Sized {
    /// The field's type in [`super::RawInputs`] (inside its `Option`).
    type Raw;
    /// Checks a given value; a problem is recorded in `c` and gives `None`.
    fn check(spec: &Input, raw: &Self::Raw, c: &mut Checker) -> Option<Self>;
    /// The raw value that gives this one back; `None` for "not given".
    fn to_raw(&self) -> Option<Self::Raw>;
    /// The registry's default; a default that does not validate is recorded in `c`.
    fn default_of(spec: &Input, c: &mut Checker) -> Option<Self> {
        let raw = Self::default_raw(spec);
        let checked = raw.as_ref().and_then(|raw| Self::check(spec, raw, c));
        if checked.is_none() {
            c.fail(
                spec.name,
                Msg::of(&texts::BAD_DEFAULT),
                spec.kind.accepted_msg(),
            );
        }
        checked
    }
    /// The registry's default in raw form.
    fn default_raw(spec: &Input) -> Option<Self::Raw>;
}

fn default_text(spec: &Input) -> Option<&'static str> {
    match spec.default {
        DefaultValue::Value(text) => Some(text),
        DefaultValue::List(_) | DefaultValue::Unset(_) => None,
    }
}

impl Value for u32 {
    type Raw = Scalar;
    fn check(spec: &Input, raw: &Scalar, c: &mut Checker) -> Option<Self> {
        c.number(spec, raw)
    }
    fn to_raw(&self) -> Option<Scalar> {
        Some((*self).into())
    }
    fn default_raw(spec: &Input) -> Option<Scalar> {
        default_text(spec).map(|t| Scalar::Text(t.to_owned()))
    }
}

impl Value for u16 {
    type Raw = Scalar;
    fn check(spec: &Input, raw: &Scalar, c: &mut Checker) -> Option<Self> {
        let n = c.number(spec, raw)?;
        Self::try_from(n).ok().or_else(|| {
            c.fail(
                spec.name,
                Msg::with(&texts::OUT_OF_RANGE, vec![("value", texts::value(n))]),
                Msg::with(
                    &texts::ACCEPTED_INT,
                    vec![("min", value(0)), ("max", value(u16::MAX))],
                ),
            );
            None
        })
    }
    fn to_raw(&self) -> Option<Scalar> {
        Some(u32::from(*self).into())
    }
    fn default_raw(spec: &Input) -> Option<Scalar> {
        u32::default_raw(spec)
    }
}

/// A number that may be left out (the output then derives it).
impl Value for Option<u32> {
    type Raw = Scalar;
    fn check(spec: &Input, raw: &Scalar, c: &mut Checker) -> Option<Self> {
        c.number(spec, raw).map(Some)
    }
    fn to_raw(&self) -> Option<Scalar> {
        self.map(Scalar::from)
    }
    fn default_of(_: &Input, _: &mut Checker) -> Option<Self> {
        Some(None)
    }
    fn default_raw(_: &Input) -> Option<Scalar> {
        None
    }
}

/// Lists that may be left out: `None` is the default (no entries).
impl<T: FromStr<Err = &'static str> + PartialEq + Display> Value for Option<Vec<T>> {
    type Raw = Vec<String>;
    fn check(spec: &Input, raw: &Vec<String>, c: &mut Checker) -> Option<Self> {
        c.list(spec, raw).map(Some)
    }
    fn to_raw(&self) -> Option<Vec<String>> {
        self.as_ref()
            .map(|items| items.iter().map(ToString::to_string).collect())
    }
    fn default_of(_: &Input, _: &mut Checker) -> Option<Self> {
        Some(None)
    }
    fn default_raw(_: &Input) -> Option<Vec<String>> {
        None
    }
}

/// Text values that may be left out: `None` is the default (the running policy; the
/// layout's or the host's DNS server).
macro_rules! optional_text_value {
    ($($ty:ty),* $(,)?) => {$(
        impl Value for Option<$ty> {
            type Raw = String;
            fn check(spec: &Input, raw: &String, c: &mut Checker) -> Option<Self> {
                c.text(spec, raw).map(Some)
            }
            fn to_raw(&self) -> Option<String> {
                self.as_ref().map(ToString::to_string)
            }
            fn default_of(_: &Input, _: &mut Checker) -> Option<Self> {
                Some(None)
            }
            fn default_raw(_: &Input) -> Option<String> {
                None
            }
        }
    )*};
}

optional_text_value!(PolicyVersion, Resolver);

/// A path that may be left out (the output then uses the usual one).
impl Value for Option<SafePath> {
    type Raw = String;
    fn check(spec: &Input, raw: &String, c: &mut Checker) -> Option<Self> {
        if spec.kind != Kind::Path {
            return c.wrong_kind(spec);
        }
        c.parsed(spec, raw).map(Some)
    }
    fn to_raw(&self) -> Option<String> {
        self.as_ref().map(ToString::to_string)
    }
    fn default_of(_: &Input, _: &mut Checker) -> Option<Self> {
        Some(None)
    }
    fn default_raw(_: &Input) -> Option<String> {
        None
    }
}

impl Value for bool {
    type Raw = bool;
    fn check(spec: &Input, raw: &bool, c: &mut Checker) -> Option<Self> {
        if spec.kind != Kind::Bool {
            return c.wrong_kind(spec);
        }
        Some(*raw)
    }
    fn to_raw(&self) -> Option<bool> {
        Some(*self)
    }
    fn default_raw(spec: &Input) -> Option<bool> {
        default_text(spec).and_then(|t| t.parse().ok())
    }
}

/// Values read from text by a method of [`Checker`] and written back with `Display`.
macro_rules! text_value {
    ($($ty:ty => $method:ident),* $(,)?) => {$(
        impl Value for $ty {
            type Raw = String;
            fn check(spec: &Input, raw: &String, c: &mut Checker) -> Option<Self> {
                c.$method(spec, raw)
            }
            fn to_raw(&self) -> Option<String> {
                Some(self.to_string())
            }
            fn default_raw(spec: &Input) -> Option<String> {
                default_text(spec).map(str::to_owned)
            }
        }
    )*};
}

text_value! {
    ByteSize => size,
    Target => version,
    Workload => choice,
    Release => choice,
    TlsProfile => choice,
    AccessLog => choice,
    Hsts => choice,
    Cache => choice,
    PhpVersion => choice,
    Cdn => choice,
    Layout => choice,
    Lang => choice,
    Listen => text,
}

impl Checker {
    fn text<T: FromStr<Err = &'static str>>(&mut self, spec: &Input, text: &str) -> Option<T> {
        if !matches!(spec.kind, Kind::Text { .. }) {
            return self.wrong_kind(spec);
        }
        self.parsed(spec, text)
    }
}

impl<T: FromStr<Err = &'static str> + PartialEq + Display> Value for Vec<T> {
    type Raw = Vec<String>;
    fn check(spec: &Input, raw: &Vec<String>, c: &mut Checker) -> Option<Self> {
        c.list(spec, raw)
    }
    fn to_raw(&self) -> Option<Vec<String>> {
        Some(self.iter().map(ToString::to_string).collect())
    }
    fn default_raw(spec: &Input) -> Option<Vec<String>> {
        match spec.default {
            DefaultValue::List(items) => Some(items.iter().map(|s| (*s).to_owned()).collect()),
            DefaultValue::Value(_) | DefaultValue::Unset(_) => None,
        }
    }
}
