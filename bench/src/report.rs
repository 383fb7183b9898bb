//! Statistics over the rounds, the verdicts, the Markdown report and its SVG chart.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use nginx_gen::host;

use crate::variants::{Env, Variant};
use crate::{Cell, ModeResult, Opts, Sample};

/// A spread (max − min) / median of req/s above this marks a cell as noisy.
pub const NOISY: f64 = 0.15;
/// nginx busier than this share of its CPUs is the bottleneck; below it wrk or the link is.
pub const BUSY: f64 = 0.85;

fn median(v: &mut [f64]) -> f64 {
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
            bytes_per_req: median(&mut col(&|s| {
                if s.wrk.requests == 0 {
                    0.0
                } else {
                    s.wrk.bytes as f64 / s.wrk.requests as f64
                }
            })),
            cpu_us_per_req: median(&mut col(&|s| {
                if s.wrk.requests == 0 {
                    0.0
                } else {
                    s.cpu_ns as f64 / 1000.0 / s.wrk.requests as f64
                }
            })),
            cpu_util: median(&mut col(&|s| {
                if s.wrk.duration_us == 0 {
                    0.0
                } else {
                    s.cpu_ns as f64 / 1000.0 / s.wrk.duration_us as f64
                }
            })),
            socket_errors: samples.iter().map(|s| s.wrk.socket_errors).sum(),
            bad_status: samples.iter().map(|s| s.wrk.bad_status).sum(),
            log_lines: samples.iter().map(|s| s.log_lines).sum(),
        }
    }
    pub fn errors(&self) -> u64 {
        self.socket_errors + self.bad_status
    }
    pub fn noisy(&self) -> bool {
        self.rps > 0.0 && (self.rps_max - self.rps_min) / self.rps > NOISY
    }
}

/// Student's t for a two-sided 95 % interval, by degrees of freedom (1 to 10; 2.0 beyond).
const T95: [f64; 10] = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23];

/// The geometric mean of paired per-round ratios and its 95 % confidence interval
/// (Student's t on the logarithms: ratios multiply, and the rounds are the pairs).
/// One round gives no interval: (r, r, r).
pub fn interval(ratios: &[f64]) -> (f64, f64, f64) {
    let logs: Vec<f64> = ratios
        .iter()
        .filter(|r| **r > 0.0)
        .map(|r| r.ln())
        .collect();
    let n = logs.len();
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = logs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean.exp(), mean.exp(), mean.exp());
    }
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = T95.get(n - 2).copied().unwrap_or(2.0);
    let half = t * (var / n as f64).sqrt();
    ((mean - half).exp(), mean.exp(), (mean + half).exp())
}

/// How a variant compares with a baseline in one cell. Where nginx is the bottleneck the
/// req/s decide; where wrk or the shaped link sets the rate (neither nginx busy) the issue's
/// bar is CPU per request, with the rate allowed to trail by at most 3 % (response headers
/// cost wrk and the link a little).
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
        }
    }
    /// Meets the bar "≥ 1.0× with p99 no worse", as far as the rounds can tell.
    pub fn meets_bar(self) -> bool {
        matches!(self, Self::Win | Self::WinCpu | Self::Even | Self::EvenCpu)
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
    pub verdict: Verdict,
}

fn per_round(a: &[Sample], b: &[Sample], f: impl Fn(&Sample, &Sample) -> Option<f64>) -> Vec<f64> {
    a.iter().zip(b).filter_map(|(x, y)| f(x, y)).collect()
}

fn cpu_per_req(s: &Sample) -> Option<f64> {
    (s.wrk.requests > 0 && s.cpu_ns > 0).then(|| s.cpu_ns as f64 / s.wrk.requests as f64)
}

