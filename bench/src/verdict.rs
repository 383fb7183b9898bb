//! The verdicts: how a variant compares with a baseline in one cell (the decision ladder),
//! and the tally of verdicts per mode.

use crate::results::{Cell, ModeResult, Sample};
use crate::stats::{Interval, Stat, interval, per_round};
use crate::variants::Variant;

/// nginx busier than this share of its CPUs is the bottleneck; below it wrk or the link is.
pub const BUSY: f64 = 0.85;
/// Where wrk or the link sets the rate, a variant's req/s may trail by at most 3 %
/// (response headers cost wrk and the link a little).
pub const RATE_SLACK: f64 = 0.97;
/// A link carrying this share of its rate is full: the variant's p99 is the link's queue.
pub const LINK_FULL: f64 = 0.85;
/// A baseline that failed this share of its requests has no p99 to hold against anyone: a
/// failed request is one its client never got an answer to, the slowest answer of all, so its
/// 99th percentile lies among the failures. (wrk's p99 counts only what was answered, and a
/// server out of connections answers the rest fast or not at all.)
pub const UNANSWERED: f64 = 0.01;

/// How a variant compares with a baseline in one cell. Where nginx is the bottleneck the
/// req/s decide; where wrk or the shaped link sets the rate (neither nginx busy) the issue's
/// bar is CPU per request, with the rate allowed to trail by at most [`RATE_SLACK`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Requests failed.
    Errors,
    /// More req/s, beyond the noise (the interval lies above 1), p99 no worse.
    Win,
    /// Rate set by wrk or the link; less CPU per request beyond the noise.
    WinCpu,
    /// No difference beyond the noise of the rounds (the interval contains 1).
    Even,
    /// Rate set by wrk or the link; CPU per request the same within the noise.
    EvenCpu,
    /// req/s not lower but p99 more than 10 % and 1 ms worse, beyond the noise.
    P99Worse,
    /// Fewer req/s beyond the noise (the interval lies below 1; with wrk or the link
    /// setting the rate: more CPU per request, or over 3 % fewer req/s).
    Loss,
    /// A loss one instance after the other that measuring both again at once (the same
    /// machine speed for both, [`Recheck`]) did not confirm: CPU per request even or better,
    /// its interval wholly above the loss's, the A/A control within its own.
    Cleared,
    /// TLS handshakes lost to a baseline that negotiates only TLS 1.2, where nginx-gen's
    /// clients get TLS 1.3, and not cleared together; nginx-gen offering TLS 1.2 alone,
    /// measured at once, was at most 3 % dearer per handshake with 95 % confidence and its
    /// rate not behind: the price of the protocol, not of the configuration
    /// ([`SameProtocol::holds`]).
    ProtocolPrice,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Self::Errors => "ERRORS",
            Self::Win => "win",
            Self::WinCpu => "win (CPU/req; wrk/link-bound)",
            Self::Even => "even (within noise)",
            Self::EvenCpu => "even (CPU/req within noise; wrk/link-bound)",
            Self::P99Worse => "p99 worse",
            Self::Loss => "LOSS",
            Self::Cleared => "even together (a LOSS one at a time, not confirmed)",
            Self::ProtocolPrice => {
                "TLS 1.3's price (a LOSS or p99 miss against TLS 1.2 handshakes; with TLS 1.2 alone within 3 %)"
            }
        }
    }

    /// Meets the bar "≥ 1.0× with p99 no worse", as far as the rounds can tell. The bar
    /// compares configurations on the protocol their clients get: a baseline that offers
    /// only TLS 1.2 is held against nginx-gen offering TLS 1.2 alone, and what TLS 1.3 costs
    /// beyond it is reported beside ([`Verdict::ProtocolPrice`]; docs/architecture.md,
    /// issue 12's decisions).
    pub fn meets_bar(self) -> bool {
        matches!(
            self,
            Self::Win
                | Self::WinCpu
                | Self::Even
                | Self::EvenCpu
                | Self::Cleared
                | Self::ProtocolPrice
        )
    }
}

/// What the ladder decides on, for one variant against a baseline in one cell.
#[derive(Debug, Clone, Copy)]
pub struct Evidence {
    /// The variant had failed requests.
    pub errors: bool,
    /// Either nginx was the bottleneck (busier than [`BUSY`] of its CPUs), and this
    /// variant did not fill the shaped link with its own nginx idle.
    pub nginx_bound: bool,
    /// req/s ratio, this ÷ baseline, per round.
    pub rps: Interval,
    /// CPU per request, baseline ÷ this (above 1 = this one is cheaper), per round.
    pub cpu: Interval,
    /// p99 no worse beyond the noise (see [`p99_ok`]).
    pub p99_ok: bool,
}

/// The decision ladder: errors, then a loss, then p99, then win or even. Where nginx sets
/// the rate the req/s interval decides; elsewhere the CPU-per-request interval does, and a
/// req/s interval wholly below [`RATE_SLACK`] is a loss too.
pub fn decide(e: &Evidence) -> Verdict {
    let (better, lost, win, even) = if e.nginx_bound {
        (
            e.rps.above_one(),
            e.rps.below_one(),
            Verdict::Win,
            Verdict::Even,
        )
    } else {
        let lost = e.cpu.below_one() || e.rps.hi < RATE_SLACK;
        (e.cpu.above_one(), lost, Verdict::WinCpu, Verdict::EvenCpu)
    };
    if e.errors {
        Verdict::Errors
    } else if lost {
        Verdict::Loss
    } else if !e.p99_ok {
        Verdict::P99Worse
    } else if better {
        win
    } else {
        even
    }
}

