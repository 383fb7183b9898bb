//! Software versions (`1.22.1`, `1.30`, `3.0.13`, `1.1.1w`) and their ordering.

use std::fmt;
use std::str::FromStr;

/// A `major.minor.patch` version. A missing patch is 0; a trailing letter (OpenSSL's
/// `1.1.1w`) is ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major number.
    pub major: u16,
    /// Minor number.
    pub minor: u16,
    /// Patch number.
    pub patch: u16,
}

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u16, minor: u16, patch: u16) -> Self {
        Self {
            major,
            minor,
            patch,
        }
    }
}

/// A version string that is not `N.N` or `N.N.N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionError;

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a version such as 1.30 or 1.22.1")
    }
}

impl FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        let s = s.trim_end_matches(|c: char| c.is_ascii_lowercase());
        let mut parts = s.split('.');
        let mut next = |required: bool| -> Result<u16, VersionError> {
            match parts.next() {
                Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
                    crate::digits::parse_as(p).ok_or(VersionError)
                }
                None if !required => Ok(0),
                _ => Err(VersionError),
            }
        };
        let version = Self::new(next(true)?, next(true)?, next(false)?);
        if parts.next().is_some() {
            return Err(VersionError);
        }
        Ok(version)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // By the digit loop: the plan writes versions on every keystroke.
        let mut text = String::with_capacity(16);
        for (i, part) in [self.major, self.minor, self.patch].into_iter().enumerate() {
            if i > 0 {
                text.push('.');
            }
            crate::digits::push_u64(&mut text, part.into());
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_every_part() {
        for (v, text) in [
            (Version::new(1, 22, 1), "1.22.1"),
            (Version::new(0, 0, 0), "0.0.0"),
            (Version::new(u16::MAX, 10, 100), "65535.10.100"),
        ] {
            assert_eq!(v.to_string(), text);
            assert_eq!(format!("[{v}]"), format!("[{text}]"));
        }
    }

    #[test]
    fn parses_and_orders() {
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert_eq!(v("1.30"), Version::new(1, 30, 0));
        assert_eq!(v("1.1.1w"), Version::new(1, 1, 1));
        assert!(v("1.22.1") < v("1.25.1"));
        assert!(v("1.9.10") > v("1.9.5"));
        for bad in ["", "1", "1.", "a.b", "1.2.3.4", "1..2"] {
            assert!(bad.parse::<Version>().is_err(), "{bad}");
        }
    }
}
