//! Byte sizes such as `8G`, `8GiB`, `8192M`, `1.5G`, `512MiB` or `8 GB`.
//!
//! This is the one parser for sizes: the CLI, the web form and the wasm module all call
//! [`ByteSize::from_str`]. Units are binary (`G` = `GiB` = 2³⁰ bytes), as in nginx and in
//! the output of `free`; a bare number is a count of bytes.

use std::fmt;
use std::str::FromStr;

/// A size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteSize(u64);

/// Why a size string was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeError {
    /// Nothing but white space.
    Empty,
    /// A leading minus sign.
    Negative,
    /// No digits where the number should be, or a malformed number.
    NotANumber,
    /// A suffix that is not one of the known units.
    UnknownUnit(String),
    /// More bytes than fit in 64 bits.
    TooLarge,
}

impl SizeError {
    /// The error as a message of the input registry, for translations.
    pub fn msg(&self) -> crate::inputs::Msg {
        use crate::inputs::texts::{
            SIZE_EMPTY, SIZE_NEGATIVE, SIZE_NOT_NUMBER, SIZE_TOO_LARGE, SIZE_UNIT,
        };
        use crate::inputs::{Arg, Msg};
        match self {
            Self::Empty => Msg::of(&SIZE_EMPTY),
            Self::Negative => Msg::of(&SIZE_NEGATIVE),
            Self::NotANumber => Msg::of(&SIZE_NOT_NUMBER),
            Self::UnknownUnit(u) => {
                let shown = crate::inputs::printable_up_to(u, 16);
                Msg::with(&SIZE_UNIT, vec![("unit", Arg::Value(shown))])
            }
            Self::TooLarge => Msg::of(&SIZE_TOO_LARGE),
        }
    }
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg().text(crate::i18n::Catalogue::english()))
    }
}

const KIB: u64 = 1024;
const MIB: u64 = KIB * 1024;
const GIB: u64 = MIB * 1024;
const TIB: u64 = GIB * 1024;

impl ByteSize {
    /// One kibibyte.
    pub const KIB: Self = Self(KIB);
    /// One mebibyte.
    pub const MIB: Self = Self(MIB);
    /// One gibibyte.
    pub const GIB: Self = Self(GIB);
    /// One tebibyte.
    pub const TIB: Self = Self(TIB);

    /// A size of `n` bytes.
    pub const fn bytes(n: u64) -> Self {
        Self(n)
    }
    /// A size of `n` KiB.
    pub const fn kib(n: u64) -> Self {
        Self(n * KIB)
    }
    /// A size of `n` MiB.
    pub const fn mib(n: u64) -> Self {
        Self(n * MIB)
    }
    /// A size of `n` GiB.
    pub const fn gib(n: u64) -> Self {
        Self(n * GIB)
    }
    /// The size in bytes.
    pub const fn as_u64(self) -> u64 {
        self.0
    }
    /// The size in whole KiB, rounded down.
    pub const fn as_kib(self) -> u64 {
        self.0 / KIB
    }
    /// The size in whole MiB, rounded down.
    pub const fn as_mib(self) -> u64 {
        self.0 / MIB
    }

    /// The size in nginx syntax (`4k`, `16m`, `1g`), which nginx accepts only in whole
    /// units; `None` when it is not a whole number of KiB.
    pub fn nginx(self) -> Option<String> {
        let n = self.0;
        if n == 0 {
            return Some("0".into());
        }
        for (unit, suffix) in [(GIB, "g"), (MIB, "m"), (KIB, "k")] {
            if n.is_multiple_of(unit) {
                let mut text = crate::digits::keyed("", n / unit);
                text.push_str(suffix);
                return Some(text);
            }
        }
        None
    }
}

