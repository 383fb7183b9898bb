//! The load test's losses measured again together. Runs one after the other carry a change
//! in the machine's speed into their ratios (a few per cent between minutes on a shared
//! host). So after the modes, every cell where nginx-gen lost to a baseline, in a way CPU
//! per request can settle, is measured again on loopback with nginx-gen, its A/A control and
//! those baselines loaded at once, like the search's confirmation, and compared by CPU per
//! request. A loss is cleared only when nginx-gen is even or better there, the interval
//! lies wholly above the loss's one at a time and the A/A control stays within its own;
//! else it stands ([`verdict::Recheck::settle`]). Where the baseline's TLS handshakes
//! negotiated TLS 1.2 and nginx-gen's TLS 1.3, nginx-gen offering TLS 1.2 alone is loaded
//! in the same rounds too, so the report tells the protocol's cost from the configuration's.

use crate::opts::Opts;
use crate::prepare::Prepared;
use crate::results::{ModeResult, harness_ok};
use crate::run;
use crate::scenario::Scenario;
use crate::stats::Stat;
use crate::variants::{Kind, Variant};
use crate::verdict::{self, Recheck, SameProtocol, Verdict, baselines, compare};

/// One cell to measure again: its scenario and connection count, and the baselines
/// nginx-gen lost to there in any mode (indices among the run's variants).
#[derive(Debug, Clone)]
pub struct Group {
    pub scenario: Scenario,
    pub conns: u32,
    pub baselines: Vec<usize>,
    /// Those of them whose handshakes negotiated TLS 1.2 where nginx-gen's negotiated TLS
    /// 1.3 ([`verdict::older_protocol`]).
    pub older_protocol: Vec<usize>,
}

/// The cells to measure again, in run order: where the contender `v` lost to a baseline in
/// a way CPU per request can settle or to a baseline on an older TLS protocol
/// ([`verdict::Ratio::measured_again`]), in any mode (a
/// shaped link's cell has the loopback cell with the same count as its double); with
/// `all`, every cell and baseline both ran in.
pub fn groups(modes: &[ModeResult], variants: &[Variant], v: usize, all: bool) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for m in modes {
        for cell in &m.cells {
            for (b, _) in baselines(variants) {
                let Some(r) = compare(m, cell, v, b) else {
                    continue;
                };
                if !(all || r.measured_again()) {
                    continue;
                }
                let at = out
                    .iter()
                    .position(|g| g.scenario.id == cell.scenario.id && g.conns == cell.conns)
                    .unwrap_or_else(|| {
                        out.push(Group {
                            scenario: cell.scenario.clone(),
                            conns: cell.conns,
                            baselines: Vec::new(),
                            older_protocol: Vec::new(),
                        });
                        out.len() - 1
                    });
                if !out[at].baselines.contains(&b) {
                    out[at].baselines.push(b);
                }
                if verdict::older_protocol(cell, v, b) && !out[at].older_protocol.contains(&b) {
                    out[at].older_protocol.push(b);
                }
            }
        }
    }
    for g in &mut out {
        g.baselines.sort_unstable();
    }
    out
}

/// What measuring the losses again gave.
#[derive(Debug, Default)]
pub struct Outcome {
    pub rechecks: Vec<Recheck>,
    /// For the report: a cell that could not be measured again (its losses stand).
    pub notes: Vec<String>,
    /// No request failed (what the smoke checks).
    pub ok: bool,
}

