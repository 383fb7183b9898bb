//! The CDNs' published address ranges, with the date they were taken, and their age.
//!
//! Refresh (with network): `bash scripts/cloudflare-ips.sh` prints the table below from
//! Cloudflare's own lists (<https://www.cloudflare.com/ips-v4>, `/ips-v6`) with today's date.

use crate::inputs::Cdn;

/// One CDN's address ranges as published, and when they were taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CdnRanges {
    /// The date the lists were taken from the CDN's page, `YYYY-MM-DD`.
    pub taken: &'static str,
    /// IPv4 and IPv6 networks, as published.
    pub networks: &'static [&'static str],
}

/// Cloudflare's ranges.
pub const CLOUDFLARE: CdnRanges = CdnRanges {
    taken: "2026-12-02",
    networks: &[
        "173.245.48.0/20",
        "103.21.244.0/22",
        "103.22.200.0/22",
        "103.31.4.0/22",
        "141.101.64.0/18",
        "108.162.192.0/18",
        "190.93.240.0/20",
        "188.114.96.0/20",
        "197.234.240.0/22",
        "198.41.128.0/17",
        "162.158.0.0/15",
        "104.16.0.0/13",
        "104.24.0.0/14",
        "172.64.0.0/13",
        "131.0.72.0/22",
        "2400:cb00::/32",
        "2606:4700::/32",
        "2803:f800::/32",
        "2405:b500::/32",
        "2405:8100::/32",
        "2a06:98c0::/29",
        "2c0f:f248::/32",
    ],
};

/// How long the CDN keeps an idle connection to the origin and may still send a request on
/// it, in seconds: Cloudflare's "Proxy Idle Timeout" (its "Connection limits" reference:
/// 900 s, not configurable).
pub const fn idle_reuse_seconds(cdn: Cdn) -> Option<u32> {
    match cdn {
        Cdn::None => None,
        Cdn::Cloudflare => Some(900),
    }
}

/// Ranges older than this many days are reported: CDNs add networks now and then.
pub const STALE_DAYS: i64 = 90;

/// The ranges of `cdn`, if it has any.
pub const fn ranges(cdn: Cdn) -> Option<&'static CdnRanges> {
    match cdn {
        Cdn::None => None,
        Cdn::Cloudflare => Some(&CLOUDFLARE),
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian), or `None`.
pub fn days(date: &str) -> Option<i64> {
    let mut parts = date.split('-');
    let mut next = |len: usize| {
        parts
            .next()
            .filter(|p| p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(crate::digits::parse_i64)
    };
    let (y, m, d) = (next(4)?, next(2)?, next(2)?);
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

impl CdnRanges {
    /// How many days old the ranges are on `today` (days since 1970-01-01).
    pub fn age(&self, today: i64) -> i64 {
        today - days(self.taken).unwrap_or(today)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_count_days() {
        assert_eq!(days("1970-01-01"), Some(0));
        assert_eq!(days("2000-03-01"), Some(11_017));
        assert_eq!(days("2026-12-02"), Some(20_789));
        for bad in [
            "2026-13-01",
            "2026-1-01",
            "26-12-01",
            "2026-12-02-1",
            "x",
            "",
        ] {
            assert_eq!(days(bad), None, "{bad}");
        }
        let today = days("2027-03-02").unwrap();
        assert_eq!(CLOUDFLARE.age(today), 90);
    }

    #[test]
    fn ranges_are_networks() {
        for n in CLOUDFLARE.networks {
            assert!(n.parse::<crate::inputs::Cidr>().is_ok(), "{n}");
        }
        assert!(days(CLOUDFLARE.taken).is_some());
    }
}
