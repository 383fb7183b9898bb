//! The console summary printed after every run: each variant's figures per cell, the ratios
//! of the contenders to every baseline with their verdicts, and the tally.

use std::fmt::Write as _;

use crate::results::ModeResult;
use crate::stats::Stat;
use crate::variants::{Kind, Variant};
use crate::verdict::{applies, baselines, compare, tally};

pub fn console(modes: &[ModeResult], variants: &[Variant]) -> String {
    let mut out = String::new();
    for m in modes {
        let _ = writeln!(out, "\n== {} ({}) ==", m.name(), m.link);
        let _ = writeln!(
            out,
            "{:<10} {:>5} {:<12} {:>10} {:>9} {:>9} {:>8} {:>6}  vs each baseline",
            "scenario", "conns", "variant", "req/s", "p99 ms", "µs/req", "MB/s", "err"
        );
        for c in &m.cells {
            for (vi, v) in variants.iter().enumerate() {
                if !applies(c, vi) {
                    let _ = writeln!(
                        out,
                        "{:<10} {:>5} {:<12} n/a",
                        c.scenario.id, c.conns, v.name
                    );
                    continue;
                }
                let s = Stat::of(&c.samples[vi]);
                let mut line = format!(
                    "{:<10} {:>5} {:<12} {:>10.0} {:>9.2} {:>9.1} {:>8.1} {:>6}",
                    c.scenario.id,
                    c.conns,
                    v.name,
                    s.rps,
                    s.p99_ms,
                    s.cpu_us_per_req,
                    s.mb_s,
                    s.errors()
                );
                if !v.is_baseline() {
                    // A variant of nginx-gen's output is measured against nginx-gen too.
                    let gen_index = variants.iter().position(|v| matches!(v.kind, Kind::Gen));
                    let others = gen_index.filter(|&g| g != vi).map(|g| (g, &variants[g]));
                    for (b, base) in baselines(variants).chain(others) {
                        if let Some(r) = compare(m, c, vi, b) {
                            let _ =
                                write!(line, "  {}: {:.2}× {}", base.name, r.rps, r.verdict.text());
                        }
                    }
                }
                let _ = writeln!(out, "{line}");
            }
        }
        for line in tally(m, variants) {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}
