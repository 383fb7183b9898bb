//! IP addresses, read and written exactly as `std::net` does, without its parser and
//! printer: they were about 6 KB of the page's and the module's WebAssembly
//! (docs/wasm.md, "Size"). The tests compare both on generated text.

use std::fmt;
use std::str::FromStr;

use crate::digits::push_u64;

/// An IPv4 or IPv6 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ip {
    /// Four octets.
    V4([u8; 4]),
    /// Eight 16-bit groups.
    V6([u16; 8]),
}

impl Ip {
    /// Whether it is an IPv4 address.
    pub const fn is_ipv4(self) -> bool {
        matches!(self, Self::V4(_))
    }
    /// `127.0.0.0/8` or `::1`.
    pub fn is_loopback(self) -> bool {
        match self {
            Self::V4(o) => o[0] == 127,
            Self::V6(g) => g == [0, 0, 0, 0, 0, 0, 0, 1],
        }
    }
    /// An IPv4 address in dotted decimal, as `Ipv4Addr::from_str` accepts it.
    pub fn v4(s: &str) -> Option<Self> {
        Reader::whole(s, Reader::v4).map(Self::V4)
    }
    /// An IPv6 address, as `Ipv6Addr::from_str` accepts it.
    pub fn v6(s: &str) -> Option<Self> {
        Reader::whole(s, Reader::v6).map(Self::V6)
    }
}

impl FromStr for Ip {
    type Err = ();
    /// As `IpAddr::from_str`.
    fn from_str(s: &str) -> Result<Self, ()> {
        Self::v4(s).or_else(|| Self::v6(s)).ok_or(())
    }
}

impl Ip {
    /// Appends the address as [`Display`](fmt::Display) writes it.
    pub fn push_to(self, out: &mut String) {
        let octets = |out: &mut String, o: [u8; 4]| {
            for (i, octet) in o.into_iter().enumerate() {
                if i > 0 {
                    out.push('.');
                }
                push_u64(out, octet.into());
            }
        };
        match self {
            Self::V4(o) => octets(out, o),
            Self::V6([0, 0, 0, 0, 0, 0xffff, high, low]) => {
                let (high, low) = (high.to_be_bytes(), low.to_be_bytes());
                out.push_str("::ffff:");
                octets(out, [high[0], high[1], low[0], low[1]]);
            }
            Self::V6(groups) => {
                let (mut start, mut len, mut run) = (0, 0, 0);
                for (i, &g) in groups.iter().enumerate() {
                    run = if g == 0 { run + 1 } else { 0 };
                    if run > len {
                        (start, len) = (i + 1 - run, run);
                    }
                }
                let mut i = 0;
                while i < 8 {
                    if len > 1 && i == start {
                        out.push_str("::");
                        i += len;
                        continue;
                    }
                    if i > 0 && !out.ends_with(':') {
                        out.push(':');
                    }
                    // Lowercase hexadecimal without leading zeros, as `{:x}` writes it.
                    let g = u32::from(groups[i]);
                    for shift in [12, 8, 4, 0] {
                        if g >> shift != 0 || shift == 0 {
                            out.push(char::from_digit((g >> shift) & 0xf, 16).unwrap_or('0'));
                        }
                    }
                    i += 1;
                }
            }
        }
    }
}