/// Variant `v` against `base` in a cell whose instances were loaded at once: their CPU per
/// request (`base`'s ÷ `v`'s, above 1 = `v` is cheaper) and the ladder on errors and that
/// alone. The CPU was shared, so neither the rate nor p99 belongs to one instance: the rate
/// is held even and p99 passed.
pub fn together(cell: &Cell, v: usize, base: usize) -> (Interval, Verdict) {
    let cpu = interval(&per_round(&cell.samples[v], &cell.samples[base], |x, y| {
        Some(cpu_per_req(y)? / cpu_per_req(x)?)
    }));
    let even = Interval {
        lo: 1.0,
        mid: 1.0,
        hi: 1.0,
    };
    let verdict = decide(&Evidence {
        errors: Stat::of(&cell.samples[v]).errors() > 0,
        nginx_bound: false,
        rps: even,
        cpu,
        p99_ok: true,
    });
    (cpu, verdict)
}

/// p99 counts as worse when, beyond the noise, it is more than 10 % worse (`p99_lo`, the
/// low end of the p99 ratio's interval, above 1.10) and more than 1 ms worse, unless the
/// variant fills the shaped link (its p99 is then the link's queueing delay) or the baseline
/// left [`UNANSWERED`] of its requests without an answer.
pub fn p99_ok(
    p99_lo: f64,
    p99_ms: f64,
    base_p99_ms: f64,
    link_full: bool,
    base_unanswered: bool,
) -> bool {
    p99_lo <= 1.10 || p99_ms - base_p99_ms < 1.0 || link_full || base_unanswered
}

/// The share of requests the rounds left without an answer: failures over attempts (wrk
/// counts an answered request, a bad status among them, and a socket error apart).
pub fn unanswered(samples: &[Sample]) -> f64 {
    let failed: u64 = samples.iter().map(|s| s.wrk.errors()).sum();
    let tried: u64 = samples
        .iter()
        .map(|s| s.wrk.requests + s.wrk.socket_errors)
        .sum();
    if tried == 0 {
        0.0
    } else {
        failed as f64 / tried as f64
    }
}

/// A variant compared with a baseline in one cell.
#[derive(Debug, Clone, Copy)]
pub struct Ratio {
    /// Geometric mean of the per-round req/s ratios, with its 95 % interval.
    pub rps: f64,
    pub rps_lo: f64,
    pub rps_hi: f64,
    /// The lowest and highest per-round ratio.
    pub rps_min: f64,
    pub rps_max: f64,
    /// Baseline CPU per request / this variant's (above 1 = this one is cheaper).
    pub cpu: f64,
    /// Geometric mean of the per-round p99 ratios (below 1 = better).
    pub p99: f64,
    /// The share of its requests the baseline left without an answer ([`unanswered`]), when
    /// it is [`UNANSWERED`] or more and so the baseline's p99 is not held against this one.
    pub base_unanswered: Option<f64>,
    /// The upper end of the CPU per request ratio's 95 % interval.
    pub cpu_hi: f64,
    /// nginx was the bottleneck (the req/s decided), else wrk or the link set the rate.
    pub nginx_bound: bool,
    /// This variant's own nginx was the busy one (not only the baseline's).
    pub self_busy: bool,
    /// p99 no worse beyond the noise (a loss is decided before p99, so a loss can hide it).
    pub p99_ok: bool,
    /// The baseline's handshakes negotiated TLS 1.2 where this variant's negotiated TLS
    /// 1.3 ([`older_protocol`]).
    pub older_protocol: bool,
    /// The loss measured again with both loaded at once, when it was ([`Recheck`]).
    pub recheck: Option<Recheck>,
    /// The rounds one at a time decided a loss (before any recheck changed the verdict).
    pub lost: bool,
    /// The rounds one at a time decided a p99 miss (before any recheck changed it).
    pub missed_p99: bool,
    pub verdict: Verdict,
}

impl Ratio {
    /// A loss that CPU per request can settle: this variant's nginx set the rate (so its
    /// CPU per request did), or wrk or the link did and the CPU decided. Not: a rate behind
    /// while only the baseline's nginx was busy (latency, or the load tool, set it), and a
    /// rate more than 3 % behind on a full link (bytes on the wire).
    /// Decided by the rounds one at a time: a verdict a recheck changed keeps it.
    pub fn cpu_can_settle(&self) -> bool {
        self.lost
            && if self.nginx_bound {
                self.self_busy || self.cpu < 1.0
            } else {
                self.rps_hi >= RATE_SLACK
            }
    }

    /// A miss the run measures again together: a loss CPU per request can settle, and any
    /// loss or p99 miss against a baseline on an older protocol (its handshakes cost the
    /// client less too, so the rate can trail while nginx idles, and each costs the server
    /// less, so they queue less; nginx-gen on that protocol decides).
    pub fn measured_again(&self) -> bool {
        self.cpu_can_settle() || ((self.lost || self.missed_p99) && self.older_protocol)
    }

    /// The ratio in the measure that decided, its mean and the upper end of its interval:
    /// req/s where nginx set the rate (which follows its CPU per request), else the CPU
    /// per request.
    pub fn decided(&self) -> (f64, f64) {
        if self.nginx_bound {
            (self.rps, self.rps_hi)
        } else {
            (self.cpu, self.cpu_hi)
        }
    }

    /// The upper end of a loss's interval: the together interval must lie above it to
    /// clear the loss.
    pub fn loss_bound(&self) -> f64 {
        self.decided().1
    }

    /// The loss's recheck, in words, when it had one.
    pub fn recheck_text(&self) -> Option<String> {
        self.recheck
            .map(|rc| rc.text(self.loss_bound(), self.cpu_can_settle()))
    }
}

/// The protocol a baseline falls back to when it offers no TLS 1.3.
pub const TLS12: &str = "TLSv1.2";

