//! Whole numbers written in decimal without `core::fmt`: the plan writes a few hundred of
//! them per keystroke, and the formatting machinery costs instructions and WebAssembly
//! bytes that a digit loop does not. Read back without `str::parse` too: the standard
//! library's parser is generic, and each integer type read with it was another 300–650 B
//! of the page's `.wasm`.

/// Appends `n` in decimal.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// `key` followed by `n`: `backlog=` and 4096 give `backlog=4096`.
pub(crate) fn keyed(key: &str, n: u64) -> String {
    let mut out = String::with_capacity(key.len() + 20);
    out.push_str(key);
    push_u64(&mut out, n);
    out
}

/// `s` read as `str::parse::<u64>` reads it: ASCII digits after an optional `+`, `None` when
/// empty, anything else or too large.
pub(crate) fn parse_u64(s: &str) -> Option<u64> {
    let digits = s.strip_prefix('+').unwrap_or(s);
    if digits.is_empty() {
        return None;
    }
    digits.bytes().try_fold(0u64, |n, b| {
        let digit = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        n.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// `s` read as `str::parse::<i64>` reads it: [`parse_u64`] after an optional `-` or `+`.
pub(crate) fn parse_i64(s: &str) -> Option<i64> {
    match s.strip_prefix('-') {
        Some(digits) if !digits.starts_with('+') => 0i64.checked_sub_unsigned(parse_u64(digits)?),
        _ => i64::try_from(parse_u64(s)?).ok(),
    }
}

/// `s` read as `str::parse` reads a `u8`, `u16` or `u32`: [`parse_u64`] within its range.
pub(crate) fn parse_as<T: TryFrom<u64>>(s: &str) -> Option<T> {
    T::try_from(parse_u64(s)?).ok()
}

#[cfg(test)]
mod tests {
    use super::{keyed, parse_as, parse_i64, parse_u64, push_u64};
    use proptest::prelude::*;

    proptest! {
        /// The same answers as the standard library's parser, on numbers near every edge
        /// and on anything else.
        #[test]
        fn reads_as_str_parse_does(
            s in prop_oneof![
                "[+-]{0,2}[0-9]{0,21}",
                "[+-]?(9223372036854775[0-9]{3}|1844674407370955[0-9]{4})",
                "[+-]?(25[0-9]|6553[0-9]|429496729[0-9])",
                "[ +\\-0-9a.]{0,6}",
                any::<String>(),
            ]
        ) {
            prop_assert_eq!(parse_u64(&s), s.parse::<u64>().ok());
            prop_assert_eq!(parse_i64(&s), s.parse::<i64>().ok());
            prop_assert_eq!(parse_as::<u8>(&s), s.parse::<u8>().ok());
            prop_assert_eq!(parse_as::<u16>(&s), s.parse::<u16>().ok());
            prop_assert_eq!(parse_as::<u32>(&s), s.parse::<u32>().ok());
        }
    }

    #[test]
    fn reads_the_edges() {
        for s in [
            "-9223372036854775808",
            "9223372036854775807",
            "18446744073709551615",
            "+0",
            "-0",
        ] {
            assert_eq!(parse_i64(s), s.parse::<i64>().ok(), "{s}");
            assert_eq!(parse_u64(s), s.parse::<u64>().ok(), "{s}");
        }
        for s in [
            "", "+", "-", "+-1", "-+1", "--1", "1 ", " 1", "0x1", "1_000",
        ] {
            assert_eq!((parse_i64(s), parse_u64(s)), (None, None), "{s:?}");
        }
    }

    #[test]
    fn writes_as_display_does() {
        for n in [0, 1, 9, 10, 99, 100, 65_535, 1 << 32, u64::MAX] {
            let mut out = String::from("x");
            push_u64(&mut out, n);
            assert_eq!(out, format!("x{n}"));
            assert_eq!(keyed("backlog=", n), format!("backlog={n}"));
        }
    }
}
