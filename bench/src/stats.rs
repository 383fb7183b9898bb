//! Statistics over the rounds: medians of each variant's figures, and the geometric mean of
//! paired per-round ratios with its 95 % confidence interval.

use crate::results::Sample;

/// A spread (max − min) / median of req/s above this marks a cell as noisy.
pub const NOISY: f64 = 0.15;

/// The median (the mean of the middle two for an even count); 0 for no values.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        f64::midpoint(v[n / 2 - 1], v[n / 2])
    }
}

/// `num / den`, or 0 when `den` is 0 (a run that served nothing).
fn per(num: f64, den: u64) -> f64 {
    if den == 0 { 0.0 } else { num / den as f64 }
}

/// One variant's figures in one cell, over the rounds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stat {
    pub rps: f64,
    pub rps_min: f64,
    pub rps_max: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub mb_s: f64,
    pub bytes_per_req: f64,
    pub cpu_us_per_req: f64,
    /// nginx CPU time / wall time (1.0 = one CPU fully busy).
    pub cpu_util: f64,
    pub socket_errors: u64,
    pub bad_status: u64,
    pub log_lines: usize,
}

impl Stat {
    pub fn of(samples: &[Sample]) -> Self {
        let col = |f: &dyn Fn(&Sample) -> f64| -> Vec<f64> { samples.iter().map(f).collect() };
        let rps = col(&|s| s.wrk.rps());
        Self {
            rps: median(&mut rps.clone()),
            rps_min: rps.iter().copied().fold(f64::INFINITY, f64::min),
            rps_max: rps.iter().copied().fold(0.0, f64::max),
            p50_ms: median(&mut col(&|s| s.wrk.p50_us as f64 / 1000.0)),
            p99_ms: median(&mut col(&|s| s.wrk.p99_us as f64 / 1000.0)),
            mb_s: median(&mut col(&|s| s.wrk.mb_per_s())),
            bytes_per_req: median(&mut col(&|s| per(s.wrk.bytes as f64, s.wrk.requests))),
            cpu_us_per_req: median(&mut col(&|s| per(s.cpu_ns as f64 / 1000.0, s.wrk.requests))),
            cpu_util: median(&mut col(&|s| {
                per(s.cpu_ns as f64 / 1000.0, s.wrk.duration_us)
            })),
            socket_errors: samples.iter().map(|s| s.wrk.socket_errors).sum(),
            bad_status: samples.iter().map(|s| s.wrk.bad_status).sum(),
            log_lines: samples.iter().map(|s| s.log_lines).sum(),
        }
    }

    pub fn errors(&self) -> u64 {
        self.socket_errors + self.bad_status
    }

    /// The rounds' req/s spread more than [`NOISY`] of the median.
    pub fn noisy(&self) -> bool {
        self.rps > 0.0 && (self.rps_max - self.rps_min) / self.rps > NOISY
    }
}

/// Student's t for a two-sided 95 % interval, by degrees of freedom (1 to 10; 2.0 beyond).
const T95: [f64; 10] = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23];

/// A geometric mean with its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub mid: f64,
    pub hi: f64,
}

impl Interval {
    /// The whole interval lies above 1: better beyond the noise.
    pub fn above_one(self) -> bool {
        self.lo > 1.0
    }

    /// The whole interval lies below 1: worse beyond the noise.
    pub fn below_one(self) -> bool {
        self.hi < 1.0
    }

    /// The interval contains 1: no difference beyond the noise (what an A/A control's
    /// interval must do for its rounds to be trusted).
    pub fn contains_one(self) -> bool {
        !self.above_one() && !self.below_one()
    }
}

/// The geometric mean of paired per-round ratios and its 95 % confidence interval
/// (Student's t on the logarithms: ratios multiply, and the rounds are the pairs).
/// Ratios that are not positive are left out; one round gives no interval (r, r, r), none
/// gives (0, 0, 0).
pub fn interval(ratios: &[f64]) -> Interval {
    let logs: Vec<f64> = ratios
        .iter()
        .filter(|r| **r > 0.0)
        .map(|r| r.ln())
        .collect();
    let n = logs.len();
    let point = |v: f64| Interval {
        lo: v,
        mid: v,
        hi: v,
    };
    if n == 0 {
        return point(0.0);
    }
    let mean = logs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return point(mean.exp());
    }
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = T95.get(n - 2).copied().unwrap_or(2.0);
    let half = t * (var / n as f64).sqrt();
    Interval {
        lo: (mean - half).exp(),
        mid: mean.exp(),
        hi: (mean + half).exp(),
    }
}

