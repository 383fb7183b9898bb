//! Command-line options: clap's derive, then resolved in place (`--quick` and
//! `--shaped-only` set other options; `--patch` and `--extra` keep their command-line order,
//! which is the order of the report's columns).

use std::path::PathBuf;
use std::str::FromStr;

use clap::builder::{PossibleValuesParser, RangedU64ValueParser};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};
use nginx_gen::host;

use crate::capacity::CapacityOpts;
use crate::scenario;
use crate::variants::Variant;

/// nginx-gen-bench: stock Debian nginx.conf vs the guide's vs nginx-gen's, under wrk.
///
/// Starts Debian's nginx once per configuration on loopback ports, serves the same static
/// site, loads every instance with wrk in interleaved rounds and writes a Markdown report
/// with an SVG chart. Run as root: nginx binds ports and switches to www-data, and the
/// shaped-link mode creates network namespaces. docs/benchmarks.md explains the method.
/// `nginx-gen-bench search --help`: the configuration search (the best configuration the
/// bench finds, next to nginx-gen's).
#[derive(Debug, Clone, Parser)]
#[allow(
    clippy::doc_markdown,
    reason = "the doc comments are the --help text, printed as written"
)]
#[command(
    name = "nginx-gen-bench",
    version,
    args_override_self = true,
    args_conflicts_with_subcommands = true
)]
pub struct Opts {
    /// Another mode instead of the load test
    #[command(subcommand)]
    pub mode: Option<Mode>,

    /// Smoke run: 1 round of 1 s at 50 connections, no report file unless --out
    ///
    /// Overrides --rounds and --seconds; --conns still applies (not to the TLS handshake
    /// scenarios, which keep their 8 client processes). Fails when any request
    /// errors (in the full run errors are results, e.g. stock's 768 connections at c1000).
    #[arg(long)]
    pub quick: bool,

    /// Also run over a rate-limited veth link between two network namespaces
    ///
    /// One mode per --links rate, after the loopback mode. Skipped with a note where
    /// namespaces are not permitted.
    #[arg(long)]
    pub shaped: bool,

    /// Only the shaped-link mode (--shaped without the loopback mode)
    #[arg(long)]
    pub shaped_only: bool,

