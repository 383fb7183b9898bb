//! The search's budget: what a stage costs, and how many alternatives of each scenario's
//! grid fit in `--budget`.

use std::str::FromStr;

/// `--budget`: wall-clock seconds, or a number of wrk runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    Seconds(f64),
    Runs(u64),
}

impl FromStr for Budget {
    type Err = String;

    /// `900s`, `15m`, `1h`, `400runs` (`400r`).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let split = s
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(s.len());
        let (num, unit) = s.split_at(split);
        let n: f64 = num
            .parse()
            .ok()
            .filter(|n: &f64| *n > 0.0 && n.is_finite())
            .ok_or_else(|| format!("`{s}`: a budget is a positive number with a unit"))?;
        match unit.trim() {
            "s" => Ok(Self::Seconds(n)),
            "m" | "min" => Ok(Self::Seconds(n * 60.0)),
            "h" => Ok(Self::Seconds(n * 3600.0)),
            "r" | "runs" if n.fract() == 0.0 => Ok(Self::Runs(n as u64)),
            _ => Err(format!(
                "`{s}`: give the budget as seconds (900s, 15m, 1h) or wrk runs (400runs)"
            )),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Seconds(s) => write!(f, "{s:.0} s"),
            Self::Runs(r) => write!(f, "{r} wrk runs"),
        }
    }
}

/// Seconds a wrk run costs beyond its load: starting wrk, the pause for connections to
/// drain, the CPU and log reads (measured on the 2-CPU machine: about 0.15 s).
pub const RUN_OVERHEAD_S: f64 = 0.2;

/// One scenario's share of the search, before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Alternatives in the scenario's grid.
    pub alts: usize,
    /// Connection counts (cells) per stage.
    pub cells: usize,
    /// Seconds of load per run (`Scenario::run_seconds`; the mean of its cells', rounded
    /// up, where they differ).
    pub load_s: u32,
    /// Seconds of load per run of a confirmation that loads its variants at once
    /// (`Scenario::together_seconds`: longer for the handshake scenarios).
    pub together_load_s: u32,
}

/// The stages' shape: rounds, and how many screened alternatives are measured again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub rounds: usize,
    pub confirm_rounds: usize,
    /// The best screened alternatives measured again (the combination of the winners
    /// comes on top).
    pub confirm: usize,
    /// The confirmation loads its variants at once: a round takes the time of one run.
    pub together: bool,
}

/// What fits of one job: the first `alts` alternatives of its grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub alts: usize,
    /// wrk runs it takes at most (screen + confirmation).
    pub runs: u64,
    pub seconds: f64,
}

/// Variants of the confirmation stage besides nginx-gen for `alts` screened alternatives:
/// the A/A control, the best `shape.confirm`, and the combination of the winners when two
/// or more could win.
pub fn confirmed(alts: usize, shape: Shape) -> usize {
    1 + alts.min(shape.confirm) + usize::from(alts >= 2)
}

/// wrk runs of a job with its first `alts` alternatives: every variant (nginx-gen's and
/// the alternatives) once per round and cell, then nginx-gen and the confirmed candidates.
pub fn runs(job: Job, alts: usize, shape: Shape) -> u64 {
    let screen = (1 + alts) * shape.rounds;
    let confirm = if alts == 0 {
        0
    } else {
        (1 + confirmed(alts, shape)) * shape.confirm_rounds
    };
    ((screen + confirm) * job.cells) as u64
}

/// Seconds a job with its first `alts` alternatives takes: its runs one after the other,
/// but a together confirmation's round as one run (of `together_load_s`).
fn seconds(job: Job, alts: usize, shape: Shape) -> f64 {
    let per_run = |load_s: u32| f64::from(load_s) + RUN_OVERHEAD_S;
    if alts == 0 {
        0.0
    } else if shape.together {
        let screen = runs(
            job,
            alts,
            Shape {
                confirm_rounds: 0,
                ..shape
            },
        );
        let rounds = (shape.confirm_rounds * job.cells) as u64;
        screen as f64 * per_run(job.load_s) + rounds as f64 * per_run(job.together_load_s)
    } else {
        runs(job, alts, shape) as f64 * per_run(job.load_s)
    }
}