/// The baseline's TLS handshakes in this cell negotiated TLS 1.2 where the contender's
/// negotiated TLS 1.3 (at most 1 % and at least 99 % of their connections). Only the
/// handshake client counts the protocol; in other cells this is false.
pub fn older_protocol(cell: &Cell, v: usize, base: usize) -> bool {
    let tls13 = |i: usize| {
        let (tls13, all) = cell
            .samples
            .get(i)?
            .iter()
            .fold((0, 0), |(a, n), s| (a + s.wrk.tls13, n + s.wrk.requests));
        (all > 0).then(|| tls13 as f64 / all as f64)
    };
    matches!((tls13(v), tls13(base)), (Some(a), Some(b)) if a >= 0.99 && b <= 0.01)
}

/// How far nginx-gen on the baseline's protocol may trail it, per handshake, with 95 %
/// confidence, for a loss to be that protocol's price: the search's goal, "within 3 %".
pub const SAME_PROTOCOL_SLACK: f64 = 0.97;

/// A loss to a baseline that negotiates an older protocol ([`older_protocol`]), measured
/// again together with nginx-gen offering that protocol alone: how the configurations
/// compare on the same protocol.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SameProtocol {
    /// The baseline's protocol, the only one this nginx-gen instance offered.
    pub protocol: &'static str,
    /// The baseline's CPU per request ÷ that instance's (above 1 = nginx-gen cheaper).
    pub cpu: Interval,
    /// That instance's req/s ÷ the baseline's.
    pub rps: Interval,
    /// Requests failed, at that instance or the baseline.
    pub errors: bool,
    /// Both spoke the older protocol in these rounds, and nginx-gen itself the newer one.
    pub protocols_held: bool,
}

impl SameProtocol {
    /// nginx-gen offering the baseline's protocol alone (stage `on`) against the baseline
    /// (`base`) in the recheck's cell, where nginx-gen as it is was stage 0.
    pub fn measure(cell: &Cell, on: usize, base: usize) -> Self {
        let (a, b) = (&cell.samples[on], &cell.samples[base]);
        Self {
            protocol: TLS12,
            cpu: interval(&per_round(a, b, |x, y| {
                Some(cpu_per_req(y)? / cpu_per_req(x)?)
            })),
            rps: interval(&per_round(a, b, |x, y| {
                (y.wrk.rps() > 0.0).then(|| x.wrk.rps() / y.wrk.rps())
            })),
            errors: Stat::of(a).errors() > 0 || Stat::of(b).errors() > 0,
            protocols_held: older_protocol(cell, 0, on) && older_protocol(cell, 0, base),
        }
    }

    /// The configurations match on the same protocol: the right protocols spoken, no
    /// failed request, nginx-gen at most [`SAME_PROTOCOL_SLACK`] dearer per request with
    /// 95 % confidence, and its rate not wholly more than 3 % behind.
    pub fn holds(&self) -> bool {
        self.protocols_held
            && !self.errors
            && self.cpu.lo >= SAME_PROTOCOL_SLACK
            && self.rps.hi >= RATE_SLACK
    }
}

/// A loss of the load test measured again on loopback with the contender, the baseline and
/// the contender's A/A control loaded at once, compared by CPU per request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recheck {
    pub scenario: &'static str,
    pub conns: u32,
    /// Indices of the contender and the baseline among the run's variants.
    pub v: usize,
    pub base: usize,
    pub rounds: usize,
    /// The baseline's CPU per request ÷ the contender's (above 1 = the contender is cheaper).
    pub cpu: Interval,
    /// The ladder on errors and CPU per request ([`together`]).
    pub verdict: Verdict,
    /// The A/A control: the contender against a second instance of itself.
    pub control: Interval,
    /// Where the baseline negotiated an older TLS protocol: the contender on that protocol
    /// alone, measured in the same rounds.
    pub same_protocol: Option<SameProtocol>,
}

/// What measuring a loss again together made of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// nginx-gen's CPU per request even or better, and the interval wholly above the loss's
    /// interval one at a time: the loss was the machine's speed changing between the runs.
    NotConfirmed,
    /// nginx-gen's CPU per request still the higher one beyond the noise.
    Confirmed,
    /// Even, but the interval reaches down into the loss's interval: too few rounds to tell.
    TooNoisy,
    /// The A/A control left its interval: the rounds are not trusted.
    ControlOff,
    /// Requests failed when measured again.
    Errors,
    /// Not cleared, against a baseline negotiating an older TLS protocol, while nginx-gen
    /// on that protocol alone matched it ([`SameProtocol::holds`]): the newer protocol's
    /// cost.
    ProtocolPrice,
    /// A loss of the rate or a p99 miss, not of nginx's CPU (measured again for its
    /// protocol only), that the same protocol did not explain.
    RateStands,
}

impl Settled {
    pub fn text(self) -> &'static str {
        match self {
            Self::NotConfirmed => "not confirmed",
            Self::Confirmed => "confirmed",
            Self::TooNoisy => "stands: the interval reaches the loss's size",
            Self::ControlOff => "stands: the A/A control was off",
            Self::Errors => "stands: requests failed when measured again",
            Self::ProtocolPrice => "the protocol's price: with the baseline's protocol within 3 %",
            Self::RateStands => {
                "stands: CPU per request cannot settle it, and the same protocol did not explain it"
            }
        }
    }
}