/// `link_mbit`: on a shaped link a variant that fills it queues its responses, so its p99
/// is the link's queueing delay and is not held against it.
pub fn ratio(cell: &Cell, v: usize, base: usize, workers: usize, link_mbit: Option<u32>) -> Ratio {
    let (a, b) = (&cell.samples[v], &cell.samples[base]);
    let rps_rounds = per_round(a, b, |x, y| {
        (y.wrk.rps() > 0.0).then(|| x.wrk.rps() / y.wrk.rps())
    });
    let cpu_rounds = per_round(a, b, |x, y| Some(cpu_per_req(y)? / cpu_per_req(x)?));
    let (rps_lo, rps, rps_hi) = interval(&rps_rounds);
    let (cpu_lo, cpu, cpu_hi) = interval(&cpu_rounds);
    let p99_rounds = per_round(a, b, |x, y| {
        (y.wrk.p99_us > 0).then(|| x.wrk.p99_us as f64 / y.wrk.p99_us as f64)
    });
    let (p99_lo, p99, _) = interval(&p99_rounds);
    let (sa, sb) = (Stat::of(a), Stat::of(b));
    let busy = BUSY * workers as f64;
    let nginx_bound = sa.cpu_util >= busy || sb.cpu_util >= busy;
    let saturated = link_mbit.is_some_and(|m| sa.mb_s * 8.0 >= 0.85 * f64::from(m));
    // p99 counts as worse when it is more than 10 % and 1 ms worse beyond the noise.
    let p99_ok = p99_lo <= 1.10 || sa.p99_ms - sb.p99_ms < 1.0 || saturated;
    // Where nginx sets the rate the req/s decide; elsewhere CPU per request does, and the
    // rate may trail by at most 3 %.
    let (lo, lost, win, even) = if nginx_bound {
        (rps_lo, rps_hi < 1.0, Verdict::Win, Verdict::Even)
    } else {
        let lost = cpu_hi < 1.0 || rps_hi < 0.97;
        (cpu_lo, lost, Verdict::WinCpu, Verdict::EvenCpu)
    };
    let verdict = if sa.errors() > 0 {
        Verdict::Errors
    } else if lost {
        Verdict::Loss
    } else if !p99_ok {
        Verdict::P99Worse
    } else if lo >= 1.0 {
        win
    } else {
        even
    };
    Ratio {
        rps,
        rps_lo,
        rps_hi,
        rps_min: rps_rounds.iter().copied().fold(f64::INFINITY, f64::min),
        rps_max: rps_rounds.iter().copied().fold(0.0, f64::max),
        cpu,
        p99,
        verdict,
    }
}

/// True when no run had errors or bad statuses (what the smoke test checks).
pub fn harness_ok(modes: &[ModeResult]) -> bool {
    modes
        .iter()
        .flat_map(|m| &m.cells)
        .flat_map(|c| &c.samples)
        .flatten()
        .all(|s| s.wrk.errors() == 0)
}

/// One line per contender and baseline: how many cells each verdict got, and whether the
/// bar (≥ 1.0× with p99 no worse and no errors, as far as the rounds can tell) holds.
pub fn tally(m: &ModeResult, variants: &[Variant]) -> Vec<String> {
    let mut lines = Vec::new();
    for (vi, v) in contenders(variants) {
        for (base, name) in [(0, &variants[0].name), (1, &variants[1].name)] {
            let verdicts: Vec<Verdict> = m
                .cells
                .iter()
                .map(|c| ratio(c, vi, base, m.workers, m.link_mbit).verdict)
                .collect();
            let mut counts: Vec<(Verdict, usize)> = Vec::new();
            for v in &verdicts {
                match counts.iter_mut().find(|(k, _)| k == v) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((*v, 1)),
                }
            }
            let misses = verdicts.iter().filter(|v| !v.meets_bar()).count();
            lines.push(format!(
                "{} vs {name}: {} — {}",
                v.name,
                counts
                    .iter()
                    .map(|(k, n)| format!("{n} × {}", k.text()))
                    .collect::<Vec<_>>()
                    .join(", "),
                if misses == 0 {
                    "bar met in every cell".to_string()
                } else {
                    format!("**bar missed in {misses} of {} cells**", verdicts.len())
                }
            ));
        }
    }
    lines
}

/// The compared variants: everything but stock and guide, against stock (0) and guide (1).
fn contenders(variants: &[Variant]) -> impl Iterator<Item = (usize, &Variant)> {
    variants.iter().enumerate().skip(2)
}

