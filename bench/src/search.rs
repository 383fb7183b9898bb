//! `nginx-gen-bench search`: the ceiling. For each scenario, a bounded grid of alternative
//! values for the directives that matter ([`grid`]), each a `--patch` of nginx-gen's own
//! output, measured against nginx-gen's configuration with the main run's interleaved
//! rounds and confidence intervals ([`run::all`], [`rank`]).
//!
//! Two stages per scenario, each a run of the main harness with its own instances:
//! 1. the **screen**: nginx-gen and every alternative, one directive changed at a time
//!    (a coordinate search from nginx-gen's configuration), `--rounds` rounds;
//! 2. the **confirmation**: nginx-gen, the `--confirm` best alternatives of the screen and
//!    the combination of the winners (one per directive), `--confirm-rounds` fresh rounds.
//!    The best configuration and its interval come from these rounds only: the screen
//!    picks the largest of many noisy ratios, which overstates it. A second instance of
//!    nginx-gen's configuration runs with them as an A/A control: its interval should
//!    contain 1, and a finding counts only where it does.
//! 3. **more rounds** (`--more-rounds`): a cell the confirmation leaves unclear (the
//!    interval reaches across 3 %) is measured again with the same variants,
//!    `--confirm-rounds` at a time, until it is decided or the rounds are spent; its
//!    intervals come from all its confirmation rounds.
//!
//! `--budget` bounds the whole search ([`budget`]); the report ([`report`]) lists the grid,
//! and per cell nginx-gen's result, the best configuration found, the difference with its
//! 95 % interval and whether nginx-gen is within 3 % of it or better.

mod budget;
mod grid;
mod rank;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use clap::builder::{PossibleValuesParser, RangedU64ValueParser};
use nginx_gen_core::Plan;

use crate::markdown::Meta;
use crate::opts::Opts;
use crate::prepare::{self, Prepared};
use crate::proc::{self, Launch, NGINX};
use crate::results::{Cell, ModeResult, harness_ok};
use crate::run;
use crate::scenario::{self, Scenario, scenarios};
use crate::stats::Stat;
use crate::variants::{self, Env, Variant};
use crate::verdict;

pub use budget::{Budget, Shape};
pub use grid::{Alt, Knob};
pub use rank::{Goal, Score};

/// nginx-gen-bench search: the best configuration the bench can find, next to nginx-gen's.
///
/// For each scenario, tries a bounded grid of alternative values (keep-alive, buffers,
/// open_file_cache, sendfile chunking, accept handling, reuseport, compression levels, TLS
/// session settings, who picks the TLS suite), each a patch of nginx-gen's output, one
/// directive at a time; measures them against nginx-gen's configuration in interleaved
/// rounds, then the best few and their combination again in fresh rounds. Run as root.
/// docs/benchmarks.md ("The ceiling: configuration search") explains the method.
#[derive(Debug, Clone, Parser)]
#[allow(
    clippy::doc_markdown,
    reason = "the doc comments are the --help text, printed as written"
)]
#[command(name = "nginx-gen-bench search", version, args_override_self = true)]
pub struct SearchOpts {
    /// CI smoke (≤ 60 s): 3 alternatives on the html scenario (a fourth with 2+ workers), 2 + 2 rounds at 50
    /// connections; fails when the harness breaks (an instance does not start or answer,
    /// a request errors)
    #[arg(long)]
    pub quick: bool,