impl Recheck {
    /// What it makes of a loss whose interval one at a time reaches up to `loss_hi` (the
    /// contender's ratio to the baseline in the measure that decided: req/s where nginx
    /// set the rate, else the CPU per request, the baseline's ÷ the contender's). Cleared
    /// only when the together interval lies wholly above it, with the control within its
    /// own: a few noisy rounds cannot clear a loss, and CPU per request clears only a loss
    /// it can settle (`cpu_settles`, [`Ratio::cpu_can_settle`]). A loss that stands against
    /// a baseline on an older protocol is that protocol's price when nginx-gen on it alone
    /// matched the baseline in the same rounds ([`SameProtocol::holds`]).
    pub fn settle(&self, loss_hi: f64, cpu_settles: bool) -> Settled {
        let even = |v: Verdict| matches!(v, Verdict::EvenCpu | Verdict::WinCpu);
        match self.verdict {
            Verdict::Errors => Settled::Errors,
            _ if !self.control.contains_one() => Settled::ControlOff,
            v if cpu_settles && even(v) && self.cpu.lo > loss_hi => Settled::NotConfirmed,
            _ if self.same_protocol.is_some_and(|s| s.holds()) => Settled::ProtocolPrice,
            _ if !cpu_settles => Settled::RateStands,
            v if even(v) => Settled::TooNoisy,
            _ => Settled::Confirmed,
        }
    }

    /// What the report says of it, for a loss reaching up to `loss_hi`.
    pub fn text(&self, loss_hi: f64, cpu_settles: bool) -> String {
        format!(
            "together: CPU {:.3}× (CI {:.3}..{:.3}), {} rounds, A/A control {:.3}× (CI {:.3}..{:.3}){}: {}",
            self.cpu.mid,
            self.cpu.lo,
            self.cpu.hi,
            self.rounds,
            self.control.mid,
            self.control.lo,
            self.control.hi,
            self.same_protocol_text(),
            self.settle(loss_hi, cpu_settles).text()
        )
    }

    /// `, nginx-gen with TLSv1.2 alone CPU 1.004× (CI …), req/s …` where it was measured,
    /// else nothing.
    pub fn same_protocol_text(&self) -> String {
        self.same_protocol.map_or_else(String::new, |s| {
            format!(
                ", nginx-gen with {} alone CPU {:.3}× (CI {:.3}..{:.3}), req/s {:.3}× (CI {:.3}..{:.3}){}{}",
                s.protocol,
                s.cpu.mid,
                s.cpu.lo,
                s.cpu.hi,
                s.rps.mid,
                s.rps.lo,
                s.rps.hi,
                if s.errors { ", requests failed" } else { "" },
                if s.protocols_held {
                    ""
                } else {
                    ", the protocols not as expected"
                }
            )
        })
    }
}

/// nginx's CPU time per answered request in one run (`None` when either is zero).
pub(crate) fn cpu_per_req(s: &Sample) -> Option<f64> {
    (s.wrk.requests > 0 && s.cpu_ns > 0).then(|| s.cpu_ns as f64 / s.wrk.requests as f64)
}

/// Variant `v` against variant `base` in `cell`. `link_mbit`: on a shaped link a variant
/// that fills it queues its responses, so its p99 is not held against it.
pub fn ratio(cell: &Cell, v: usize, base: usize, workers: usize, link_mbit: Option<u32>) -> Ratio {
    let (a, b) = (&cell.samples[v], &cell.samples[base]);
    let rps_rounds = per_round(a, b, |x, y| {
        (y.wrk.rps() > 0.0).then(|| x.wrk.rps() / y.wrk.rps())
    });
    let rps = interval(&rps_rounds);
    let cpu = interval(&per_round(a, b, |x, y| {
        Some(cpu_per_req(y)? / cpu_per_req(x)?)
    }));
    let p99 = interval(&per_round(a, b, |x, y| {
        (y.wrk.p99_us > 0).then(|| x.wrk.p99_us as f64 / y.wrk.p99_us as f64)
    }));
    let (sa, sb) = (Stat::of(a), Stat::of(b));
    let busy = BUSY * workers as f64;
    let link_full = link_mbit.is_some_and(|m| sa.mb_s * 8.0 >= LINK_FULL * f64::from(m));
    let base_unanswered = Some(unanswered(b)).filter(|&share| share >= UNANSWERED);
    // Either nginx busy makes the rates nginx's, unless this variant fills the link and its
    // own nginx idles: then the link set its rate, however busy the baseline's nginx was.
    let self_busy = sa.cpu_util >= busy;
    let nginx_bound = self_busy || (sb.cpu_util >= busy && !link_full);
    let p99_ok = p99_ok(
        p99.lo,
        sa.p99_ms,
        sb.p99_ms,
        link_full,
        base_unanswered.is_some(),
    );
    let verdict = decide(&Evidence {
        errors: sa.errors() > 0,
        nginx_bound,
        rps,
        cpu,
        p99_ok,
    });
    Ratio {
        rps: rps.mid,
        rps_lo: rps.lo,
        rps_hi: rps.hi,
        rps_min: rps_rounds.iter().copied().fold(f64::INFINITY, f64::min),
        rps_max: rps_rounds.iter().copied().fold(0.0, f64::max),
        cpu: cpu.mid,
        p99: p99.mid,
        base_unanswered,
        cpu_hi: cpu.hi,
        nginx_bound,
        self_busy,
        p99_ok,
        older_protocol: older_protocol(cell, v, base),
        recheck: None,
        lost: verdict == Verdict::Loss,
        missed_p99: verdict == Verdict::P99Worse,
        verdict,
    }
}

/// The compared variants: nginx-gen and the `--patch`/`--extra` variants (everything that is
/// not a baseline), with their index.
pub fn contenders(variants: &[Variant]) -> impl Iterator<Item = (usize, &Variant)> {
    variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_baseline())
}

/// The baselines: stock, the guide and the peer generators, with their index.
pub fn baselines(variants: &[Variant]) -> impl Iterator<Item = (usize, &Variant)> {
    variants.iter().enumerate().filter(|(_, v)| v.is_baseline())
}

/// The variant ran in this cell (it does not when the scenario does not apply to it, e.g.
/// HTTP/2 where its server does not offer it).
pub fn applies(cell: &Cell, v: usize) -> bool {
    cell.samples.get(v).is_some_and(|s| !s.is_empty())
}

