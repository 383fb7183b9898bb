//! The console summary printed after every run: each variant's figures per cell, the ratios
//! of the contenders to stock and the guide with their verdicts, and the tally.

use std::fmt::Write as _;

use crate::results::ModeResult;
use crate::stats::Stat;
use crate::variants::Variant;
use crate::verdict::{ratio, tally};

pub fn console(modes: &[ModeResult], variants: &[Variant]) -> String {
    let mut out = String::new();
    for m in modes {
        let _ = writeln!(out, "\n== {} ({}) ==", m.name(), m.link);
        let _ = writeln!(
            out,
            "{:<10} {:>5} {:<12} {:>10} {:>9} {:>9} {:>8} {:>6}  vs stock / vs guide",
            "scenario", "conns", "variant", "req/s", "p99 ms", "µs/req", "MB/s", "err"
        );
        for c in &m.cells {
            for (vi, v) in variants.iter().enumerate() {
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
                if vi >= 2 {
                    let a = ratio(c, vi, 0, m.workers, m.link_mbit);
                    let b = ratio(c, vi, 1, m.workers, m.link_mbit);
                    let _ = write!(
                        line,
                        "  {:.2}× {} / {:.2}× {}",
                        a.rps,
                        a.verdict.text(),
                        b.rps,
                        b.verdict.text()
                    );
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