/// Measures every group again (`opts.recheck` rounds, together). A group that fails to run
/// is a note, and its losses stand: the modes' results are never lost to it. Nothing to
/// do without nginx-gen among the variants.
pub fn run(
    opts: &Opts,
    prepared: &Prepared,
    variants: &[Variant],
    modes: &[ModeResult],
) -> Outcome {
    let mut out = Outcome {
        ok: true,
        ..Outcome::default()
    };
    let Some(gen_index) = variants.iter().position(|x| matches!(x.kind, Kind::Gen)) else {
        return out;
    };
    for g in groups(modes, variants, gen_index, opts.recheck_all) {
        // nginx-gen, its control, then the baselines: stage index 2 + j is g.baselines[j];
        // last, where a baseline spoke an older protocol, nginx-gen offering it alone.
        let mut vs = vec![Variant::nginx_gen(), Variant::nginx_gen_again()];
        vs.extend(g.baselines.iter().map(|&b| variants[b].clone()));
        let on_older = vs.len();
        if !g.older_protocol.is_empty() {
            vs.push(Variant::nginx_gen_on(verdict::TLS12));
        }
        eprintln!(
            "recheck {} c{}: nginx-gen against {} measured again together{}, {} round(s)",
            g.scenario.id,
            g.conns,
            g.baselines
                .iter()
                .map(|&b| variants[b].name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if g.older_protocol.is_empty() {
                String::new()
            } else {
                format!(", with nginx-gen offering {} alone", verdict::TLS12)
            },
            opts.recheck
        );
        let mut o = opts.clone();
        o.shaped = false;
        o.shaped_only = false;
        o.together = true;
        o.rounds = opts.recheck;
        o.seconds = g.scenario.together_seconds(opts.seconds, opts.quick);
        o.conns = Some(vec![g.conns]);
        o.only = Some(vec![g.scenario.id.to_string()]);
        o.out = None;
        let dir = format!("recheck-{}-c{}", g.scenario.id, g.conns);
        let mode = match run::loopback(&o, prepared, &dir, std::slice::from_ref(&g.scenario), &vs) {
            Ok(m) => m,
            Err(e) => {
                let note = format!(
                    "{} c{} could not be measured again ({e}); its losses stand",
                    g.scenario.id, g.conns
                );
                eprintln!("recheck {note}");
                out.notes.push(format!("recheck: {note}"));
                out.ok = false;
                continue;
            }
        };
        out.ok &= harness_ok(std::slice::from_ref(&mode));
        let Some(cell) = mode.cells.first() else {
            continue;
        };
        let control = verdict::together(cell, 1, 0).0;
        for (j, &b) in g.baselines.iter().enumerate() {
            if !verdict::applies(cell, 2 + j) {
                continue;
            }
            let (cpu, mut v) = verdict::together(cell, 0, 2 + j);
            // A baseline that failed requests here has a dearer CPU per answered one: it
            // clears nothing.
            if Stat::of(&cell.samples[2 + j]).errors() > 0 {
                v = Verdict::Errors;
            }
            let same_protocol = (g.older_protocol.contains(&b) && verdict::applies(cell, on_older))
                .then(|| SameProtocol::measure(cell, on_older, 2 + j));
            out.rechecks.push(Recheck {
                scenario: g.scenario.id,
                conns: g.conns,
                v: gen_index,
                base: b,
                rounds: opts.recheck,
                cpu,
                verdict: v,
                control,
                same_protocol,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::results::{Cell, Sample};
    use crate::scenario::by_id;
    use crate::stats::tests::{iv, sample};
    use crate::verdict::Verdict;

    /// stock, guide, nginxconfig, h5bp, nginx-gen.
    fn mode(link_mbit: Option<u32>, cells: Vec<Cell>) -> ModeResult {
        ModeResult {
            link: "test".into(),
            cells,
            logs: Vec::new(),
            link_mbit,
            workers: 1,
            wall: Duration::from_secs(1),
            rechecks: Vec::new(),
        }
    }

    fn cell(id: &str, conns: u32, samples: Vec<Vec<Sample>>) -> Cell {
        Cell {
            scenario: by_id(id),
            conns,
            samples,
        }
    }

    /// html c50: the guide's rounds, the other baselines' and nginx-gen's.
    fn html(guide: &[Sample], others: &[Sample], gen_: &[Sample]) -> Cell {
        let o = others.to_vec();
        cell(
            "html",
            50,
            vec![o.clone(), guide.to_vec(), o.clone(), o, gen_.to_vec()],
        )
    }

    /// nginx-gen (4) against the guide (1) in html c50, measured again: `cpu` the together
    /// interval, `control` the A/A control's.
    fn html_recheck(
        cpu: crate::stats::Interval,
        verdict: Verdict,
        control: crate::stats::Interval,
    ) -> Recheck {
        Recheck {
            scenario: "html",
            conns: 50,
            v: 4,
            base: 1,
            rounds: 10,
            cpu,
            verdict,
            control,
            same_protocol: None,
        }
    }

    #[test]
    fn losses_the_cpu_can_settle_are_grouped_by_cell() {
        let vars = Variant::builtin();
        // nginx busy (95 %): req/s decide. nginx-gen 10 % slower than the guide, even with
        // the others.
        let even = vec![sample(20_000, 950, 4); 3];
        let slow = vec![sample(18_000, 950, 4); 3];
        let html = html(&even, &slow, &slow);
        // On a 100 Mbit/s link (nginx at 10 %): the guide 5 % cheaper per request (a loss
        // the CPU settles), h5bp 10 % faster on the wire (bytes: nothing to settle).
        let base = vec![sample(380, 95, 5); 3];
        let dear = vec![sample(380, 100, 5); 3];
        let fast = vec![sample(420, 100, 5); 3];
        let link = cell(
            "html",
            50,
            vec![dear.clone(), base, dear.clone(), fast, dear],
        );
        let modes = [mode(None, vec![html]), mode(Some(100), vec![link])];
        let g = groups(&modes, &vars, 4, false);
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!((g[0].scenario.id, g[0].conns), ("html", 50));
        assert_eq!(
            g[0].baselines,
            [1],
            "the guide alone; h5bp's lead is the wire's"
        );
        // `all`: every baseline of every cell both ran in.
        let g = groups(&modes, &vars, 4, true);
        assert_eq!(g[0].baselines, [0, 1, 2, 3]);
    }

    #[test]
    fn a_baseline_on_tls_1_2_is_measured_against_nginx_gen_on_tls_1_2() {
        // Resumed handshakes, the client setting the rate: the guide's TLS 1.3 cheaper than
        // nginx-gen's, a loss the CPU settles; h5bp's TLS 1.2 cheaper for the client too, so
        // its rate 15 % ahead: a loss the CPU cannot settle, measured again for its protocol.
        let handshakes = |rate: u64, cpu_ms: u64, tls13: bool| -> Vec<Sample> {
            let mut s = vec![sample(rate, cpu_ms, 2); 3];
            for x in &mut s {
                x.wrk.tls13 = if tls13 { rate } else { 0 };
            }
            s
        };
        let dear = handshakes(4_000, 550, true);
        let resume = cell(
            "tls-resume",
            8,
            vec![
                dear.clone(),
                handshakes(4_000, 500, true),
                dear.clone(),
                handshakes(4_600, 300, false),
                dear,
            ],
        );
        let m = mode(None, vec![resume]);
        let h5bp = compare(&m, &m.cells[0], 4, 3).expect("both ran");
        assert!(!h5bp.cpu_can_settle() && h5bp.measured_again(), "{h5bp:?}");
        let g = groups(&[m], &Variant::builtin(), 4, false);
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(
            (g[0].baselines.as_slice(), g[0].older_protocol.as_slice()),
            (&[1, 3][..], &[3][..])
        );
        let on = Variant::nginx_gen_on(verdict::TLS12);
        assert!(
            matches!(&on.kind, Kind::Patched(d) if d == &[("ssl_protocols".to_string(), "TLSv1.2".to_string())])
        );
        assert!(!on.is_baseline());
    }

    #[test]
    fn a_cleared_loss_keeps_the_p99_miss_it_hid() {
        // nginx-gen 10 % slower than the guide and its p99 twice the guide's: a loss first.
        let even = vec![sample(20_000, 950, 4); 3];
        let slow = vec![sample(18_000, 950, 8); 3];
        let html = html(&even, &even, &slow);
        let mut m = mode(None, vec![html]);
        assert_eq!(
            compare(&m, &m.cells[0], 4, 1).map(|r| r.verdict),
            Some(Verdict::Loss)
        );
        m.rechecks = vec![html_recheck(
            iv(0.99, 1.01),
            Verdict::EvenCpu,
            iv(0.995, 1.006),
        )];
        assert_eq!(
            compare(&m, &m.cells[0], 4, 1).map(|r| r.verdict),
            Some(Verdict::P99Worse)
        );
    }

    #[test]
    fn a_rate_behind_while_only_the_baseline_was_busy_is_not_the_cpus_to_settle() {
        // The guide's nginx busy (95 %), nginx-gen's at 60 % answering 10 % fewer requests
        // for the same CPU per request: its rate was not its CPU's.
        let guide = vec![sample(20_000, 950, 4); 3];
        let idle = vec![sample(18_000, 600, 4); 3];
        let html = html(&guide, &guide, &idle);
        let m = mode(None, vec![html]);
        let r = compare(&m, &m.cells[0], 4, 1).expect("both ran");
        assert_eq!(r.verdict, Verdict::Loss);
        assert!(r.cpu >= 1.0 && !r.self_busy);
        assert!(!r.cpu_can_settle());
        assert!(groups(&[m], &Variant::builtin(), 4, false).is_empty());
    }

    #[test]
    fn a_recheck_clears_or_confirms_the_loss_in_every_mode() {
        let even = vec![sample(20_000, 950, 4); 3];
        let slow = vec![sample(18_000, 950, 4); 3];
        let html = html(&even, &even, &slow);
        let recheck = html_recheck;
        let mut m = mode(None, vec![html]);
        let judged = |m: &ModeResult| compare(m, &m.cells[0], 4, 1).map(|r| r.verdict);
        assert_eq!(judged(&m), Some(Verdict::Loss));
        // Even together, the control within its interval: not confirmed, the bar is met.
        m.rechecks = vec![recheck(iv(0.99, 1.01), Verdict::EvenCpu, iv(0.995, 1.006))];
        assert_eq!(judged(&m), Some(Verdict::Cleared));
        assert!(Verdict::Cleared.meets_bar());
        // nginx-gen dearer together: confirmed.
        m.rechecks = vec![recheck(iv(0.97, 0.99), Verdict::Loss, iv(0.995, 1.006))];
        assert_eq!(judged(&m), Some(Verdict::Loss));
        // The control off: the rounds are not trusted, the loss stands.
        m.rechecks = vec![recheck(iv(1.01, 1.05), Verdict::WinCpu, iv(1.01, 1.03))];
        assert_eq!(judged(&m), Some(Verdict::Loss));
        assert!(
            m.rechecks[0]
                .text(0.9, true)
                .ends_with("stands: the A/A control was off")
        );
        // Even, but the interval reaches down past the 0.90× of one at a time: too few
        // rounds to clear it.
        m.rechecks = vec![recheck(iv(0.85, 1.2), Verdict::EvenCpu, iv(0.995, 1.006))];
        assert_eq!(judged(&m), Some(Verdict::Loss));
        assert_eq!(m.rechecks[0].settle(0.9, true), verdict::Settled::TooNoisy);
        assert_eq!(
            m.rechecks[0].settle(0.8, true),
            verdict::Settled::NotConfirmed
        );
        // Requests failed when measured again: the loss stands, saying why.
        m.rechecks = vec![recheck(iv(1.01, 1.05), Verdict::Errors, iv(0.995, 1.006))];
        assert_eq!(m.rechecks[0].settle(0.9, true), verdict::Settled::Errors);
        assert_eq!(judged(&m), Some(Verdict::Loss));
        // Another cell's recheck does not apply.
        m.rechecks = vec![Recheck {
            conns: 200,
            ..recheck(iv(0.99, 1.01), Verdict::EvenCpu, iv(0.995, 1.006))
        }];
        assert_eq!(judged(&m), Some(Verdict::Loss));
    }
}