    /// Scenarios to search, comma-separated [default: all; html with --quick]
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = clap::ArgAction::Set,
          value_parser = PossibleValuesParser::new(scenario::IDS))]
    pub only: Option<Vec<String>>,

    /// Connection counts, comma-separated [default: each scenario's first count of the
    /// main run (50; 200 for gzip-js)]
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = clap::ArgAction::Set,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub conns: Option<Vec<u32>>,

    /// Rounds of the screen (every alternative and nginx-gen, interleaved)
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub rounds: usize,

    /// Fresh rounds of the confirmation (the best alternatives, their combination and the
    /// A/A control: nginx-gen's configuration in a second instance)
    #[arg(long, value_name = "N", default_value_t = 6,
          value_parser = RangedU64ValueParser::<usize>::new().range(2..))]
    pub confirm_rounds: usize,

    /// Cells the confirmation leaves unclear get up to N more of its rounds, --confirm-rounds
    /// at a time, until decided; their intervals come from all their rounds (not counted in
    /// --budget)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub more_rounds: usize,

    /// Confirm one instance at a time, as the screen runs (req/s and p99 measured, but the
    /// machine's changes of speed between runs stay in the intervals), instead of every
    /// candidate and nginx-gen at once, compared by CPU per request
    #[arg(long)]
    pub apart: bool,

    /// How many of the screen's best alternatives are measured again (every --try patch is)
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub confirm: usize,

    /// Seconds per wrk run (outside --quick TLS runs last at least 8 s, runs through the slow
    /// upstream and at 1000 connections or more at least 4 s, and the confirmation's
    /// handshake runs at least 8 s)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub seconds: u32,

    /// Instead of the grid: this patch of nginx-gen's output (`'directive args; …'`, as
    /// --patch takes it) is an alternative; repeatable. To measure again, with more rounds,
    /// what an earlier search found. `@stock`, `@guide`, `@nginxconfig`, `@h5bp`: that
    /// baseline's whole configuration, measured against nginx-gen the same way (a load-test
    /// miss measured again, together)
    #[arg(long = "try", value_name = "'d a; …'", action = clap::ArgAction::Append)]
    pub tries: Vec<String>,

    /// Bound the whole search: seconds (900s, 15m, 1h) or wrk runs (400runs). Each
    /// scenario takes at most an equal share of what is left; its grid is cut from the end
    /// (the likeliest effects come first) [default: the whole grid]
    #[arg(long, value_name = "TIME|Nruns")]
    pub budget: Option<Budget>,

    /// CPUs for the nginx under test (`taskset -c` list); their count is the worker count
    #[arg(long, value_name = "LIST", default_value = "0")]
    pub nginx_cpus: String,

    /// CPUs for wrk and the upstream application (`taskset -c` list)
    #[arg(long, value_name = "LIST", default_value = "1")]
    pub wrk_cpus: String,

    /// First loopback port (each instance takes the next two)
    #[arg(long, value_name = "N", default_value_t = 28700)]
    pub port: u16,

    /// Markdown report: its section (between the search's markers) is replaced, or
    /// appended to the file [default: none, the summary goes to stdout]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Keep the temporary directory (configurations, logs) and print its path
    #[arg(long)]
    pub keep: bool,
}

impl SearchOpts {
    /// `nginx-gen-bench search ARGS…` (the `search` word already taken off).
    pub fn try_parse_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut o = Self::try_parse_from(
            std::iter::once(std::ffi::OsString::from("nginx-gen-bench search"))
                .chain(args.into_iter().map(Into::into)),
        )?;
        // `@name` is a whole baseline, alone in its --try; nowhere else is `@` a directive.
        if let Some(bad) = o
            .tries
            .iter()
            .find(|t| t.contains('@') && grid::whole_baseline(t).is_none())
        {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "--try {bad}: `@` names a whole baseline, alone: @stock, @guide, @nginxconfig or @h5bp\n"
                ),
            ));
        }
        if o.quick {
            o.rounds = 2;
            o.confirm_rounds = 2;
            o.more_rounds = 0;
            o.confirm = 2;
            o.seconds = 1;
            o.only.get_or_insert_with(|| vec!["html".into()]);
            o.conns.get_or_insert_with(|| vec![50]);
        }
        Ok(o)
    }

    pub fn shape(&self) -> Shape {
        Shape {
            rounds: self.rounds,
            confirm_rounds: self.confirm_rounds,
            confirm: self.confirm,
            together: !self.apart,
        }
    }

    /// The main harness's options for one stage: loopback only, one scenario.
    fn stage_opts(
        &self,
        sc: &Scenario,
        conns: &[u32],
        rounds: usize,
        together: bool,
    ) -> Result<Opts, String> {
        let mut o = Opts::try_parse_from([
            "nginx-gen-bench",
            "--nginx-cpus",
            &self.nginx_cpus,
            "--wrk-cpus",
            &self.wrk_cpus,
        ])
        .map_err(|e| e.to_string())?;
        o.quick = self.quick;
        o.rounds = rounds;
        o.seconds = if together {
            sc.together_seconds(self.seconds, self.quick)
        } else {
            self.seconds
        };
        o.together = together;
        o.port = self.port;
        o.keep = self.keep;
        o.conns = Some(conns.to_vec());
        o.only = Some(vec![sc.id.to_string()]);
        o.out = None;
        Ok(o)
    }

    /// `sc`'s share of the search with `alts` alternatives, for the budget: its cells and
    /// the length of its runs, alone and together.
    fn job(&self, sc: &Scenario, alts: usize) -> budget::Job {
        let conns = self.conns_of(sc);
        // A run's length per cell: the mean of its cells' (a crowd runs longer), rounded up.
        let mean = |asked: u32| {
            let total: u32 = conns
                .iter()
                .map(|&c| sc.run_seconds(asked, c, self.quick))
                .sum();
            total.div_ceil(conns.len().max(1) as u32)
        };
        budget::Job {
            alts,
            cells: conns.len(),
            load_s: mean(self.seconds),
            together_load_s: mean(sc.together_seconds(self.seconds, self.quick)),
        }
    }

    /// The scenarios searched, in run order.
    pub fn scenarios(&self) -> Vec<Scenario> {
        scenarios()
            .into_iter()
            .filter(|s| {
                self.only
                    .as_ref()
                    .is_none_or(|o| o.iter().any(|x| x == s.id))
            })
            .collect()
    }

    /// The connection counts of `sc`'s cells, each once (a cell is found by its count).
    pub fn conns_of(&self, sc: &Scenario) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        let given = self
            .conns
            .as_deref()
            .unwrap_or(&sc.conns[..sc.conns.len().min(1)]);
        for &c in given {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }
}