impl FromStr for ByteSize {
    type Err = SizeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(SizeError::Empty);
        }
        if s.starts_with('-') {
            return Err(SizeError::Negative);
        }
        let s = s.strip_prefix('+').unwrap_or(s);
        let split = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let (number, unit) = s.split_at(split);
        let multiplier = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1,
            "k" | "kb" | "kib" => KIB,
            "m" | "mb" | "mib" => MIB,
            "g" | "gb" | "gib" => GIB,
            "t" | "tb" | "tib" => TIB,
            _ => return Err(SizeError::UnknownUnit(unit.trim().to_owned())),
        };
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() && fraction.is_empty()
            || !all_digits(whole)
            || !all_digits(fraction)
            || fraction.len() > 9
        {
            return Err(SizeError::NotANumber);
        }
        // Exact integer arithmetic: value = whole × multiplier + ⌊fraction × multiplier / 10^k⌋,
        // the second term as fraction × q + ⌊fraction × r / 10^k⌋ with multiplier = q × 10^k
        // + r, so that no product leaves u64 (fraction < 10^k ≤ 10^9, r < 10^k).
        let whole = if whole.is_empty() {
            0
        } else {
            crate::digits::parse_u64(whole).ok_or(SizeError::TooLarge)?
        };
        let scale = 10u64.pow(fraction.len() as u32);
        let fraction = if fraction.is_empty() {
            0
        } else {
            crate::digits::parse_u64(fraction).ok_or(SizeError::NotANumber)?
        };
        let (q, r) = (multiplier / scale, multiplier % scale);
        whole
            .checked_mul(multiplier)
            .and_then(|w| w.checked_add(fraction * q + fraction * r / scale))
            .map(Self)
            .ok_or(SizeError::TooLarge)
    }
}

/// Compact form that parses back to the same value: `8G`, `1536M`, `512K`, `1000`.
impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // By the digit loop: the plan writes sizes on every keystroke.
        let n = self.0;
        let (n, suffix) = [(TIB, "T"), (GIB, "G"), (MIB, "M"), (KIB, "K")]
            .into_iter()
            .find(|&(unit, _)| n >= unit && n.is_multiple_of(unit))
            .map_or((n, ""), |(unit, suffix)| (n / unit, suffix));
        let mut text = crate::digits::keyed("", n);
        text.push_str(suffix);
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! parses {
        ($($name:ident: $input:expr => $bytes:expr,)*) => {$(
            #[test]
            fn $name() {
                assert_eq!($input.parse::<ByteSize>().map(ByteSize::as_u64), Ok($bytes));
            }
        )*};
    }

    parses! {
        giga_short: "8G" => 8 * GIB,
        giga_iec: "8GiB" => 8 * GIB,
        mega: "8192M" => 8 * GIB,
        fraction: "1.5G" => 3 * GIB / 2,
        mib: "512MiB" => 512 * MIB,
        spaced: "8 GB" => 8 * GIB,
        lower: "8g" => 8 * GIB,
        bare_bytes: "4096" => 4096,
        leading_dot: ".5K" => 512,
        tera: "16T" => 16 * TIB,
    }

    #[test]
    fn rejects_what_it_cannot_read() {
        assert_eq!(
            "8Q".parse::<ByteSize>(),
            Err(SizeError::UnknownUnit("Q".into()))
        );
        assert_eq!("-1G".parse::<ByteSize>(), Err(SizeError::Negative));
        assert_eq!("".parse::<ByteSize>(), Err(SizeError::Empty));
        assert_eq!("G".parse::<ByteSize>(), Err(SizeError::NotANumber));
        assert_eq!("1.2.3G".parse::<ByteSize>(), Err(SizeError::NotANumber));
        assert_eq!("99999999999T".parse::<ByteSize>(), Err(SizeError::TooLarge));
    }

    proptest::proptest! {
        /// Exact: ⌊(whole + fraction / 10^k) × unit⌋, as computed over `u128`, or TooLarge.
        #[test]
        fn fractions_are_exact(
            whole in proptest::prop_oneof![0u64..20_000, proptest::prelude::any::<u64>()],
            fraction in "[0-9]{0,9}",
            unit in proptest::sample::select(vec![("", 1u64), ("K", KIB), ("M", MIB), ("G", GIB), ("T", TIB)]),
        ) {
            let text = format!("{whole}.{fraction}{}", unit.0);
            let scale = 10u128.pow(fraction.len() as u32);
            let f: u128 = if fraction.is_empty() { 0 } else { fraction.parse().unwrap() };
            let exact = u128::from(whole) * u128::from(unit.1) + f * u128::from(unit.1) / scale;
            let want = u64::try_from(exact).map(ByteSize).map_err(|_| SizeError::TooLarge);
            proptest::prop_assert_eq!(text.parse::<ByteSize>(), want);
        }
    }

    #[test]
    fn display_round_trips() {
        for s in ["8G", "1536M", "512K", "1000", "16T"] {
            assert_eq!(s.parse::<ByteSize>().unwrap().to_string(), s);
        }
    }
}