/// How many alternatives of each job fit: the whole grid without a budget; with one, the
/// jobs in order, each taking at most an equal share of what the jobs before it left, and
/// its grid cut from the end (the grid lists the likeliest effects first).
pub fn fit(budget: Option<Budget>, jobs: &[Job], stages: Shape) -> Vec<Fit> {
    let mut left = budget;
    let mut out = Vec::new();
    for (i, &job) in jobs.iter().enumerate() {
        let share = left.map(|b| match b {
            Budget::Seconds(s) => Budget::Seconds(s / (jobs.len() - i) as f64),
            Budget::Runs(r) => Budget::Runs(r / (jobs.len() - i) as u64),
        });
        let fits = |alts: usize| {
            let r = runs(job, alts, stages);
            match share {
                None => true,
                Some(Budget::Seconds(s)) => seconds(job, alts, stages) <= s,
                Some(Budget::Runs(n)) => r <= n,
            }
        };
        let alts = (0..=job.alts).rev().find(|&a| fits(a)).unwrap_or(0);
        let r = if alts == 0 {
            0
        } else {
            runs(job, alts, stages)
        };
        let f = Fit {
            alts,
            runs: r,
            seconds: seconds(job, alts, stages),
        };
        left = left.map(|b| match b {
            Budget::Seconds(s) => Budget::Seconds((s - f.seconds).max(0.0)),
            Budget::Runs(n) => Budget::Runs(n.saturating_sub(f.runs)),
        });
        out.push(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape {
        rounds: 3,
        confirm_rounds: 6,
        confirm: 3,
        together: false,
    };

    #[test]
    fn budgets_parse() {
        assert_eq!("900s".parse(), Ok(Budget::Seconds(900.0)));
        assert_eq!("15m".parse(), Ok(Budget::Seconds(900.0)));
        assert_eq!(" 1.5h".parse(), Ok(Budget::Seconds(5400.0)));
        assert_eq!("400runs".parse(), Ok(Budget::Runs(400)));
        assert_eq!("40r".parse(), Ok(Budget::Runs(40)));
        for bad in ["", "900", "0s", "-5m", "1.5runs", "10 parsecs", "s", "nanm"] {
            assert!(bad.parse::<Budget>().is_err(), "{bad} accepted");
        }
        assert_eq!(Budget::Seconds(900.0).to_string(), "900 s");
        assert_eq!(Budget::Runs(7).to_string(), "7 wrk runs");
    }

    #[test]
    fn runs_of_a_stage_pair() {
        let job = Job {
            alts: 14,
            cells: 1,
            load_s: 1,
            together_load_s: 1,
        };
        // Screen: 15 variants × 3 rounds; confirm: nginx-gen, the A/A control, 3 best and
        // the combination, × 6 rounds.
        assert_eq!(runs(job, 14, SHAPE), 45 + 36);
        // One alternative: no combination; none: nothing to confirm.
        assert_eq!(runs(job, 1, SHAPE), 6 + 18);
        assert_eq!(runs(job, 0, SHAPE), 3);
        assert_eq!(confirmed(2, SHAPE), 4);
        // Two connection counts double it.
        assert_eq!(runs(Job { cells: 2, ..job }, 14, SHAPE), 162);
    }

    #[test]
    fn no_budget_takes_the_whole_grid() {
        let jobs = [
            Job {
                alts: 14,
                cells: 1,
                load_s: 1,
                together_load_s: 1,
            },
            Job {
                alts: 17,
                cells: 1,
                load_s: 2,
                together_load_s: 2,
            },
        ];
        let f = fit(None, &jobs, SHAPE);
        assert_eq!(f.iter().map(|f| f.alts).collect::<Vec<_>>(), [14, 17]);
        assert_eq!(f[0].runs, 81);
        assert!((f[0].seconds - 81.0 * 1.2).abs() < 1e-9);
        assert!((f[1].seconds - f[1].runs as f64 * 2.2).abs() < 1e-9);
    }

    #[test]
    fn a_budget_cuts_grids_from_the_end_and_passes_on_what_is_left() {
        let small = Job {
            alts: 2,
            cells: 1,
            load_s: 1,
            together_load_s: 1,
        };
        let big = Job {
            alts: 14,
            cells: 1,
            load_s: 1,
            together_load_s: 1,
        };
        // 100 runs for two jobs: the small one takes at most half and needs 9 + 30 = 39;
        // the big one gets the remaining 61: 7 alternatives (24 + 36 = 60), not 8 (63).
        let f = fit(Some(Budget::Runs(100)), &[small, big], SHAPE);
        assert_eq!((f[0].alts, f[0].runs), (2, 39));
        assert_eq!((f[1].alts, f[1].runs), (7, 60));
        // In the other order the big job may take only half (50): 3 alternatives
        // (12 + 36 = 48); the small one then gets 52 and needs 39.
        let f = fit(Some(Budget::Runs(100)), &[big, small], SHAPE);
        assert_eq!((f[0].alts, f[1].alts), (3, 2));
        // Seconds: 1.2 s a run; 60 s is 50 runs.
        let f = fit(Some(Budget::Seconds(60.0)), &[big], SHAPE);
        assert_eq!(f[0].alts, 3);
        assert!(f[0].seconds <= 60.0);
        // Together, a confirmation round takes one run's time: 60 s fits 13 alternatives
        // (42 screen runs + 6 confirmation rounds = 48 × 1.2 s = 57.6 s; 14 would take
        // 51 × 1.2 = 61.2 s), where one at a time fitted 3.
        let together = Shape {
            together: true,
            ..SHAPE
        };
        let f = fit(Some(Budget::Seconds(60.0)), &[big], together);
        assert_eq!(f[0].alts, 13);
        assert!((f[0].seconds - (42.0 + 6.0) * 1.2).abs() < 1e-9);
        // The wrk runs are counted as before: every variant of the round is one.
        assert_eq!(f[0].runs, runs(big, 13, SHAPE));
        // A handshake job's together rounds last 8 s: 6 of them take 49.2 s of 61, and the
        // screen the rest, 2 alternatives (9 runs × 1.2 s), where 1-s rounds fit 13.
        let handshakes = Job {
            together_load_s: 8,
            ..big
        };
        let f = fit(Some(Budget::Seconds(61.0)), &[handshakes], together);
        assert_eq!(f[0].alts, 2);
        assert!((f[0].seconds - (9.0 * 1.2 + 6.0 * 8.2)).abs() < 1e-9);
        assert_eq!(
            fit(Some(Budget::Seconds(61.0)), &[big], together)[0].alts,
            13
        );
        // Too small for even one alternative (24 runs): nothing of that job runs.
        let f = fit(Some(Budget::Runs(23)), &[big], SHAPE);
        assert_eq!((f[0].alts, f[0].runs), (0, 0));
    }
}
