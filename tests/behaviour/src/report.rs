//! The results table: behaviours × nginx versions, pass/fail counts over the trees.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::run::Outcome;

/// Splits `behaviour::nginx::tree`.
pub fn split_name(name: &str) -> Option<(&str, &str, &str)> {
    let mut it = name.splitn(3, "::");
    Some((it.next()?, it.next()?, it.next()?))
}

/// The Markdown report: one row per behaviour, one column per nginx (`passed/run`), the
/// trees, and each failure's first line.
pub fn markdown(
    outcomes: &[Outcome],
    behaviour_order: &[&str],
    labels: &[String],
    secs: f64,
) -> String {
    let mut cells: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut trees: BTreeSet<&str> = BTreeSet::new();
    for o in outcomes {
        let Some((b, n, t)) = split_name(&o.name) else {
            continue;
        };
        let c = cells.entry((b, n)).or_default();
        c.1 += 1;
        if o.ok {
            c.0 += 1;
        }
        trees.insert(t);
    }
    let passed = outcomes.iter().filter(|o| o.ok).count();
    let mut md = String::new();
    let _ = writeln!(md, "# Behaviour suite results\n");
    let _ = writeln!(
        md,
        "{} trials: {passed} passed, {} failed; {} trees × {} behaviours × {} nginx ({secs:.0} s).\n",
        outcomes.len(),
        outcomes.len() - passed,
        trees.len(),
        behaviour_order.len(),
        labels.len()
    );
    let _ = write!(md, "| behaviour |");
    for l in labels {
        let _ = write!(md, " nginx {l} |");
    }
    let _ = write!(md, "\n|---|");
    for _ in labels {
        let _ = write!(md, "---|");
    }
    md.push('\n');
    for b in behaviour_order {
        let _ = write!(md, "| `{b}` |");
        for l in labels {
            match cells.get(&(*b, l.as_str())) {
                Some((p, n)) => {
                    let _ = write!(md, " {p}/{n}{} |", if p == n { "" } else { " ✗" });
                }
                None => md.push_str(" – |"),
            }
        }
        md.push('\n');
    }
    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| !o.ok).collect();
    if !failures.is_empty() {
        let _ = writeln!(md, "\n## Failures\n");
        for o in failures {
            let first = o.message.lines().next().unwrap_or("");
            let first: String = first.chars().take(300).collect();
            let _ = writeln!(md, "- `{}`: {}", o.name, first.replace('|', "\\|"));
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(name: &str, ok: bool) -> Outcome {
        Outcome {
            name: name.into(),
            ok,
            message: if ok {
                String::new()
            } else {
                "want 200, got 404\nmore".into()
            },
            secs: 0.1,
        }
    }

    #[test]
    fn counts_per_behaviour_and_version() {
        let outcomes = [
            o("hsts::1.22::a", true),
            o("hsts::1.22::b", false),
            o("hsts::1.26::a", true),
        ];
        let md = markdown(
            &outcomes,
            &["hsts", "streaming"],
            &["1.22".into(), "1.26".into()],
            12.0,
        );
        assert!(
            md.contains("3 trials: 2 passed, 1 failed; 2 trees × 2 behaviours × 2 nginx"),
            "{md}"
        );
        assert!(md.contains("| `hsts` | 1/2 ✗ | 1/1 |"), "{md}");
        assert!(md.contains("| `streaming` | – | – |"), "{md}");
        assert!(
            md.contains("- `hsts::1.22::b`: want 200, got 404\n"),
            "{md}"
        );
        assert!(!md.contains("more"), "{md}");
        assert_eq!(
            split_name("a::1.30-openssl3.5::t-x"),
            Some(("a", "1.30-openssl3.5", "t-x"))
        );
        assert_eq!(split_name("a::b"), None);
    }
}