/// One cell's outcome: (scenario, connections).
#[derive(Debug, Clone)]
pub struct CellOutcome {
    pub conns: u32,
    /// nginx-gen's figures in the rounds that decided (the confirmation's, else the
    /// screen's).
    pub gen_stat: Stat,
    /// Every tried alternative's score in the screen, in grid order.
    pub screen: Vec<Score>,
    /// The confirmed candidates (patch body) and their scores in the fresh rounds.
    pub confirm: Vec<(String, Score)>,
    /// The confirmed candidate the goal is judged on (an index into `confirm`, see
    /// [`rank::lead`]): the best configuration found when ahead of nginx-gen, else the
    /// closest alternative.
    pub lead: Option<usize>,
    /// nginx-gen against a second instance of itself in the confirmation (A/A): how far
    /// the harness's noise reaches. Its interval should contain 1.
    pub control: Option<Score>,
    /// `None` when nothing was tried (the budget).
    pub goal: Option<Goal>,
    /// Confirmation rounds behind `confirm` (more than `--confirm-rounds` where
    /// `--more-rounds` extended an unclear cell).
    pub rounds: usize,
}

impl CellOutcome {
    /// A cell where nothing was tried (the budget ran out before it).
    pub fn untried(conns: u32) -> Self {
        Self {
            conns,
            gen_stat: Stat::default(),
            screen: Vec::new(),
            confirm: Vec::new(),
            lead: None,
            control: None,
            goal: None,
            rounds: 0,
        }
    }

    /// The best configuration found (an index into `confirm`): the lead, when it came out
    /// ahead of nginx-gen.
    pub fn best(&self) -> Option<usize> {
        self.lead.filter(|&i| self.confirm[i].1.gain.mid > 1.0)
    }

    /// Judges the confirmed `candidates` from the confirmation's `cell` (nginx-gen at
    /// variant 0, its A/A control at 1, the candidates after them).
    /// `together`: the confirmation loaded them at once (nginx-gen's figures then stay the
    /// screen's: its rate and p99 were its own there).
    fn judge(&mut self, cell: &Cell, candidates: &[String], workers: usize, together: bool) {
        let s: Vec<Score> = (2..cell.samples.len())
            .map(|v| rank::score(cell, v, 0, workers, together))
            .collect();
        let (lead, goal) = rank::lead(&s);
        self.control = Some(rank::score(cell, 1, 0, workers, together));
        if !together {
            self.gen_stat = Stat::of(&cell.samples[0]);
        }
        self.confirm = candidates.iter().cloned().zip(s).collect();
        self.lead = lead;
        self.goal = Some(goal);
        self.rounds = cell.samples[0].len();
    }
}

/// One scenario's search.
#[derive(Debug, Clone)]
pub struct ScenarioOutcome {
    pub scenario: Scenario,
    /// The whole grid, nginx-gen's values included.
    pub knobs: Vec<Knob>,
    /// The alternatives measured, in grid order.
    pub tried: Vec<Alt>,
    /// Alternatives of the grid not measured, and why (budget, refused by `nginx -t`).
    pub left_out: Vec<(String, String)>,
    pub cells: Vec<CellOutcome>,
    pub wall: Duration,
}