    /// Link rates in Mbit/s for --shaped, comma-separated
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = ArgAction::Set,
          default_value = "1000,100", value_parser = number::<u32>)]
    pub links: Vec<u32>,

    /// Interleaved rounds (A B C, B C A, …); more rounds narrow the confidence intervals
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub rounds: usize,

    /// Seconds per wrk run (outside --quick TLS runs last at least 8 s, runs through the slow
    /// upstream and at 1000 connections or more at least 4 s)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub seconds: u32,

    /// Load a cell's variants at the same time, each by its own client, instead of one
    /// after the other (set by the search's confirmation, not a flag): the machine's speed
    /// then changes under all of them alike, so CPU per request compares them closely,
    /// while req/s and p99 (the CPU is shared) do not.
    #[arg(skip)]
    pub together: bool,

    /// Measure each loss again for N rounds (0: off, else 2 or more) with nginx-gen, its A/A
    /// control and the baselines it lost to loaded at once
    ///
    /// After the modes, on loopback, per cell where nginx-gen lost to a baseline in a way CPU
    /// per request can settle (its nginx set the rate, or the CPU decided), compared by CPU
    /// per request. The loss is reported as not confirmed (the machine's speed changed
    /// between the runs) only when nginx-gen is even or better there, the interval lies
    /// wholly above the loss's, and the A/A control stays within its own; else it stands.
    /// --quick: 2 rounds.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = recheck_rounds)]
    pub recheck: usize,

    /// Measure every cell again together, not only the losses (what the smoke runs, so the
    /// path runs whatever the rounds said)
    #[arg(long)]
    pub recheck_all: bool,

    /// Connection counts for every scenario, comma-separated [default: per scenario, from
    /// 50, 200 and 1000; 50 on a shaped link]
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = ArgAction::Set,
          value_parser = number::<u32>)]
    pub conns: Option<Vec<u32>>,

    /// Only these scenarios, comma-separated [default: all]
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = ArgAction::Set,
          value_parser = PossibleValuesParser::new(scenario::IDS))]
    pub only: Option<Vec<String>>,

    /// CPUs for the nginx under test (`taskset -c` list: 0, 0,2, 0-3); their count is the
    /// worker count of every variant
    #[arg(long, value_name = "LIST", default_value = "0", value_parser = cpu_list)]
    pub nginx_cpus: String,

    /// CPUs for wrk and the upstream application (`taskset -c` list)
    #[arg(long, value_name = "LIST", default_value = "1", value_parser = cpu_list)]
    pub wrk_cpus: String,

    /// First loopback port (each instance takes the next two)
    #[arg(long, value_name = "N", default_value_t = 28100)]
    pub port: u16,

    /// Add nginx-gen's output with directives replaced, added or removed, as variant NAME
    ///
    /// `NAME='directive args; …'`: each directive replaces the output's line of that name,
    /// or is added where it belongs (events {}, the main context, else http {}) when the
    /// output has none; `-name` removes it; `listen+ opts` / `listen- opts` add / remove
    /// options of the catch-all listens (a valued option like backlog=N replaces the one
    /// there). Repeatable. Examples: --patch 'pb16=proxy_buffer_size 16k',
    /// --patch 'def4k=listen+ deferred backlog=4096', --patch 'nomulti=-multi_accept'.
    #[arg(long, value_name = "NAME='d a; …'", action = ArgAction::Append,
          value_parser = Variant::parse_patch)]
    pub patch: Vec<Variant>,

    /// Add nginx-gen's output for the benchmark's inputs plus these, as variant NAME
    ///
    /// `NAME='{"input": value, …}'`, inputs as in docs/inputs.md; repeatable. Example:
    /// --input 'micro={"cache":"micro"}' (the proxy scenarios, compared with nginx-gen).
    #[arg(long = "input", value_name = "NAME='{…}'", action = ArgAction::Append,
          value_parser = Variant::parse_inputs)]
    pub inputs: Vec<Variant>,

    /// Add another nginx.conf template as variant NAME (placeholders as in
    /// bench/guide/nginx.conf, with the guide's server blocks); repeatable
    #[arg(long, value_name = "NAME=FILE", action = ArgAction::Append,
          value_parser = Variant::parse_extra)]
    pub extra: Vec<Variant>,

    /// Markdown report; the chart goes next to it (FILE's stem + .svg). Only the generated
    /// section of an existing file is replaced [default: docs/benchmarks.md, none with
    /// --quick]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Keep the temporary directory (configurations, logs) and print its path
    #[arg(long)]
    pub keep: bool,

    /// The `--patch`, `--extra` and `--input` variants, in command-line order.
    #[arg(skip)]
    pub variants: Vec<Variant>,
}

/// The modes other than the load test.
#[derive(Debug, Clone, Subcommand)]
pub enum Mode {
    Capacity(CapacityOpts),
}

/// A comma-separated list item: a number, spaces around it allowed.
fn number<T: FromStr>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))
}