/// The paired per-round values `f(this round of a, same round of b)` that exist.
pub fn per_round(
    a: &[Sample],
    b: &[Sample],
    f: impl Fn(&Sample, &Sample) -> Option<f64>,
) -> Vec<f64> {
    a.iter().zip(b).filter_map(|(x, y)| f(x, y)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::wrk::WrkResult;

    /// The interval from `lo` to `hi`, its geometric middle between.
    pub fn iv(lo: f64, hi: f64) -> Interval {
        Interval {
            lo,
            mid: (lo * hi).sqrt(),
            hi,
        }
    }

    /// A one-second wrk run at `rps` with nginx using `cpu_ms` of CPU and a p99 of `p99_ms`.
    pub fn sample(rps: u64, cpu_ms: u64, p99_ms: u64) -> Sample {
        Sample {
            wrk: WrkResult {
                requests: rps,
                duration_us: 1_000_000,
                bytes: rps * 31_000,
                socket_errors: 0,
                bad_status: 0,
                p50_us: p99_ms * 400,
                p99_us: p99_ms * 1000,
                ..WrkResult::default()
            },
            cpu_ns: cpu_ms * 1_000_000,
            log_lines: 0,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn medians() {
        assert!(close(median(&mut [3.0, 1.0, 2.0]), 2.0));
        assert!(close(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5));
        assert!(close(median(&mut []), 0.0));
    }

    #[test]
    fn intervals_of_real_round_ratios() {
        // Three rounds 5–7 % ahead: the interval lies above 1 (t = 4.30 for 2 df).
        let i = interval(&[1.05, 1.07, 1.06]);
        assert!(close(i.lo, 1.035_431) && close(i.mid, 1.059_969) && close(i.hi, 1.085_088));
        assert!(i.above_one() && !i.below_one());
        // −2 % to +3 %: straddles 1.
        let i = interval(&[0.98, 1.03, 1.01]);
        assert!(close(i.lo, 0.945_734) && close(i.mid, 1.006_456) && close(i.hi, 1.071_077));
        assert!(!i.above_one() && !i.below_one());
        // 5–9 % behind: below 1.
        let i = interval(&[0.91, 0.93, 0.95]);
        assert!(close(i.lo, 0.881_506) && close(i.hi, 0.980_859));
        assert!(i.below_one() && !i.above_one());
        // Six rounds narrow it (t = 2.57 for 5 df).
        let i = interval(&[1.02, 1.04, 1.03, 1.05, 1.01, 1.03]);
        assert!(close(i.lo, 1.015_187) && close(i.hi, 1.044_865));
    }

    #[test]
    fn interval_boundaries() {
        // Identical rounds: no spread, the interval is the point 1: neither above nor below.
        let i = interval(&[1.0, 1.0, 1.0]);
        assert_eq!((i.lo, i.mid, i.hi), (1.0, 1.0, 1.0));
        assert!(!i.above_one() && !i.below_one());
        // Two rounds: t = 12.71, so even 2× apart is within the noise.
        let i = interval(&[2.0, 0.5]);
        assert!(close(i.mid, 1.0) && i.lo < 0.5 && i.hi > 2.0);
        // Beyond 11 rounds t is 2.0; constant ratios stay a point.
        let i = interval(&[1.01; 12]);
        assert!(close(i.lo, 1.01) && close(i.hi, 1.01));
        // One round: a point; nothing (or only non-positive ratios): zero.
        assert_eq!(
            interval(&[1.5]),
            Interval {
                lo: 1.5,
                mid: 1.5,
                hi: 1.5
            }
        );
        assert_eq!(
            interval(&[]),
            Interval {
                lo: 0.0,
                mid: 0.0,
                hi: 0.0
            }
        );
        assert_eq!(interval(&[0.0, -1.0]), interval(&[]));
    }

    #[test]
    fn stat_of_three_rounds() {
        let rounds = [
            sample(20_000, 950, 4),
            sample(22_000, 960, 5),
            sample(19_000, 940, 6),
        ];
        let s = Stat::of(&rounds);
        assert!(close(s.rps, 20_000.0) && close(s.rps_min, 19_000.0) && close(s.rps_max, 22_000.0));
        assert!(close(s.p99_ms, 5.0) && close(s.p50_ms, 2.0));
        assert!(close(s.bytes_per_req, 31_000.0));
        assert!(close(s.mb_s, 620.0));
        // 950 ms of CPU for 20,000 requests: 47.5 µs each; 95 % of one CPU.
        assert!(close(s.cpu_us_per_req, 47.5));
        assert!(close(s.cpu_util, 0.95));
        assert_eq!(s.errors(), 0);
        // Spread 3,000 / 20,000 = 15 %: exactly at the limit is not noisy; above it is.
        assert!(!s.noisy());
        let s = Stat::of(&[
            sample(20_000, 1, 1),
            sample(23_100, 1, 1),
            sample(20_000, 1, 1),
        ]);
        assert!(s.noisy());
    }

    #[test]
    fn rounds_pair_up() {
        let a = [sample(100, 1, 1), sample(300, 1, 1)];
        let b = [sample(200, 1, 1), sample(0, 1, 1)];
        let r = per_round(&a, &b, |x, y| {
            (y.wrk.rps() > 0.0).then(|| x.wrk.rps() / y.wrk.rps())
        });
        assert_eq!(r, vec![0.5]);
    }
}