/// The whole search, for the report.
#[derive(Debug)]
pub struct Outcome {
    pub scenarios: Vec<ScenarioOutcome>,
    pub shape: Shape,
    /// `--more-rounds`: the cap on the extra confirmation rounds of an unclear cell.
    pub more_rounds: usize,
    pub budget: Option<Budget>,
    pub seconds: u32,
    /// `--quick`: the smoke test's runs, which keep `seconds` everywhere.
    pub quick: bool,
    pub took: Duration,
    /// /proc/loadavg's 1-minute figure at the start and at the end.
    pub load: (String, String),
    pub meta: Meta,
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// nginx-gen's value of each directive for `sc`'s configuration.
fn current_values(env: &Env, sc: &Scenario, port: u16) -> Result<Plan, String> {
    let mut env = env.clone();
    if env.upstream.is_empty() {
        env.upstream = format!("{}:{}", env.addr, port);
    }
    Ok(Plan::new(&variants::gen_inputs(&env, sc.family, port)?))
}

/// Writes `variant`'s configuration for `sc` under `dir` and asks `nginx -t` about it.
fn nginx_t(
    variant: &Variant,
    sc: &Scenario,
    env: &Env,
    dir: &std::path::Path,
    launch: &Launch,
) -> Result<(), String> {
    let prefix = dir.join(format!("{}-{}", variant.name, sc.family.name()));
    let mut env = env.clone();
    env.upstream = format!("{}:9", env.addr);
    let written = variants::write(variant, sc.family, &env, &prefix, 9)?;
    let modules = prefix.join("modules");
    if !modules.exists() {
        std::os::unix::fs::symlink("/usr/share/nginx/modules", &modules)
            .map_err(|e| format!("{}: {e}", modules.display()))?;
    }
    let out = launch
        .command(NGINX)
        .arg("-p")
        .arg(&prefix)
        .arg("-c")
        .arg(&written.conf)
        .arg("-e")
        .arg(prefix.join("logs/error.log"))
        .args(["-g", "daemon off;", "-t"])
        .output()
        .map_err(|e| format!("{NGINX}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let text = String::from_utf8_lossy(&out.stderr);
        Err(text
            .lines()
            .find(|l| l.contains("[emerg]"))
            .unwrap_or("nginx -t failed")
            .to_string())
    }
}

/// One stage: the main harness on loopback with these variants (nginx-gen's first), at
/// these connection counts.
fn stage(
    o: &SearchOpts,
    prepared: &Prepared,
    dir: &str,
    (sc, conns): (&Scenario, &[u32]),
    variants: &[Variant],
    rounds: usize,
    together: bool,
) -> Result<ModeResult, String> {
    let opts = o.stage_opts(sc, conns, rounds, together)?;
    run::loopback(&opts, prepared, dir, std::slice::from_ref(sc), variants)
}

/// The items whose alternative served the scenario (`served`, in the same order).
fn keep_served<T>(items: Vec<T>, served: &[bool]) -> Vec<T> {
    items
        .into_iter()
        .zip(served)
        .filter_map(|(item, &s)| s.then_some(item))
        .collect()
}

/// The confirmation's candidates, chosen once for every cell of a scenario from the
/// screen's scores across its cells (`across`): the `confirm` best that meet the bar and the
/// combination of the winners. Patches given with `--try` are all measured again, whatever
/// their screen: measuring them again is what they were given for.
fn candidates(tried: &[Alt], across: &[Score], confirm: usize, given: bool) -> Vec<String> {
    if given {
        return tried.iter().map(|a| a.body.clone()).collect();
    }
    let mut out: Vec<String> = rank::top(across, confirm)
        .into_iter()
        .map(|i| tried[i].body.clone())
        .collect();
    if let Some(combo) = rank::combine(tried, across)
        && !out.contains(&combo)
    {
        out.push(combo);
    }
    out
}

/// Appends the rounds of `more` to the cells of `into` with the same connection count,
/// variant by variant: round `i` of every variant stays paired with round `i` of the
/// others, as the intervals need.
fn merge(into: &mut [Cell], more: Vec<Cell>) {
    for m in more {
        if let Some(cell) = into.iter_mut().find(|c| c.conns == m.conns) {
            for (rounds, new) in cell.samples.iter_mut().zip(m.samples) {
                rounds.extend(new);
            }
        }
    }
}

/// The connection counts of the cells the confirmation left unclear.
fn unclear(cells: &[CellOutcome]) -> Vec<u32> {
    cells
        .iter()
        .filter(|c| c.goal == Some(Goal::Unclear))
        .map(|c| c.conns)
        .collect()
}

/// The search for one scenario; `Ok((outcome, harness ok))`.
fn search_scenario(
    o: &SearchOpts,
    prepared: &Prepared,
    sc: &Scenario,
    knobs: Vec<Knob>,
    tried: &[Alt],
    left_out: Vec<(String, String)>,
) -> Result<(ScenarioOutcome, bool), String> {
    let started = Instant::now();
    let workers = prepared.env.workers;
    let mut ok = true;
    let conns = o.conns_of(sc);
    let mut outcome = ScenarioOutcome {
        scenario: sc.clone(),
        knobs,
        tried: tried.to_vec(),
        left_out,
        cells: Vec::new(),
        wall: Duration::ZERO,
    };
    if tried.is_empty() {
        outcome.cells = conns.iter().map(|&c| CellOutcome::untried(c)).collect();
        return Ok((outcome, ok));
    }
    // Screen: nginx-gen (index 0) and every alternative.
    let mut vs = vec![Variant::nginx_gen()];
    vs.extend(
        tried
            .iter()
            .enumerate()
            .map(|(i, a)| grid::variant(grid::variant_name(i + 1, &a.body), &a.body)),
    );
    eprintln!(
        "search {}: screen of {} alternatives, {} round(s)",
        sc.id,
        tried.len(),
        o.rounds
    );
    let screen = stage(
        o,
        prepared,
        &format!("{}-screen", sc.id),
        (sc, &conns),
        &vs,
        o.rounds,
        false,
    )?;
    ok &= harness_ok(std::slice::from_ref(&screen));
    // An alternative that served no cell (a baseline without HTTP/2, `--try @stock` on h2)
    // has no figures: it is left out, not scored.
    let served: Vec<bool> = (1..vs.len())
        .map(|v| screen.cells.iter().any(|c| verdict::applies(c, v)))
        .collect();
    for (alt, _) in tried.iter().zip(&served).filter(|(_, s)| !**s) {
        outcome.left_out.push((
            alt.body.clone(),
            "did not serve this scenario (no HTTP/2)".into(),
        ));
    }
    let tried: Vec<Alt> = keep_served(tried.to_vec(), &served);
    outcome.tried.clone_from(&tried);
    let scores: Vec<Vec<Score>> = screen
        .cells
        .iter()
        .map(|c| {
            let all = (1..vs.len()).map(|v| rank::score(c, v, 0, workers, false));
            keep_served(all.collect(), &served)
        })
        .collect();
    let candidates = candidates(
        &tried,
        &rank::across(&scores),
        o.confirm,
        !o.tries.is_empty(),
    );
    let mut cells: Vec<CellOutcome> = screen
        .cells
        .iter()
        .zip(scores)
        .map(|(c, s)| CellOutcome {
            conns: c.conns,
            gen_stat: Stat::of(&c.samples[0]),
            screen: s,
            confirm: Vec::new(),
            lead: None,
            control: None,
            goal: Some(Goal::Best),
            rounds: 0,
        })
        .collect();
    if !candidates.is_empty() {
        // nginx-gen twice: the second instance is the A/A control, the noise floor the
        // intervals should cover.
        let mut vs = vec![Variant::nginx_gen(), Variant::nginx_gen_again()];
        vs.extend(
            candidates
                .iter()
                .enumerate()
                .map(|(i, b)| grid::variant(format!("c{}", i + 1), b)),
        );
        eprintln!(
            "search {}: confirmation of {} candidate(s), {} round(s)",
            sc.id,
            candidates.len(),
            o.confirm_rounds
        );
        let mut confirm = stage(
            o,
            prepared,
            &format!("{}-confirm", sc.id),
            (sc, &conns),
            &vs,
            o.confirm_rounds,
            !o.apart,
        )?;
        ok &= harness_ok(std::slice::from_ref(&confirm));
        for (cell, c) in cells.iter_mut().zip(&confirm.cells) {
            cell.judge(c, &candidates, workers, !o.apart);
        }
        // More rounds for the cells left unclear, until decided or spent.
        let mut more = 0;
        while more < o.more_rounds {
            let open = unclear(&cells);
            if open.is_empty() {
                break;
            }
            let step = o.confirm_rounds.min(o.more_rounds - more);
            eprintln!(
                "search {}: {step} more round(s) for the unclear cell(s) at {open:?} connections",
                sc.id
            );
            let extra = stage(
                o,
                prepared,
                &format!("{}-more{}", sc.id, more + step),
                (sc, &open),
                &vs,
                step,
                !o.apart,
            )?;
            ok &= harness_ok(std::slice::from_ref(&extra));
            merge(&mut confirm.cells, extra.cells);
            more += step;
            for (cell, c) in cells.iter_mut().zip(&confirm.cells) {
                if open.contains(&cell.conns) {
                    cell.judge(c, &candidates, workers, !o.apart);
                }
            }
        }
    }
    outcome.cells = cells;
    outcome.wall = started.elapsed();
    Ok((outcome, ok))
}

/// The whole search; `Ok(false)` when a run had errors in the smoke (`--quick`).
fn search(o: &SearchOpts) -> Result<bool, String> {
    prepare::preflight()?;
    proc::install_handlers();
    let begun = Instant::now();
    let load_start = loadavg();
    let opts = o.stage_opts(&scenarios()[0], &[50], o.rounds, false)?;
    let prepared = prepare::prepare(&opts)?;
    let launch = Launch {
        netns: None,
        cpus: o.nginx_cpus.clone(),
        nofile: variants::SYSTEMD_NOFILE,
        cgroup: None,
    };
    let check_dir = prepared.tmp.join("nginx-t");
    // The grid of every scenario, each alternative checked by `nginx -t`.
    let mut plans = Vec::new();
    for sc in o.scenarios() {
        let plan = current_values(&prepared.env, &sc, o.port)?;
        let current = |d: &str| plan.get(d).map(nginx_gen_core::plan::Setting::value);
        let (knobs, mut left_out) = if o.tries.is_empty() {
            grid::grid(&sc, &current, o.quick, prepared.env.workers)
        } else {
            (grid::tries(&o.tries), Vec::new())
        };
        let mut tried = Vec::new();
        for (i, alt) in knobs.iter().flat_map(|k| &k.alts).enumerate() {
            let v = grid::variant(grid::variant_name(i + 1, &alt.body), &alt.body);
            match nginx_t(&v, &sc, &prepared.env, &check_dir, &launch) {
                Ok(()) => tried.push(alt.clone()),
                Err(e) => left_out.push((alt.body.clone(), format!("refused by nginx -t: {e}"))),
            }
        }
        plans.push((sc, knobs, tried, left_out));
    }
    let shape = o.shape();
    let jobs: Vec<budget::Job> = plans
        .iter()
        .map(|(sc, _, tried, _)| o.job(sc, tried.len()))
        .collect();
    let fits = budget::fit(o.budget, &jobs, shape);
    let planned: f64 = fits.iter().map(|f| f.seconds).sum();
    eprintln!(
        "search: {} scenario(s), {} alternatives tried of {}, about {:.0} s of load planned",
        plans.len(),
        fits.iter().map(|f| f.alts).sum::<usize>(),
        jobs.iter().map(|j| j.alts).sum::<usize>(),
        planned
    );
    let mut ok = true;
    let mut outcome = Outcome {
        scenarios: Vec::new(),
        shape,
        more_rounds: o.more_rounds,
        budget: o.budget,
        seconds: o.seconds,
        quick: o.quick,
        took: Duration::ZERO,
        load: (load_start, String::new()),
        meta: Meta::collect(
            &opts,
            &prepared.env,
            &prepared.precompress,
            Duration::ZERO,
            Vec::new(),
        ),
    };
    let total = plans.len();
    for ((sc, knobs, mut tried, mut left_out), fit) in plans.into_iter().zip(fits) {
        for alt in tried.split_off(fit.alts) {
            left_out.push((
                alt.body,
                format!(
                    "over the budget ({})",
                    o.budget.map_or_else(String::new, |b| b.to_string())
                ),
            ));
        }
        let (out, good) = search_scenario(o, &prepared, &sc, knobs, &tried, left_out)?;
        ok &= good;
        outcome.scenarios.push(out);
        outcome.took = begun.elapsed();
        outcome.load.1 = loadavg();
        // After every scenario, so an interrupted search keeps what it measured.
        if let Some(out) = &o.out {
            report::write(out, &outcome)?;
            eprintln!(
                "wrote {} ({} of {total} scenarios)",
                out.display(),
                outcome.scenarios.len()
            );
        }
    }
    let took = outcome.took;
    println!("{}", report::summary(&outcome));
    eprintln!("search took {:.0} s", took.as_secs_f64());
    proc::cleanup();
    Ok(!o.quick || ok)
}

/// `nginx-gen-bench search …`: parses its own options (the first argument is `search`).
pub fn main() -> ExitCode {
    let o = SearchOpts::try_parse_args(std::env::args_os().skip(2)).unwrap_or_else(|e| e.exit());
    match search(&o) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!(
                "nginx-gen-bench search: errors during the smoke run: the harness or a configuration is broken"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            proc::cleanup();
            eprintln!("nginx-gen-bench search: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn parse(args: &[&str]) -> Result<SearchOpts, clap::Error> {
        SearchOpts::try_parse_args(args.iter().copied())
    }

    #[test]
    fn clap_definition_is_consistent() {
        SearchOpts::command().debug_assert();
    }

    #[test]
    fn a_try_of_a_baseline_names_one() {
        assert_eq!(parse(&["--try", "@guide"]).unwrap().tries, ["@guide"]);
        for bad in [
            "@nginx-gen",
            "access_log off; @guide",
            "@guide; -expires",
            "@",
        ] {
            let e = parse(&["--try", bad]).unwrap_err().to_string();
            assert!(e.contains("names a whole baseline"), "{bad}: {e}");
        }
    }

    #[test]
    fn given_patches_are_all_measured_again_the_grid_only_its_best() {
        use crate::search::rank::tests::s as score;
        use crate::verdict::Verdict;
        let alt = |knob, body: &str| Alt {
            knob,
            body: body.into(),
        };
        let tried = [
            alt("a", "keepalive_requests 10000"),
            alt("b", "multi_accept off"),
            alt("c", "output_buffers 4 32k"),
        ];
        // The screen: one lost, two came out ahead.
        let across = [
            score(1.04, Verdict::Even),
            score(0.90, Verdict::Loss),
            score(1.02, Verdict::Even),
        ];
        assert_eq!(
            candidates(&tried, &across, 1, false),
            [
                "keepalive_requests 10000",
                "keepalive_requests 10000; output_buffers 4 32k"
            ]
        );
        // --try: every patch again, the one the short screen judged a loss too, no
        // combination.
        assert_eq!(
            candidates(&tried, &across, 1, true),
            [
                "keepalive_requests 10000",
                "multi_accept off",
                "output_buffers 4 32k"
            ]
        );
    }

    #[test]
    fn more_rounds_decide_an_unclear_cell_and_leave_the_others() {
        use crate::scenario::by_id;
        use crate::stats::tests::sample;
        // nginx-gen, its A/A control and one candidate, nginx busy (950 ms of CPU a second
        // on its one worker: req/s decide). `ratios` are the candidate's req/s over
        // nginx-gen's, round by round.
        let cell = |conns, ratios: &[f64]| Cell {
            scenario: by_id("html"),
            conns,
            samples: vec![
                ratios.iter().map(|_| sample(20_000, 950, 1)).collect(),
                ratios.iter().map(|_| sample(20_000, 950, 1)).collect(),
                ratios
                    .iter()
                    .map(|r| sample((20_000.0 * r) as u64, 950, 1))
                    .collect(),
            ],
        };
        let candidates = ["keepalive_requests 10000".to_string()];
        let judged = |c: &Cell| {
            let mut o = CellOutcome::untried(c.conns);
            o.judge(c, &candidates, 1, false);
            o
        };
        // Two rounds, 0 and 6 % ahead: the interval reaches far past 3 %.
        let mut confirmed = vec![cell(50, &[1.00, 1.06]), cell(200, &[0.98, 0.98])];
        let first: Vec<CellOutcome> = confirmed.iter().map(judged).collect();
        assert_eq!(first[0].goal, Some(Goal::Unclear));
        assert_eq!(unclear(&first), [50]);
        // Eight more rounds of the unclear cell, about 1 % ahead.
        let more = [1.01, 1.00, 1.02, 1.01, 1.00, 1.02, 1.01, 1.01];
        merge(&mut confirmed, vec![cell(50, &more)]);
        let after = judged(&confirmed[0]);
        assert_eq!(after.rounds, 10);
        assert!(
            confirmed[0].samples.iter().all(|v| v.len() == 10),
            "every variant got the rounds"
        );
        assert_eq!(after.goal, Some(Goal::Within), "{:?}", after.confirm);
        let gain = after.confirm[0].1.gain;
        assert!(gain.mid > 1.0 && gain.hi <= rank::GOAL, "{gain:?}");
        // The other cell is as it was.
        assert_eq!(confirmed[1].samples[2].len(), 2);
        assert_eq!(judged(&confirmed[1]).confirm, first[1].confirm);
    }

    #[test]
    fn defaults_and_quick() {
        let o = parse(&[]).expect("valid");
        assert!(o.tries.is_empty());
        assert_eq!(
            (o.rounds, o.confirm_rounds, o.more_rounds, o.confirm),
            (3, 6, 0, 3)
        );
        assert_eq!((o.seconds, o.port), (1, 28700));
        assert_eq!(
            (o.budget, o.out.clone(), o.quick, o.keep),
            (None, None, false, false)
        );
        let ids: Vec<&str> = o.scenarios().iter().map(|s| s.id).collect();
        assert_eq!(ids, scenario::IDS);
        // Each scenario's first connection count of the main run.
        let conns: Vec<Vec<u32>> = o.scenarios().iter().map(|s| o.conns_of(s)).collect();
        assert_eq!(conns[0], [50]);
        assert_eq!(conns[3], [200], "gzip-js");
        let q = parse(&["--quick", "--rounds", "9", "--budget", "60s"]).expect("valid");
        assert_eq!((q.rounds, q.confirm_rounds, q.confirm), (2, 2, 2));
        assert_eq!(q.budget, Some(Budget::Seconds(60.0)));
        assert_eq!(q.scenarios().len(), 1);
        assert_eq!(q.conns_of(&q.scenarios()[0]), [50]);
    }

    #[test]
    fn flags_keep_their_spelling() {
        let o = parse(&[
            "--only",
            "html,tls",
            "--conns",
            "50,200",
            "--rounds",
            "4",
            "--confirm-rounds",
            "8",
            "--confirm",
            "2",
            "--more-rounds",
            "16",
            "--seconds",
            "2",
            "--budget",
            "400runs",
            "--nginx-cpus",
            "0",
            "--wrk-cpus",
            "1",
            "--port",
            "30000",
            "--out",
            "s.md",
            "--keep",
            "--try",
            "output_buffers 1 128k",
            "--try",
            "sendfile_max_chunk 0; listen+ reuseport",
        ])
        .expect("valid");
        assert_eq!(
            o.tries,
            [
                "output_buffers 1 128k",
                "sendfile_max_chunk 0; listen+ reuseport"
            ]
        );
        assert_eq!(o.scenarios().len(), 2);
        assert_eq!(o.conns, Some(vec![50, 200]));
        // A count given twice is one cell: cells are found by their count.
        let twice = parse(&["--conns", "50,200,50"]).expect("valid");
        assert_eq!(twice.conns_of(&twice.scenarios()[0]), [50, 200]);
        assert_eq!(
            o.shape(),
            Shape {
                rounds: 4,
                confirm_rounds: 8,
                confirm: 2,
                together: true,
            }
        );
        assert_eq!((o.seconds, o.port, o.more_rounds), (2, 30000, 16));
        assert_eq!(o.budget, Some(Budget::Runs(400)));
        assert_eq!(o.out, Some(PathBuf::from("s.md")));
        // The stage's options: one scenario, its counts, the CPUs and rounds given.
        let sc = &o.scenarios()[1];
        let st = o.stage_opts(sc, &[50], 8, true).expect("stage");
        assert_eq!(st.only, Some(vec!["tls".to_string()]));
        assert!(st.together);
        assert_eq!((st.rounds, st.seconds, st.port), (8, 2, 30000));
        assert_eq!((st.nginx_cpus.as_str(), st.wrk_cpus.as_str()), ("0", "1"));
        assert!(st.loopback() && !st.shaped && st.out.is_none());
        // A handshake scenario: the together confirmation's runs last 8 s, the screen's
        // the seconds given, the smoke test's its 1 s; the budget counts them so.
        let full = crate::scenario::by_id("tls-full");
        let secs = |o: &SearchOpts, together| {
            o.stage_opts(&full, &[8], 2, together)
                .expect("stage")
                .seconds
        };
        assert_eq!((secs(&o, true), secs(&o, false)), (8, 2));
        let job = o.job(&full, 5);
        assert_eq!((job.alts, job.load_s, job.together_load_s), (5, 2, 8));
        let quick = parse(&["--quick"]).expect("quick");
        assert_eq!(
            (secs(&quick, true), quick.job(&full, 5).together_load_s),
            (1, 1)
        );
        // The TLS keep-alive scenario's wrk runs have their own floor, alone and together;
        // its stage options keep the seconds given.
        let tls = o.job(sc, 1);
        assert_eq!((tls.load_s, tls.together_load_s, st.seconds), (8, 8, 2));
        // A crowd's runs are longer: the proxy at 50 and 1000 connections runs 1 s and 4 s,
        // counted at their mean per cell.
        let proxy = crate::scenario::by_id("proxy");
        let crowd = parse(&["--conns", "50,1000"])
            .expect("valid")
            .job(&proxy, 1);
        let mean = (1 + crate::scenario::CROWD_RUN_FLOOR).div_ceil(2);
        assert_eq!((crowd.cells, crowd.load_s), (2, mean));
        for bad in [
            &["--budget", "900"][..],
            &["--confirm-rounds", "1"],
            &["--rounds", "0"],
            &["--only", "nope"],
            &["--conns", "0"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn help_names_the_options() {
        let help = SearchOpts::command().render_long_help().to_string();
        for flag in [
            "--quick",
            "--only",
            "--conns",
            "--rounds",
            "--confirm-rounds",
            "--more-rounds",
            "--confirm",
            "--seconds",
            "--budget",
            "--try",
            "--out",
            "--keep",
        ] {
            assert!(help.contains(flag), "{flag} missing");
        }
    }
}
