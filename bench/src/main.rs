//! nginx-gen-bench: does nginx-gen's output make a real nginx faster?
//!
//! Starts Debian's nginx once per configuration (stock, the guide's, the peer generators',
//! nginx-gen's, and any extra), each inside a temporary directory on its own loopback port,
//! serves the same static site, loads them with wrk, h2load and a TLS handshake client in
//! interleaved rounds, and writes a Markdown report with an SVG chart. `--shaped` repeats
//! the run over a rate-limited veth link between two network namespaces. `--help` lists the
//! options; docs/benchmarks.md documents the method.
//!
//! Modules, in the order a run uses them: [`opts`] (flags), [`prepare`] (checks, site,
//! certificate, host facts), [`variants`] and [`peers`] (the configurations), [`run`]
//! (instances, rounds; [`proc`], [`netns`], [`wrk`], [`h2load`], [`handshake`],
//! [`slowapp`]), [`results`], [`stats`] (medians, intervals), [`verdict`] (the decision
//! ladder), [`recheck`] (the losses measured again together), [`console`], [`markdown`] and [`svg`] (the report).
//! `nginx-gen-bench capacity` is the other mode: [`capacity`] holds the planned clients on
//! a live nginx per machine size.
//! `nginx-gen-bench search` ([`search`]) runs the same harness over a grid of patches of
//! nginx-gen's output: the best configuration it finds, next to nginx-gen's.

#![allow(
    clippy::disallowed_methods,
    reason = "a harness: it runs processes, reads /proc, writes files and times runs"
)]
#![allow(clippy::struct_excessive_bools, reason = "command-line switches")]
#![allow(
    clippy::too_many_lines,
    reason = "the run and the report are linear sequences"
)]
#![allow(
    clippy::format_collect,
    clippy::write_with_newline,
    reason = "report text"
)]

mod capacity;
mod console;
mod h2load;
mod handshake;
mod markdown;
mod netns;
mod opts;
mod peers;
mod prepare;
mod proc;
mod recheck;
mod results;
mod run;
mod scenario;
mod search;
mod site;
mod slowapp;
mod stats;
mod svg;
mod variants;
mod verdict;
mod wrk;

use std::process::ExitCode;
use std::time::Instant;

use opts::{Mode, Opts};
use scenario::{Scenario, scenarios};
use variants::Variant;

/// The whole run; `Ok(false)` when the smoke run saw failed requests.
fn real_main(opts: &Opts) -> Result<bool, String> {
    prepare::preflight()?;
    proc::install_handlers();
    let begun = Instant::now();
    let prepared = prepare::prepare(opts)?;
    let mut variants = Variant::builtin();
    variants.extend(opts.variants.iter().cloned());
    let scen: Vec<Scenario> = scenarios()
        .into_iter()
        .filter(|s| {
            opts.only
                .as_ref()
                .is_none_or(|o| o.iter().any(|x| x == s.id))
        })
        .collect();
    let (mut modes, mut notes) = run::all(run::Setup::new(opts, &variants, &scen, &prepared))?;
    let mut rechecked_ok = true;
    if opts.recheck > 0 {
        let again = recheck::run(opts, &prepared, &variants, &modes);
        for m in &mut modes {
            m.rechecks.clone_from(&again.rechecks);
        }
        notes.extend(again.notes);
        rechecked_ok = again.ok;
    }
    // In the smoke run (50 connections) any error means the harness or a configuration is
    // broken; in the full run errors are results (stock's 768 connections at c1000).
    let ok = !opts.quick || (results::harness_ok(&modes) && rechecked_ok);
    println!("{}", console::console(&modes, &variants));
    if let Some(out) = &opts.out {
        let meta = markdown::Meta::collect(
            opts,
            &prepared.env,
            &prepared.precompress,
            begun.elapsed(),
            notes,
        );
        markdown::write(out, &modes, &variants, &meta)?;
        eprintln!("wrote {} (and its .svg)", out.display());
    }
    proc::cleanup();
    Ok(ok)
}

fn main() -> ExitCode {
    // The proxy-slow scenario's application runs as a child of this binary.
    if let Some(code) = slowapp::child_main() {
        return code;
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "search") {
        return search::main();
    }
    let opts = Opts::from_env();
    let result = match &opts.mode {
        Some(Mode::Capacity(c)) => capacity::main(c),
        None => real_main(&opts),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!(
                "nginx-gen-bench: errors during the run (see the table): the harness or a configuration is broken"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            proc::cleanup();
            eprintln!("nginx-gen-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
