//! Whole numbers written in decimal without `core::fmt`: the plan writes a few hundred of
//! them per keystroke, and the formatting machinery costs instructions and WebAssembly
//! bytes that a digit loop does not.

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

#[cfg(test)]
mod tests {
    use super::{keyed, push_u64};

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
