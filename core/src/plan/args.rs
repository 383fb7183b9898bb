//! A setting's arguments, borrowed from the rule when they are fixed.

use std::borrow::Cow;

use serde::Serialize;

/// A setting's arguments: a fixed list is borrowed whole (most settings: no allocation per
/// plan), computed ones are owned.
#[derive(Debug, Clone)]
pub enum Args {
    /// Fixed text, the same in every plan.
    Fixed(&'static [&'static str]),
    /// One computed value.
    One(Cow<'static, str>),
    /// Computed values (and any fixed words among them).
    Computed(Vec<Cow<'static, str>>),
}

impl Args {
    /// The arguments in order.
    pub fn iter(&self) -> ArgsIter<'_> {
        let (fixed, computed): (&[&str], &[Cow<'static, str>]) = match self {
            Self::Fixed(args) => (args, &[]),
            Self::One(arg) => (&[], std::slice::from_ref(arg)),
            Self::Computed(args) => (&[], args),
        };
        let as_str: for<'a> fn(&'a Cow<'static, str>) -> &'a str = |arg| arg;
        fixed.iter().copied().chain(computed.iter().map(as_str))
    }

    /// How many arguments.
    pub fn len(&self) -> usize {
        match self {
            Self::Fixed(args) => args.len(),
            Self::One(_) => 1,
            Self::Computed(args) => args.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Argument `i`.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.iter().nth(i)
    }

    /// The first argument.
    pub fn first(&self) -> Option<&str> {
        self.get(0)
    }

    /// The arguments joined by `sep`.
    pub fn join(&self, sep: &str) -> String {
        let mut out = String::new();
        for (i, arg) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(arg);
        }
        out
    }
}

/// The arguments of an [`Args`], in order: the fixed ones, then the computed ones (one of
/// the two is empty).
pub type ArgsIter<'a> = std::iter::Chain<
    std::iter::Copied<std::slice::Iter<'a, &'a str>>,
    std::iter::Map<std::slice::Iter<'a, Cow<'static, str>>, fn(&'a Cow<'static, str>) -> &'a str>,
>;

impl<'a> IntoIterator for &'a Args {
    type Item = &'a str;
    type IntoIter = ArgsIter<'a>;

    fn into_iter(self) -> ArgsIter<'a> {
        self.iter()
    }
}

impl std::ops::Index<usize> for Args {
    type Output = str;

    /// Argument `i`; panics when there is none, as a slice does.
    fn index(&self, i: usize) -> &str {
        match self {
            Self::Fixed(args) => args[i],
            Self::One(arg) => std::slice::from_ref(arg)[i].as_ref(),
            Self::Computed(args) => &args[i],
        }
    }
}

impl PartialEq for Args {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Args {}

impl<const N: usize> PartialEq<[&str; N]> for Args {
    fn eq(&self, other: &[&str; N]) -> bool {
        self.iter().eq(other.iter().copied())
    }
}

impl Serialize for Args {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_read_alike_however_they_are_held() {
        let fixed = Args::Fixed(&["off", "64k"]);
        let computed = Args::Computed(vec!["off".into(), String::from("64k").into()]);
        let one = Args::One(String::from("512").into());
        assert_eq!(fixed, computed);
        assert_eq!(fixed, ["off", "64k"]);
        assert_eq!(one, ["512"]);
        assert_ne!(one, Args::Fixed(&["512", "x"]));
        for args in [&fixed, &computed] {
            assert_eq!(
                (args.len(), args.first(), args.get(1), args.get(2)),
                (2, Some("off"), Some("64k"), None)
            );
            assert_eq!(&args[1], "64k");
            assert_eq!(args.join(" "), "off 64k");
            assert_eq!(serde_json::to_string(args).unwrap(), r#"["off","64k"]"#);
        }
        assert_eq!(
            (one.len(), one.first(), one.get(1), &one[0]),
            (1, Some("512"), None, "512")
        );
        assert!(Args::Fixed(&[]).is_empty());
    }
}
