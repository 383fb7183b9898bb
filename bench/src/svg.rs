//! The SVG chart next to the Markdown report.

use std::fmt::Write as _;

use crate::markdown::fmt_int;
use crate::results::ModeResult;
use crate::stats::Stat;
use crate::variants::Variant;
use crate::verdict::applies;

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
            esc(&m.name()),
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
                let by = y + vi as f64 * bar;
                if !applies(c, vi) {
                    let _ = writeln!(
                        o,
                        "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#888\">n/a</text>",
                        left + 4.0,
                        by + bar - 3.0
                    );
                    continue;
                }
                let w = (s.rps / best * bar_w).max(1.0);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_the_document_closes() {
        assert_eq!(esc("a<b>&c"), "a&lt;b&gt;&amp;c");
        let out = svg(&[], &Variant::builtin());
        assert!(out.starts_with("<svg ") && out.ends_with("</svg>\n"));
        assert!(out.contains(">nginx-gen</text>"));
    }
}