/// Variant `v` against variant `base` in one of the mode's cells, when both ran: the
/// rounds' ratio, and where it was a loss the CPU can settle and the run measured it again
/// together ([`ModeResult::rechecks`]), that measurement's verdict.
pub fn compare(m: &ModeResult, cell: &Cell, v: usize, base: usize) -> Option<Ratio> {
    if !(applies(cell, v) && applies(cell, base)) {
        return None;
    }
    let mut r = ratio(cell, v, base, m.workers, m.link_mbit);
    if r.measured_again()
        && let Some(rc) = m.rechecks.iter().find(|rc| {
            (rc.scenario, rc.conns, rc.v, rc.base) == (cell.scenario.id, cell.conns, v, base)
        })
    {
        r.recheck = Some(*rc);
        match rc.settle(r.loss_bound(), r.cpu_can_settle()) {
            // The loss decided before p99 could: a p99 miss it hid stays a miss.
            Settled::NotConfirmed if r.lost => {
                r.verdict = if r.p99_ok {
                    Verdict::Cleared
                } else {
                    Verdict::P99Worse
                };
            }
            // The same protocol's handshakes cost the same: what the newer one adds to
            // each, in CPU, in rate or in queueing (p99), is its price.
            Settled::ProtocolPrice => r.verdict = Verdict::ProtocolPrice,
            _ => {}
        }
    }
    Some(r)
}

/// A baseline's name and a contender's ratio to it.
pub type Named = (String, Ratio);

/// How contender `v` fared against every baseline in one cell: the baselines it loses to
/// with 95 % confidence (the req/s interval, or where wrk or the link sets the rate the CPU
/// per request, wholly on the wrong side of 1), and the other misses of the bar (p99 worse,
/// errors), each with the ratio.
pub fn misses(
    m: &ModeResult,
    cell: &Cell,
    v: usize,
    variants: &[Variant],
) -> (Vec<Named>, Vec<Named>) {
    let mut losses = Vec::new();
    let mut others = Vec::new();
    for (b, base) in baselines(variants) {
        if let Some(r) = compare(m, cell, v, b) {
            match r.verdict {
                Verdict::Loss => losses.push((base.name.clone(), r)),
                v if !v.meets_bar() => others.push((base.name.clone(), r)),
                _ => {}
            }
        }
    }
    (losses, others)
}

