//! The live behaviour suite, with its own harness (libtest-mimic): one trial per
//! `behaviour::nginx::tree`. Every trial is marked ignored, so `cargo test --workspace`
//! (stage 10, no root) only lists them; `scripts/stages/55-behaviour.sh` runs
//! `cargo test -p nginx-gen-behaviour --release --test live -- --include-ignored` as root.
//!
//! Environment:
//! - `NGINX_GEN_BEHAVIOUR_NGINX=label=path,…`: the nginx binaries (default: Debian's
//!   `/usr/sbin/nginx` as `1.22` plus every cached `scripts/build-nginx.sh` build);
//! - `NGINX_GEN_BIN`: the nginx-gen binary (default: the workspace's release build);
//! - `NGINX_GEN_BEHAVIOUR_JOBS`: worker processes, each in its own namespaces (default 2);
//! - `NGINX_GEN_BEHAVIOUR_KEEP=1`: keep the work directory (generated trees, logs);
//! - `NGINX_GEN_BEHAVIOUR_OVERRIDE=DIR`: use `DIR/<tree>/etc/nginx` instead of generating
//!   the tree (to show that a hand-edited tree passes; never for CI).
#![allow(
    clippy::disallowed_methods,
    reason = "test harness: it runs programs and writes files"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use libtest_mimic::{Arguments, Failed, Trial};
use nginx_gen_behaviour::run::{self, Job, Outcome, WORKER_ENV, trial_name};
use nginx_gen_behaviour::{behaviours, clientaddr, grid, report};

fn selected(args: &Arguments, name: &str) -> bool {
    let hit = |pat: &str| {
        if args.exact {
            name == pat
        } else {
            name.contains(pat)
        }
    };
    args.filter.as_deref().is_none_or(hit) && !args.skip.iter().any(|s| hit(s))
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs the jobs in worker processes and writes the report.
fn run_all(
    jobs: &[Job],
    nginx: &[grid::Nginx],
    all: &[behaviours::Behaviour],
) -> Result<Vec<Outcome>, String> {
    if !is_root() {
        return Err("the behaviour suite runs as root (network and mount namespaces, ports 80/443): run scripts/stages/55-behaviour.sh".into());
    }
    let start = Instant::now();
    let work = tempfile::Builder::new()
        .prefix("nginx-gen-behaviour-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let workers = std::env::var("NGINX_GEN_BEHAVIOUR_JOBS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    eprintln!(
        "behaviour: {} jobs (tree × nginx) on {workers} workers, nginx: {}",
        jobs.len(),
        nginx
            .iter()
            .map(|n| format!(
                "{}={} ({}, OpenSSL {})",
                n.label,
                n.bin.display(),
                n.version,
                n.openssl
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let outcomes = run::run_jobs(jobs, workers, work.path());
    if std::env::var("NGINX_GEN_BEHAVIOUR_KEEP").is_ok_and(|v| v == "1") {
        eprintln!("behaviour: work directory kept: {}", work.keep().display());
    }
    let outcomes = outcomes?;
    let order: Vec<&str> = all.iter().map(|b| b.name).collect();
    let labels: Vec<String> = nginx.iter().map(|n| n.label.clone()).collect();
    let md = report::markdown(&outcomes, &order, &labels, start.elapsed().as_secs_f64());
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../artifacts");
    let path = artifacts.join("behaviour.md");
    std::fs::create_dir_all(&artifacts)
        .and_then(|()| std::fs::write(&path, md))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("behaviour: results in {}", path.display());
    Ok(outcomes)
}

fn main() -> ExitCode {
    if let Some(dir) = std::env::var_os(WORKER_ENV) {
        return match run::worker_main(Path::new(&dir)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("behaviour worker: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let args = Arguments::from_args();
    let running = (args.include_ignored || args.ignored) && !args.list;

    let nginx = match grid::nginx_list() {
        Ok(n) if !n.is_empty() => n,
        other => {
            let msg = match other {
                Err(e) => e,
                Ok(_) => "no nginx to test: install Debian's nginx (scripts/setup.sh) or set NGINX_GEN_BEHAVIOUR_NGINX".into(),
            };
            let t =
                Trial::test("nginx_list", move || Err(Failed::from(msg))).with_ignored_flag(true);
            return libtest_mimic::run(&args, vec![t]).exit_code();
        }
    };
    let trees = grid::trees();
    let all = behaviours::all();

    // Every trial, grouped into (nginx, tree) jobs.
    let mut names = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    for n in &nginx {
        for t in trees.iter().filter(|t| t.runs_on(n)) {
            let mut job = Job {
                nginx: n.label.clone(),
                tree: t.id.to_string(),
                behaviours: Vec::new(),
            };
            for b in all
                .iter()
                .filter(|b| (b.applies)(t) && t.runs(b.name) && clientaddr::probes(b.name, t))
            {
                let name = trial_name(b.name, &n.label, t.id);
                if selected(&args, &name) {
                    job.behaviours.push(b.name.to_string());
                }
                names.push(name);
            }
            if !job.behaviours.is_empty() {
                jobs.push(job);
            }
        }
    }

    let mut results: BTreeMap<String, Outcome> = BTreeMap::new();
    let mut global_error = None;
    if running && !jobs.is_empty() {
        match run_all(&jobs, &nginx, &all) {
            Ok(outcomes) => {
                for o in outcomes {
                    results.insert(o.name.clone(), o);
                }
            }
            Err(e) => global_error = Some(e),
        }
    }

    let trials = names
        .into_iter()
        .map(|name| {
            let outcome = results.remove(&name);
            let err = global_error.clone();
            Trial::test(name, move || match (outcome, err) {
                (Some(o), _) if o.ok => Ok(()),
                (Some(o), _) => Err(Failed::from(o.message)),
                (None, Some(e)) => Err(Failed::from(e)),
                (None, None) => Err(Failed::from(
                    "no outcome: the worker that ran this job ended early",
                )),
            })
            .with_ignored_flag(true)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