impl fmt::Display for Ip {
    /// As `IpAddr`'s `Display`: IPv6 in its shortest form, the longest run of two or more
    /// zero groups (the first of equals) as `::`, IPv4-mapped addresses as `::ffff:a.b.c.d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(39);
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

/// The standard library's address parser, step for step: every read either succeeds or
/// leaves the position where it was.
struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn whole<T>(s: &'a str, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let mut r = Self {
            s: s.as_bytes(),
            at: 0,
        };
        read(&mut r).filter(|_| r.at == r.s.len())
    }

    fn atomic<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let at = self.at;
        let got = read(self);
        if got.is_none() {
            self.at = at;
        }
        got
    }

    fn byte(&mut self, b: u8) -> Option<()> {
        (self.s.get(self.at) == Some(&b)).then(|| self.at += 1)
    }

    /// A number of at most `max` digits in `radix` (10 or 16) that fits `limit`; a leading
    /// zero only where `zero_prefix` allows it.
    fn number(&mut self, radix: u32, max: usize, limit: u32, zero_prefix: bool) -> Option<u32> {
        self.atomic(|r| {
            let leading_zero = r.s.get(r.at) == Some(&b'0');
            let (mut value, mut digits) = (0_u32, 0);
            while let Some(d) = r.s.get(r.at).and_then(|&b| char::from(b).to_digit(radix)) {
                r.at += 1;
                value = value * radix + d;
                digits += 1;
                if digits > max {
                    return None;
                }
            }
            let ok = digits > 0 && value <= limit && (zero_prefix || !leading_zero || digits == 1);
            ok.then_some(value)
        })
    }

    /// `read`, preceded by `sep` unless it is the first of a series.
    fn separated<T>(
        &mut self,
        sep: u8,
        first: bool,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        self.atomic(|r| {
            if !first {
                r.byte(sep)?;
            }
            read(r)
        })
    }

    fn v4(&mut self) -> Option<[u8; 4]> {
        self.atomic(|r| {
            let mut octets = [0; 4];
            for (i, o) in octets.iter_mut().enumerate() {
                *o = r.separated(b'.', i == 0, |r| r.number(10, 3, 255, false))? as u8;
            }
            Some(octets)
        })
    }

    /// Colon-separated groups into `groups`, the last two possibly as an embedded IPv4
    /// address: how many were read, and whether they ended in IPv4.
    fn groups(&mut self, groups: &mut [u16]) -> (usize, bool) {
        let limit = groups.len();
        for i in 0..limit {
            if i + 1 < limit
                && let Some([a, b, c, d]) = self.separated(b':', i == 0, Self::v4)
            {
                groups[i] = u16::from_be_bytes([a, b]);
                groups[i + 1] = u16::from_be_bytes([c, d]);
                return (i + 2, true);
            }
            match self.separated(b':', i == 0, |r| r.number(16, 4, 0xffff, true)) {
                Some(g) => groups[i] = g as u16,
                None => return (i, false),
            }
        }
        (limit, false)
    }

    fn v6(&mut self) -> Option<[u16; 8]> {
        self.atomic(|r| {
            let mut head = [0; 8];
            let (head_len, head_v4) = r.groups(&mut head);
            if head_len == 8 {
                return Some(head);
            }
            if head_v4 {
                return None;
            }
            r.byte(b':')?;
            r.byte(b':')?;
            let mut tail = [0; 7];
            let (tail_len, _) = r.groups(&mut tail[..7 - head_len]);
            head[8 - tail_len..].copy_from_slice(&tail[..tail_len]);
            Some(head)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use proptest::prelude::*;

    use super::Ip;

    fn std_ip(s: &str) -> Option<Ip> {
        s.parse::<IpAddr>().ok().map(|ip| match ip {
            IpAddr::V4(a) => Ip::V4(a.octets()),
            IpAddr::V6(a) => Ip::V6(a.segments()),
        })
    }

    fn same(s: &str) {
        let ours = s.parse::<Ip>().ok();
        assert_eq!(ours, std_ip(s), "{s:?}");
        if let Some(ip) = ours {
            assert_eq!(
                ip.to_string(),
                s.parse::<IpAddr>().unwrap().to_string(),
                "{s:?}"
            );
            assert_eq!(
                ip.is_loopback(),
                s.parse::<IpAddr>().unwrap().is_loopback(),
                "{s:?}"
            );
        }
        assert_eq!(
            Ip::v4(s).is_some(),
            s.parse::<std::net::Ipv4Addr>().is_ok(),
            "{s:?}"
        );
        assert_eq!(
            Ip::v6(s).is_some(),
            s.parse::<std::net::Ipv6Addr>().is_ok(),
            "{s:?}"
        );
    }

    #[test]
    fn reads_and_writes_as_the_standard_library() {
        for s in [
            "0.0.0.0",
            "127.0.0.1",
            "127.255.0.9",
            "255.255.255.255",
            "256.0.0.1",
            "1.2.3",
            "1.2.3.4.5",
            "01.2.3.4",
            "1.02.3.4",
            "1.2.3.0",
            "1.2.3.00",
            "1.2.3.4 ",
            " 1.2.3.4",
            "1..2.3",
            "1.2.3.",
            "+1.2.3.4",
            "1.2.3.1234",
            "::",
            "::1",
            "::0",
            "1::",
            "::ffff:1.2.3.4",
            "::ffff:7f00:1",
            "::1.2.3.4",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            ":::",
            "1:::2",
            "2001:db8::/32",
            "2001:DB8:0:0:1:0:0:1",
            "2001:db8::1:0:0:1",
            "0:0:1:0:0:0:1:0",
            "1:0:0:2:0:0:3:4",
            "12345::",
            "01234::",
            "0000:0000::",
            "fe80::1%eth0",
            "[::1]",
            "::01.2.3.4",
            "1.2.3.4::",
            "::ffff:0.0.0.0",
            "0:0:0:0:0:ffff:102:304",
            "::fffe:1.2.3.4",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "1::3:4:5:6:7:8",
            "",
            ".",
            ":",
            "a",
            "٣.1.1.1",
            "1.1.1.١",
        ] {
            same(s);
        }
    }

    proptest! {
        #[test]
        fn agrees_with_the_standard_library_on_generated_text(
            s in "[0-9a-fA-F:.]{0,24}|(([0-9a-f]{0,5}|[0-9]{1,4}\\.[0-9]{1,4}\\.[0-9]{1,4}\\.[0-9]{1,4}):{1,2}){0,9}[0-9a-f]{0,4}"
        ) {
            same(&s);
        }

        #[test]
        fn writes_every_address_as_the_standard_library(
            groups in prop::array::uniform8(prop_oneof![Just(0_u16), Just(0xffff), any::<u16>()]),
            octets in any::<[u8; 4]>(),
        ) {
            let v6 = Ip::V6(groups);
            prop_assert_eq!(v6.to_string(), std::net::Ipv6Addr::from(groups).to_string());
            prop_assert_eq!(v6.to_string().parse::<Ip>(), Ok(v6));
            let v4 = Ip::V4(octets);
            prop_assert_eq!(v4.to_string(), std::net::Ipv4Addr::from(octets).to_string());
            prop_assert_eq!(v4.to_string().parse::<Ip>(), Ok(v4));
        }
    }
}