/// One line per contender and baseline: how many cells each verdict got, and whether the
/// bar (≥ 1.0× with p99 no worse and no errors, as far as the rounds can tell) holds. Cells
/// where either did not run are not counted.
pub fn tally(m: &ModeResult, variants: &[Variant]) -> Vec<String> {
    let mut lines = Vec::new();
    for (vi, v) in contenders(variants) {
        for (base, b) in baselines(variants) {
            let verdicts: Vec<Verdict> = m
                .cells
                .iter()
                .filter_map(|c| compare(m, c, vi, base))
                .map(|r| r.verdict)
                .collect();
            if verdicts.is_empty() {
                lines.push(format!("{} vs {}: no cell both ran", v.name, b.name));
                continue;
            }
            let mut counts: Vec<(Verdict, usize)> = Vec::new();
            for v in &verdicts {
                match counts.iter_mut().find(|(k, _)| k == v) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((*v, 1)),
                }
            }
            let misses = verdicts.iter().filter(|v| !v.meets_bar()).count();
            let skipped = m.cells.len() - verdicts.len();
            lines.push(format!(
                "{} vs {}: {} — {}{}",
                v.name,
                b.name,
                counts
                    .iter()
                    .map(|(k, n)| format!("{n} × {}", k.text()))
                    .collect::<Vec<_>>()
                    .join(", "),
                if misses == 0 {
                    "bar met in every cell".to_string()
                } else {
                    format!("**bar missed in {misses} of {} cells**", verdicts.len())
                },
                if skipped > 0 {
                    format!(" ({skipped} cell(s) n/a)")
                } else {
                    String::new()
                }
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::scenario::by_id;
    use crate::stats::tests::{iv, sample};

    fn evidence(nginx_bound: bool, rps: Interval, cpu: Interval) -> Evidence {
        Evidence {
            errors: false,
            nginx_bound,
            rps,
            cpu,
            p99_ok: true,
        }
    }

    #[test]
    fn ladder_on_req_per_s_where_nginx_is_the_bottleneck() {
        let flat = iv(1.0, 1.0);
        // Entirely above 1: win; touching 1 (lo = 1.0) is not beyond the noise: even.
        assert_eq!(decide(&evidence(true, iv(1.02, 1.08), flat)), Verdict::Win);
        assert_eq!(decide(&evidence(true, iv(1.001, 1.05), flat)), Verdict::Win);
        assert_eq!(decide(&evidence(true, iv(1.0, 1.05), flat)), Verdict::Even);
        // Straddling 1: even, however far the interval reaches.
        assert_eq!(decide(&evidence(true, iv(0.999, 1.3), flat)), Verdict::Even);
        assert_eq!(decide(&evidence(true, iv(0.7, 1.001), flat)), Verdict::Even);
        // hi exactly 1.0 is not below 1: even, not a loss.
        assert_eq!(decide(&evidence(true, iv(0.95, 1.0), flat)), Verdict::Even);
        // Entirely below 1: loss.
        assert_eq!(
            decide(&evidence(true, iv(0.90, 0.999), flat)),
            Verdict::Loss
        );
        // CPU per request does not decide here: 20 % cheaper but slower is still a loss.
        assert_eq!(
            decide(&evidence(true, iv(0.9, 0.95), iv(1.2, 1.3))),
            Verdict::Loss
        );
    }

    #[test]
    fn ladder_on_cpu_per_request_where_wrk_or_the_link_sets_the_rate() {
        let same_rate = iv(0.99, 1.01);
        assert_eq!(
            decide(&evidence(false, same_rate, iv(1.05, 1.2))),
            Verdict::WinCpu
        );
        assert_eq!(
            decide(&evidence(false, same_rate, iv(0.98, 1.1))),
            Verdict::EvenCpu
        );
        assert_eq!(
            decide(&evidence(false, same_rate, iv(0.8, 0.95))),
            Verdict::Loss
        );
        // The rate may trail by up to 3 %: hi at 0.97 is allowed, below it is a loss even
        // when each request costs less CPU.
        assert_eq!(
            decide(&evidence(false, iv(0.95, 0.97), iv(1.1, 1.2))),
            Verdict::WinCpu
        );
        assert_eq!(
            decide(&evidence(false, iv(0.94, 0.969), iv(1.1, 1.2))),
            Verdict::Loss
        );
        // A higher rate alone is not a win here: the CPU interval decides.
        assert_eq!(
            decide(&evidence(false, iv(1.1, 1.2), iv(0.99, 1.02))),
            Verdict::EvenCpu
        );
    }

    #[test]
    fn errors_then_loss_then_p99() {
        let mut e = evidence(true, iv(0.8, 0.9), iv(1.0, 1.0));
        e.errors = true;
        e.p99_ok = false;
        assert_eq!(decide(&e), Verdict::Errors);
        e.errors = false;
        assert_eq!(decide(&e), Verdict::Loss);
        e.rps = iv(1.1, 1.2);
        assert_eq!(decide(&e), Verdict::P99Worse);
        assert!(!Verdict::P99Worse.meets_bar() && !Verdict::Loss.meets_bar());
        assert!(Verdict::EvenCpu.meets_bar() && Verdict::Win.meets_bar());
    }

    #[test]
    fn p99_needs_ten_percent_and_one_ms_beyond_the_noise() {
        assert!(
            p99_ok(1.10, 9.0, 4.0, false, false),
            "10 % exactly is not worse"
        );
        assert!(!p99_ok(1.11, 5.1, 4.0, false, false));
        assert!(p99_ok(1.5, 2.9, 2.0, false, false), "50 % but only 0.9 ms");
        assert!(
            p99_ok(1.5, 40.0, 4.0, true, false),
            "the link is full: its queue, not nginx"
        );
        assert!(
            p99_ok(1.5, 40.0, 4.0, false, true),
            "the baseline's p99 lies among its failures"
        );
    }

    #[test]
    fn a_baselines_failures_are_its_slowest_answers() {
        // Stock out of connections: per round 1,200 answered (fast, p99 100 ms) and 2,700
        // socket errors; nginx-gen answers 9,300, all, with a p99 of 142 ms.
        let mut stock = vec![sample(1_200, 350, 100); 3];
        for s in &mut stock {
            s.wrk.socket_errors = 2_700;
        }
        let gen_ = vec![sample(9_300, 330, 142); 3];
        assert!((unanswered(&stock) - 2_700.0 / 3_900.0).abs() < 1e-9);
        assert!(unanswered(&gen_).abs() < f64::EPSILON);
        let c = cell(vec![stock.clone(), stock.clone(), gen_.clone()]);
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::WinCpu);
        // Below 1 % unanswered the baseline's p99 still counts.
        for s in &mut stock {
            s.wrk.socket_errors = 11;
        }
        assert!(unanswered(&stock) < UNANSWERED);
        let c = cell(vec![stock.clone(), stock, gen_]);
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::P99Worse);
    }

    fn cell(samples: Vec<Vec<Sample>>) -> Cell {
        Cell {
            scenario: by_id("html"),
            conns: 50,
            samples,
        }
    }

    /// One variant's rounds: (req/s, CPU ms) per round, all with a p99 of `p99_ms`.
    fn rounds(p99_ms: u64, runs: &[(u64, u64)]) -> Vec<Sample> {
        runs.iter()
            .map(|&(rps, cpu_ms)| sample(rps, cpu_ms, p99_ms))
            .collect()
    }

    #[test]
    fn ratio_of_measured_rounds() {
        // nginx at 95 % of its one worker: req/s decide. nginx-gen 5–7 % ahead of stock in
        // every round, the guide 1 % behind to 2 % ahead of stock.
        let stock = rounds(4, &[(20_000, 950), (20_400, 950), (19_800, 950)]);
        let guide = rounds(4, &[(19_800, 950), (20_800, 950), (19_900, 950)]);
        let gen_ = rounds(4, &[(21_200, 950), (21_700, 950), (21_000, 950)]);
        let c = cell(vec![stock, guide, gen_]);
        let r = ratio(&c, 2, 0, 1, None);
        assert_eq!(r.verdict, Verdict::Win);
        assert!(r.rps_lo > 1.0 && (r.rps - 1.0617).abs() < 0.001, "{r:?}");
        assert!((r.rps_min - 1_060.0 / 1_000.0).abs() < 1e-9);
        assert_eq!(ratio(&c, 1, 0, 1, None).verdict, Verdict::Even);
        assert_eq!(ratio(&c, 0, 2, 1, None).verdict, Verdict::Loss);

        // wrk-bound (nginx at 40–50 % of its CPU), same rate: CPU per request decides.
        let stock = rounds(3, &[(30_000, 500), (30_000, 510), (30_000, 490)]);
        let gen_ = rounds(3, &[(30_000, 400), (29_900, 405), (30_100, 398)]);
        let c = cell(vec![stock, gen_.clone(), gen_]);
        let r = ratio(&c, 2, 0, 1, None);
        assert_eq!(r.verdict, Verdict::WinCpu);
        assert!((r.cpu - 1.24).abs() < 0.02, "{r:?}");
        assert_eq!(ratio(&c, 0, 2, 1, None).verdict, Verdict::Loss);

        // With four workers the same 95 % of one CPU is far from busy: the CPU branch.
        let a = vec![sample(20_000, 950, 4); 3];
        let c = cell(vec![a.clone(), a.clone(), a]);
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::Even);
        assert_eq!(ratio(&c, 2, 0, 4, None).verdict, Verdict::EvenCpu);

        // One failed request is enough.
        let mut bad = vec![sample(20_000, 950, 4); 3];
        bad[1].wrk.socket_errors = 1;
        let ok = vec![sample(20_000, 950, 4); 3];
        let c = cell(vec![ok.clone(), ok, bad]);
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::Errors);
    }

    #[test]
    fn p99_on_a_full_link_is_the_links_queue() {
        // 100 Mbit/s link; 400 req/s × 31 KB = 99.2 Mbit/s: full. p99 20 ms vs 5 ms.
        let base = vec![sample(380, 100, 5); 3];
        let full = vec![sample(400, 100, 20); 3];
        let c = cell(vec![base.clone(), base, full]);
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::P99Worse);
        // On the link: judged by CPU per request (nginx is at 10 %), 5 % cheaper per request.
        assert_eq!(ratio(&c, 2, 0, 1, Some(100)).verdict, Verdict::WinCpu);
    }

    #[test]
    fn a_variant_filling_the_link_is_judged_by_cpu_however_busy_the_baseline() {
        // 100 Mbit/s; both fill it (≈ 380 req/s × 31 KB), the baseline's nginx at 89 % of
        // its CPU, this one's at 3 %, its rate 0.2 % behind (a few header bytes more).
        let busy = vec![sample(381, 890, 40); 3];
        let idle = vec![sample(380, 30, 40); 3];
        let c = cell(vec![busy.clone(), busy, idle]);
        let r = ratio(&c, 2, 0, 1, Some(100));
        assert!(!r.nginx_bound && r.rps_hi < 1.0, "{r:?}");
        assert_eq!(r.verdict, Verdict::WinCpu);
        // Off the link the same figures would be nginx's rates: a loss.
        assert_eq!(ratio(&c, 2, 0, 1, None).verdict, Verdict::Loss);
    }

    #[test]
    fn tally_counts_and_names_misses() {
        let stock = vec![sample(20_000, 950, 4); 3];
        let gen_ = rounds(4, &[(21_000, 950), (21_300, 950), (21_100, 950)]);
        let slow = rounds(4, &[(18_000, 950), (18_300, 950), (18_100, 950)]);
        let m = loopback(vec![
            cell(vec![stock.clone(), stock.clone(), gen_]),
            cell(vec![stock.clone(), stock, slow]),
        ]);
        let lines = tally(&m, &three());
        assert_eq!(
            lines,
            [
                "nginx-gen vs stock: 1 × win, 1 × LOSS — **bar missed in 1 of 2 cells**",
                "nginx-gen vs guide: 1 × win, 1 × LOSS — **bar missed in 1 of 2 cells**",
            ]
        );
    }

    #[test]
    fn a_loss_to_tls_1_2_is_the_protocols_price_only_when_tls_1_2_alone_is_even() {
        // Resumed handshakes, the client setting the rate (4,000/s): the baseline's TLS 1.2
        // for 300 ms of CPU a second, nginx-gen's TLS 1.3 for 550 ms.
        let handshakes = |cpu_ms: u64, tls13: bool| -> Vec<Sample> {
            let mut s = vec![sample(4_000, cpu_ms, 2); 3];
            for x in &mut s {
                x.wrk.tls13 = if tls13 { 4_000 } else { 0 };
            }
            s
        };
        let c = Cell {
            scenario: by_id("tls-resume"),
            conns: 8,
            samples: vec![
                handshakes(300, false),
                handshakes(550, true),
                handshakes(550, true),
            ],
        };
        assert!(older_protocol(&c, 2, 0));
        assert!(!older_protocol(&c, 2, 1), "the same protocol");
        assert!(!older_protocol(&c, 0, 2), "the newer one is not older");
        // wrk's cells count no protocol.
        let html = cell(vec![
            vec![sample(4_000, 300, 2); 3],
            vec![sample(4_000, 550, 2); 3],
        ]);
        assert!(!older_protocol(&html, 1, 0));

        let mut m = loopback(vec![c.clone()]);
        let judged = |m: &ModeResult| compare(m, &c, 2, 0).map(|r| r.verdict);
        assert_eq!(judged(&m), Some(Verdict::Loss));
        let matched = SameProtocol {
            protocol: TLS12,
            cpu: iv(0.99, 1.02),
            rps: iv(0.98, 1.03),
            errors: false,
            protocols_held: true,
        };
        let recheck = |same: Option<SameProtocol>, control: Interval| Recheck {
            scenario: "tls-resume",
            conns: 8,
            v: 2,
            base: 0,
            rounds: 10,
            cpu: iv(0.53, 0.57),
            verdict: Verdict::Loss,
            control,
            same_protocol: same,
        };
        let aa = iv(0.99, 1.01);
        // Confirmed together, and nginx-gen with TLS 1.2 alone within 3 %: TLS 1.3's price.
        m.rechecks = vec![recheck(Some(matched), aa)];
        assert_eq!(judged(&m), Some(Verdict::ProtocolPrice));
        assert!(Verdict::ProtocolPrice.meets_bar());
        let text = compare(&m, &c, 2, 0).and_then(|r| r.recheck_text());
        assert!(
            text.as_deref().is_some_and(|t| t.ends_with(
                "nginx-gen with TLSv1.2 alone CPU 1.005× (CI 0.990..1.020), req/s 1.005× (CI 0.980..1.030): the protocol's price: with the baseline's protocol within 3 %"
            )),
            "{text:?}"
        );
        // Each of these leaves the loss standing: dearer on TLS 1.2 as well (the
        // configuration's loss); an interval too wide to say "within 3 %"; the rate behind;
        // requests failed; the protocols not the ones expected; not measured on the
        // baseline's protocol; the A/A control off.
        for same in [
            SameProtocol {
                cpu: iv(0.90, 0.95),
                ..matched
            },
            SameProtocol {
                cpu: iv(0.90, 1.10),
                ..matched
            },
            SameProtocol {
                rps: iv(0.90, 0.96),
                ..matched
            },
            SameProtocol {
                errors: true,
                ..matched
            },
            SameProtocol {
                protocols_held: false,
                ..matched
            },
        ] {
            m.rechecks = vec![recheck(Some(same), aa)];
            assert_eq!(judged(&m), Some(Verdict::Loss), "{same:?}");
        }
        m.rechecks = vec![recheck(None, aa)];
        assert_eq!(judged(&m), Some(Verdict::Loss));
        m.rechecks = vec![recheck(Some(matched), iv(1.01, 1.03))];
        assert_eq!(judged(&m), Some(Verdict::Loss));

        // The client's rate, not nginx's CPU, lost (the TLS 1.2 client is cheaper too): a
        // together CPU even with the baseline does not clear it; only the protocol can.
        let mut rate = c.clone();
        for x in &mut rate.samples[0] {
            x.wrk.requests = 4_600;
            x.cpu_ns = 550_000_000;
        }
        let mut m = ModeResult {
            cells: vec![rate.clone()],
            ..m
        };
        let r = ratio(&rate, 2, 0, 1, None);
        assert!(r.verdict == Verdict::Loss && !r.cpu_can_settle() && r.measured_again());
        m.rechecks = vec![Recheck {
            cpu: iv(1.01, 1.05),
            verdict: Verdict::WinCpu,
            ..recheck(None, aa)
        }];
        let judged = |m: &ModeResult| compare(m, &rate, 2, 0).map(|r| r.verdict);
        assert_eq!(judged(&m), Some(Verdict::Loss));
        assert_eq!(m.rechecks[0].settle(0.9, false), Settled::RateStands);
        m.rechecks[0].same_protocol = Some(matched);
        assert_eq!(judged(&m), Some(Verdict::ProtocolPrice));

        // Even rates and CPU, but p99 twice the baseline's (TLS 1.3's handshakes queue
        // longer): a p99 miss, measured again for its protocol; the same protocol within
        // 3 % makes it the price, else it stays a miss.
        let mut slow = c.clone();
        for x in &mut slow.samples[2] {
            x.wrk.p99_us = 4_000;
        }
        for x in &mut slow.samples[0] {
            x.cpu_ns = 550_000_000;
        }
        let r = ratio(&slow, 2, 0, 1, None);
        assert!(
            r.verdict == Verdict::P99Worse && r.measured_again(),
            "{r:?}"
        );
        let judged = |m: &ModeResult| compare(m, &slow, 2, 0).map(|r| r.verdict);
        let mut m = ModeResult {
            cells: vec![slow.clone()],
            ..m
        };
        m.rechecks[0].same_protocol = None;
        assert_eq!(judged(&m), Some(Verdict::P99Worse));
        m.rechecks[0].same_protocol = Some(matched);
        assert_eq!(judged(&m), Some(Verdict::ProtocolPrice));
    }

    /// A loopback mode of one worker with these cells and no rechecks.
    fn loopback(cells: Vec<Cell>) -> ModeResult {
        ModeResult {
            link: "loopback".into(),
            cells,
            logs: Vec::new(),
            link_mbit: None,
            workers: 1,
            wall: Duration::from_secs(1),
            rechecks: Vec::new(),
        }
    }

    /// stock, guide, nginx-gen.
    fn three() -> Vec<Variant> {
        Variant::builtin()
            .into_iter()
            .filter(|v| !matches!(v.kind, crate::variants::Kind::Peer(_)))
            .collect()
    }

    #[test]
    fn every_builtin_but_nginx_gen_is_a_baseline() {
        let all = Variant::builtin();
        let names = |it: &mut dyn Iterator<Item = (usize, &Variant)>| {
            it.map(|(i, v)| format!("{i}:{}", v.name))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&mut baselines(&all)),
            ["0:stock", "1:guide", "2:nginxconfig", "3:h5bp"]
        );
        assert_eq!(names(&mut contenders(&all)), ["4:nginx-gen"]);
        let mut with_patch = all.clone();
        with_patch.push(Variant::parse_patch("pb16=proxy_buffer_size 16k").expect("patch"));
        assert_eq!(
            names(&mut contenders(&with_patch)),
            ["4:nginx-gen", "5:pb16"]
        );
    }

    #[test]
    fn cells_a_variant_did_not_run_are_not_judged() {
        // stock, guide, nginx-gen; stock did not run (no HTTP/2), nginx-gen lost to the guide.
        let guide = vec![sample(20_000, 950, 4); 3];
        let slow = rounds(4, &[(18_000, 950), (18_300, 950), (18_100, 950)]);
        let c = cell(vec![Vec::new(), guide, slow]);
        let vars = three();
        assert!(!applies(&c, 0) && applies(&c, 1) && !applies(&c, 7));
        let m = loopback(vec![c.clone()]);
        assert!(compare(&m, &c, 2, 0).is_none());
        assert_eq!(
            compare(&m, &c, 2, 1).map(|r| r.verdict),
            Some(Verdict::Loss)
        );
        let (losses, others) = misses(&m, &c, 2, &vars);
        assert_eq!(
            losses.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["guide"]
        );
        assert!(others.is_empty());
        assert_eq!(
            tally(&m, &vars),
            [
                "nginx-gen vs stock: no cell both ran",
                "nginx-gen vs guide: 1 × LOSS — **bar missed in 1 of 1 cells**",
            ]
        );
    }
}