pub fn console(modes: &[ModeResult], variants: &[Variant]) -> String {
    let mut out = String::new();
    for m in modes {
        let _ = writeln!(out, "\n== {} ({}) ==", m.name, m.link);
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

/// Facts about the run for the report's header.
#[derive(Debug)]
pub struct Meta {
    pub date: String,
    pub machine: String,
    pub software: String,
    pub method: String,
    pub notes: Vec<String>,
}

fn sh(cmd: &str) -> String {
    Command::new("sh")
        .args(["-c", cmd])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

impl Meta {
    pub fn collect(
        opts: &Opts,
        env: &Env,
        precompress: &str,
        took: Duration,
        notes: Vec<String>,
    ) -> Self {
        let machine = format!(
            "{} CPUs ({}), {} RAM, Linux {}",
            host::vcpu().map_or_else(|| "?".into(), |(n, _)| n.to_string()),
            host::cpu_model().unwrap_or_else(|| "model unknown".into()),
            env.ram,
            host::kernel_release().unwrap_or_else(|| "?".into())
        );
        let software = format!(
            "nginx {} (Debian package, OpenSSL {}), {}, nginx-gen {} (tuning policy {})",
            env.nginx_version,
            env.openssl_version,
            sh("wrk -v 2>&1 | head -1 | cut -d' ' -f1-2"),
            nginx_gen_core::VERSION,
            nginx_gen_core::POLICY_VERSION
        );
        let method = format!(
            "{} round(s) × {} s per wrk run (TLS: ≥ 2 s, its start is a handshake storm; `wrk -t1 -cN`), interleaved (every variant once per cell, the order rotated each round); nginx and wrk at nice -10 against the other jobs; \
             nginx pinned to CPU(s) `{}` with {} worker(s) in every variant, wrk and the upstream on CPU(s) `{}`; \
             site precompressed with nginx-gen's command `{}`; whole run took {:.0} s.",
            opts.rounds,
            opts.seconds,
            opts.nginx_cpus,
            env.workers,
            opts.wrk_cpus,
            precompress.replace(&env.site.to_string_lossy().to_string(), "<site>"),
            took.as_secs_f64()
        );
        Self {
            date: sh("date -u '+%Y-%m-%d %H:%M UTC'"),
            machine,
            software,
            method,
            notes,
        }
    }
}

const START: &str = "<!-- nginx-gen-bench:start (generated by `nginx-gen-bench`; do not edit) -->";
const END: &str = "<!-- nginx-gen-bench:end -->";

fn fmt_int(v: f64) -> String {
    let n = v.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Renders the generated section (tables) of the report.
#[allow(clippy::too_many_lines, reason = "one linear document")]
pub fn markdown(modes: &[ModeResult], variants: &[Variant], meta: &Meta, svg_name: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{START}\n");
    let _ = writeln!(
        o,
        "## Load test: stock vs the guide vs nginx-gen on a real nginx\n"
    );
    let _ = writeln!(o, "- **Date:** {}", meta.date);
    let _ = writeln!(o, "- **Machine:** {}", meta.machine);
    let _ = writeln!(o, "- **Software:** {}", meta.software);
    let _ = writeln!(o, "- **Method:** {}", meta.method);
    let _ = writeln!(
        o,
        "- **Variants:** {}",
        variants
            .iter()
            .map(|v| format!("`{}`", v.name))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for n in &meta.notes {
        let _ = writeln!(o, "- **Note:** {n}");
    }
    let _ = writeln!(
        o,
        "\n![req/s per scenario, relative to the best variant]({svg_name})\n"
    );
    for m in modes {
        let _ = writeln!(o, "### {} — {}\n", m.name, m.link);
        let _ = writeln!(
            o,
            "Took {:.0} s. Each cell: req/s ratio (geometric mean of the per-round ratios; its 95 % confidence interval; the lowest and highest round), CPU per request (baseline ÷ this, above 1 = cheaper), p99 ratio (below 1 = better), verdict.\n",
            m.wall.as_secs_f64()
        );
        let _ = writeln!(
            o,
            "| scenario | conns | {} |",
            contenders(variants)
                .flat_map(|(_, v)| [format!("{} / stock", v.name), format!("{} / guide", v.name)])
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(
            o,
            "|---|---:|{}",
            contenders(variants).map(|_| "---|---|").collect::<String>()
        );
        for c in &m.cells {
            let mut row = format!("| {} | {} |", c.scenario.id, c.conns);
            for (vi, _) in contenders(variants) {
                for base in [0, 1] {
                    let r = ratio(c, vi, base, m.workers, m.link_mbit);
                    let _ = write!(
                        row,
                        " **{:.2}×** (CI {:.2}..{:.2}; rounds {:.2}..{:.2}), CPU {:.2}×, p99 {:.2}× — {} |",
                        r.rps,
                        r.rps_lo,
                        r.rps_hi,
                        r.rps_min,
                        r.rps_max,
                        r.cpu,
                        r.p99,
                        r.verdict.text()
                    );
                }
            }
            let _ = writeln!(o, "{row}");
        }
        let _ = writeln!(o);
        for line in tally(m, variants) {
            let _ = writeln!(o, "- {line}");
        }
        let _ = writeln!(
            o,
            "\n<details><summary>All figures ({})</summary>\n",
            m.name
        );
        let _ = writeln!(
            o,
            "| scenario | conns | variant | req/s (median) | min..max | p50 ms | p99 ms | MB/s | bytes/req | nginx CPU µs/req | nginx CPU | errors | ≥400 | error-log lines | |"
        );
        let _ = writeln!(
            o,
            "|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        );
        for c in &m.cells {
            for (vi, v) in variants.iter().enumerate() {
                let s = Stat::of(&c.samples[vi]);
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {}..{} | {:.2} | {:.2} | {:.1} | {} | {:.1} | {:.0} % | {} | {} | {} | {} |",
                    c.scenario.id,
                    c.conns,
                    v.name,
                    fmt_int(s.rps),
                    fmt_int(s.rps_min),
                    fmt_int(s.rps_max),
                    s.p50_ms,
                    s.p99_ms,
                    s.mb_s,
                    fmt_int(s.bytes_per_req),
                    s.cpu_us_per_req,
                    s.cpu_util * 100.0,
                    s.socket_errors,
                    s.bad_status,
                    s.log_lines,
                    if s.noisy() { "noisy" } else { "" }
                );
            }
        }
        let _ = writeln!(o, "\n</details>\n");
        let _ = writeln!(
            o,
            "Error-log warnings (level warn and above, as each configuration logs them) and where the workers ran:\n"
        );
        let _ = writeln!(o, "| variant | server | worker CPUs | distinct messages |");
        let _ = writeln!(o, "|---|---|---|---|");
        for (v, f, cpus, msgs) in &m.logs {
            let text = if msgs.is_empty() {
                "none".to_string()
            } else {
                msgs.iter()
                    .take(4)
                    .map(|x| {
                        format!(
                            "`{}`",
                            x.replace('|', "\\|").chars().take(140).collect::<String>()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            let _ = writeln!(o, "| {v} | {f} | {cpus} | {text} |");
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "Scenarios:\n");
    let mut seen: Vec<&str> = Vec::new();
    for c in modes.iter().flat_map(|m| &m.cells) {
        if !seen.contains(&c.scenario.id) {
            seen.push(c.scenario.id);
            let _ = writeln!(
                o,
                "- `{}`: {} (`{}`{})",
                c.scenario.id,
                c.scenario.what,
                c.scenario.path,
                c.scenario
                    .headers
                    .iter()
                    .map(|h| format!(", `{h}`"))
                    .collect::<String>()
            );
        }
    }
    let _ = writeln!(o, "\n{END}");
    o
}

const COLORS: [&str; 6] = [
    "#8c8c8c", "#e69f00", "#0072b2", "#009e73", "#cc79a7", "#d55e00",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A horizontal grouped bar chart: per cell, each variant's median req/s as a share of the
/// best variant in that cell, labelled with the absolute figure.
pub fn svg(modes: &[ModeResult], variants: &[Variant]) -> String {
    let bar = 13.0;
    let gap = 12.0;
    let (left, width, bar_w) = (150.0, 760.0, 470.0);
    let group = bar * variants.len() as f64 + gap;
    let cells: usize = modes.iter().map(|m| m.cells.len()).sum();
    let height = 60.0 + modes.len() as f64 * 34.0 + cells as f64 * group + 20.0;
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height:.0}\" viewBox=\"0 0 {width} {height:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">nginx req/s per scenario (median of the rounds; bar = share of the best variant)</text>\n"
    );
    let mut x = 10.0;
    for (vi, v) in variants.iter().enumerate() {
        let _ = writeln!(
            o,
            "<rect x=\"{x}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"42\">{}</text>",
            COLORS[vi % COLORS.len()],
            x + 16.0,
            esc(&v.name)
        );
        x += 30.0 + 7.0 * v.name.len() as f64;
    }
    let mut y = 60.0;
    for m in modes {
        y += 24.0;
        let _ = writeln!(
            o,
            "<text x=\"10\" y=\"{y}\" font-size=\"13\" font-weight=\"bold\">{} — {}</text>",
            esc(&m.name),
            esc(&m.link)
        );
        y += 10.0;
        for c in &m.cells {
            let stats: Vec<Stat> = c.samples.iter().map(|s| Stat::of(s)).collect();
            let best = stats.iter().map(|s| s.rps).fold(0.0, f64::max).max(1e-9);
            let _ = writeln!(
                o,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{} c{}</text>",
                left - 8.0,
                y + group / 2.0,
                esc(c.scenario.id),
                c.conns
            );
            for (vi, s) in stats.iter().enumerate() {
                let w = (s.rps / best * bar_w).max(1.0);
                let by = y + vi as f64 * bar;
                let _ = writeln!(
                    o,
                    "<rect x=\"{left}\" y=\"{by:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{} req/s{}</text>",
                    bar - 2.0,
                    COLORS[vi % COLORS.len()],
                    left + w + 4.0,
                    by + bar - 3.0,
                    fmt_int(s.rps),
                    if s.errors() > 0 {
                        format!(", {} errors", s.errors())
                    } else {
                        String::new()
                    }
                );
            }
            y += group;
        }
    }
    o.push_str("</svg>\n");
    o
}

/// Writes the report: replaces the generated section of `out` (keeping what is around it,
/// e.g. the tool's own timings) and writes the chart next to it.
pub fn write(
    out: &Path,
    modes: &[ModeResult],
    variants: &[Variant],
    meta: &Meta,
) -> Result<(), String> {
    let svg_path = out.with_extension("svg");
    let svg_name = svg_path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let section = markdown(modes, variants, meta, &svg_name);
    let old = fs::read_to_string(out).unwrap_or_default();
    let text = match (old.find(START), old.find(END)) {
        (Some(a), Some(b)) if b > a => format!(
            "{}{}{}",
            &old[..a],
            section.trim_end(),
            &old[b + END.len()..]
        ),
        _ if old.is_empty() => format!("# Benchmarks\n\n{section}"),
        _ => format!("{}\n{section}", old.trim_end()),
    };
    if let Some(dir) = out.parent() {
        fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    fs::write(&svg_path, svg(modes, variants))
        .map_err(|e| format!("{}: {e}", svg_path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_is_geometric_and_widens_with_noise() {
        let (lo, mid, hi) = interval(&[2.0, 0.5]);
        assert!((mid - 1.0).abs() < 1e-12);
        assert!(lo < 0.5 && hi > 2.0, "two rounds: t = 12.7, very wide");
        let (lo, mid, hi) = interval(&[1.1, 1.1, 1.1, 1.1]);
        assert!((lo - 1.1).abs() < 1e-12 && (mid - 1.1).abs() < 1e-12 && (hi - 1.1).abs() < 1e-12);
        let (lo, _, hi) = interval(&[1.0, 1.2, 0.9, 1.1, 1.05]);
        assert!(lo < 1.0 && hi > 1.0, "noisy rounds straddle 1");
        assert_eq!(interval(&[]), (0.0, 0.0, 0.0));
        assert_eq!(interval(&[1.5]), (1.5, 1.5, 1.5));
    }

    #[test]
    fn median_and_thousands() {
        assert!((median(&mut [3.0, 1.0, 2.0]) - 2.0).abs() < 1e-12);
        assert!((median(&mut [4.0, 1.0, 2.0, 3.0]) - 2.5).abs() < 1e-12);
        assert_eq!(fmt_int(1_234_567.4), "1,234,567");
        assert_eq!(fmt_int(999.0), "999");
    }
}