/// `--recheck`: 0, or 2 rounds or more (one round has no interval, so its A/A control
/// always looks off).
fn recheck_rounds(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(1) => Err("0 (off) or at least 2 rounds: one round has no interval".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

fn cpu_list(s: &str) -> Result<String, String> {
    host::parse_cpu_list(s)
        .map(|_| s.trim().to_string())
        .ok_or_else(|| format!("`{s}` is not a CPU list such as 0, 0,2 or 0-3"))
}

impl Opts {
    /// This process's arguments; prints help or the error and exits as clap does.
    pub fn from_env() -> Self {
        Self::try_parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    pub fn try_parse_from<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Self::command().try_get_matches_from(args)?;
        let mut o = Self::from_arg_matches(&matches)?;
        let at = |id: &str| matches.indices_of(id).into_iter().flatten();
        let mut variants: Vec<(usize, Variant)> = at("patch")
            .zip(o.patch.iter().cloned())
            .chain(at("extra").zip(o.extra.iter().cloned()))
            .chain(at("inputs").zip(o.inputs.iter().cloned()))
            .collect();
        variants.sort_by_key(|(index, _)| *index);
        o.variants = variants.into_iter().map(|(_, v)| v).collect();
        o.shaped |= o.shaped_only;
        if o.mode.is_some() {
            return Ok(o);
        }
        if o.quick {
            o.rounds = 1;
            o.seconds = 1;
            o.recheck = o.recheck.min(2);
            o.conns.get_or_insert_with(|| vec![50]);
        } else if o.out.is_none() {
            o.out = Some(PathBuf::from("docs/benchmarks.md"));
        }
        Ok(o)
    }

    /// Run the loopback mode: all but `--shaped-only`.
    pub fn loopback(&self) -> bool {
        !self.shaped_only
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Kind;

    fn parse(args: &[&str]) -> Result<Opts, clap::Error> {
        Opts::try_parse_from(std::iter::once("nginx-gen-bench").chain(args.iter().copied()))
    }

    #[test]
    fn clap_definition_is_consistent() {
        Opts::command().debug_assert();
    }

    #[test]
    fn defaults() {
        let o = parse(&[]).expect("valid");
        assert_eq!((o.rounds, o.seconds, o.port), (3, 1, 28100));
        assert_eq!(
            (o.loopback(), o.shaped, o.quick, o.keep),
            (true, false, false, false)
        );
        assert_eq!(o.links, [1000, 100]);
        assert_eq!((o.nginx_cpus.as_str(), o.wrk_cpus.as_str()), ("0", "1"));
        assert_eq!((o.conns, o.only), (None, None));
        assert_eq!(o.out, Some(PathBuf::from("docs/benchmarks.md")));
        assert!(o.variants.is_empty());
    }

    #[test]
    fn quick_is_a_short_run_without_a_report() {
        let o = parse(&["--quick", "--rounds", "5", "--seconds", "9"]).expect("valid");
        assert_eq!((o.rounds, o.seconds, o.out), (1, 1, None));
        assert_eq!(o.conns, Some(vec![50]));
        // Losses measured again for 2 rounds, fewer if asked; 10 in the full run.
        assert_eq!(o.recheck, 2);
        assert_eq!(
            parse(&["--quick", "--recheck", "0"])
                .expect("valid")
                .recheck,
            0
        );
        assert_eq!(parse(&[]).expect("valid").recheck, 10);
        let o = parse(&["--quick", "--conns", "10,20", "--out", "x.md"]).expect("valid");
        assert_eq!(o.conns, Some(vec![10, 20]));
        assert_eq!(o.out, Some(PathBuf::from("x.md")));
    }

    #[test]
    fn every_flag_keeps_its_spelling() {
        let o = parse(&[
            "--shaped",
            "--links",
            "500, 50",
            "--rounds",
            "6",
            "--seconds",
            "2",
            "--conns",
            "50,200",
            "--only",
            "html,tls",
            "--nginx-cpus",
            "0-1",
            "--wrk-cpus",
            "2,3",
            "--port",
            "30000",
            "--out",
            "r.md",
            "--keep",
        ])
        .expect("valid");
        assert!(o.loopback() && o.shaped && o.keep);
        assert_eq!(o.links, [500, 50]);
        assert_eq!((o.rounds, o.seconds, o.port), (6, 2, 30000));
        assert_eq!(o.conns, Some(vec![50, 200]));
        assert_eq!(o.only, Some(vec!["html".to_string(), "tls".to_string()]));
        assert_eq!((o.nginx_cpus.as_str(), o.wrk_cpus.as_str()), ("0-1", "2,3"));
        assert_eq!(o.out, Some(PathBuf::from("r.md")));
        let o = parse(&["--shaped-only"]).expect("valid");
        assert!(!o.loopback() && o.shaped);
        // A repeated single-valued option: the last one counts.
        let o = parse(&[
            "--rounds", "2", "--rounds", "4", "--conns", "1", "--conns", "7,8",
        ])
        .expect("valid");
        assert_eq!((o.rounds, o.conns), (4, Some(vec![7, 8])));
    }

    #[test]
    fn patch_and_extra_keep_their_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let template = dir.path().join("t.conf");
        std::fs::write(&template, "events {}\n").expect("template");
        let extra = format!("mine={}", template.display());
        let o = parse(&[
            "--patch",
            "pb16=proxy_buffer_size 16k",
            "--extra",
            &extra,
            "--patch",
            "def4k=listen+ deferred backlog=4096; -multi_accept",
            "--patch",
            "nodef=listen- deferred",
        ])
        .expect("valid");
        let names: Vec<&str> = o.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["pb16", "mine", "def4k", "nodef"]);
        let Kind::Patched(d) = &o.variants[2].kind else {
            panic!("def4k is a patch")
        };
        assert_eq!(
            d,
            &[
                ("listen+".to_string(), "deferred backlog=4096".to_string()),
                ("-multi_accept".to_string(), String::new()),
            ]
        );
        assert!(matches!(&o.variants[1].kind, Kind::Extra(p) if *p == template));
    }

    #[test]
    fn capacity_is_a_mode_of_its_own() {
        let o = parse(&["capacity"]).expect("valid");
        let Some(Mode::Capacity(c)) = &o.mode else {
            panic!("capacity mode")
        };
        assert_eq!(c.sizes().len(), 3);
        assert_eq!(c.loads, ["static", "tls"]);
        assert_eq!((c.port, c.quick, c.out.as_ref()), (28700, false, None));
        // The load test's defaults do not apply to it.
        assert_eq!(o.out, None);
        let o = parse(&[
            "capacity",
            "--quick",
            "--sizes",
            "1:512M, 2:1G",
            "--loads",
            "tls",
            "--active-share",
            "0.1",
            "--cpus",
            "0-1",
            "--out",
            "c.md",
        ])
        .expect("valid");
        let Some(Mode::Capacity(c)) = &o.mode else {
            panic!("capacity mode")
        };
        let sizes: Vec<String> = c.sizes().iter().map(ToString::to_string).collect();
        assert_eq!(sizes, ["1 vCPU, 512M", "2 vCPU, 1G"]);
        assert_eq!(
            (c.loads.as_slice(), c.active_share),
            (&["tls".to_string()][..], Some(0.1))
        );
        assert_eq!(
            (c.cpus.as_deref(), c.out.as_deref()),
            (Some("0-1"), Some(std::path::Path::new("c.md")))
        );
        for bad in [
            &["capacity", "--sizes", "2"][..],
            &["capacity", "--sizes", "0:1G"],
            &["capacity", "--loads", "proxy"],
            &["capacity", "--active-share", "2"],
            &["--rounds", "2", "capacity"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
        let help = Opts::command()
            .find_subcommand_mut("capacity")
            .expect("subcommand")
            .render_long_help()
            .to_string();
        for flag in [
            "--quick",
            "--sizes",
            "--loads",
            "--active-share",
            "--cpus",
            "--port",
            "--nginx-gen",
            "--out",
            "--keep",
        ] {
            assert!(help.contains(flag), "{flag} missing from capacity --help");
        }
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            &["--rounds", "0"][..],
            &["--seconds", "0"],
            &["--rounds"],
            &["--only", "nope"],
            &["--conns", "50,x"],
            &["--links", ""],
            &["--nginx-cpus", "3-1"],
            &["--port", "70000"],
            &["--patch", "nothing"],
            &["--patch", "empty="],
            &["--extra", "x=/nonexistent/file.conf"],
            &["--recheck", "1"],
            &["--recheck", "-1"],
            &["--unknown"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn help_describes_every_option() {
        let help = Opts::command().render_long_help().to_string();
        for flag in [
            "--quick",
            "--shaped",
            "--shaped-only",
            "--links",
            "--rounds",
            "--seconds",
            "--conns",
            "--only",
            "--nginx-cpus",
            "--wrk-cpus",
            "--port",
            "--patch",
            "--extra",
            "--out",
            "--keep",
            "--recheck",
            "--recheck-all",
            "--help",
        ] {
            assert!(help.contains(flag), "{flag} missing from --help");
        }
        assert!(help.contains("listen+ opts") && help.contains("-name"));
        assert!(help.contains("html, js, gzip-html, gzip-js, gzip-img, newconn, tls, proxy"));
        assert!(help.contains("[default: 3]") && help.contains("[default: 1000,100]"));
    }
}
