//! Human explanations: the table of every value, one directive in depth, and the capacity
//! summary printed after the files.

use std::borrow::Cow;
use std::fmt::Write;

use super::texts;
use crate::i18n::Catalogue;
use crate::ir::push_wrapped;
use crate::plan::{Limit, Plan, Reason, Scope, Setting, Warning};
use crate::rules::Text;

fn scope_title(scope: Scope) -> &'static Text {
    match scope {
        Scope::Main => &texts::SCOPE_MAIN,
        Scope::Events => &texts::SCOPE_EVENTS,
        Scope::Http => &texts::SCOPE_HTTP,
        Scope::Table { .. } => &texts::SCOPE_TABLE,
        Scope::Upstream => &texts::SCOPE_UPSTREAM,
        Scope::Server { .. } => &texts::SCOPE_SERVER,
        Scope::Location { .. } => &texts::SCOPE_LOCATION,
        Scope::Sysctl => &texts::SCOPE_SYSCTL,
        Scope::Systemd => &texts::SCOPE_SYSTEMD,
        Scope::PhpPool => &texts::SCOPE_PHP_POOL,
    }
}

fn reason_lines(out: &mut String, reason: &Reason, indent: &str, cat: &Catalogue) {
    push_wrapped(out, indent, &cat.why(reason), 84);
    if let Some(f) = &reason.formula {
        let _ = writeln!(out, "{indent}{} {f}", cat.get(&texts::LABEL_FORMULA));
    }
    if !reason.inputs.is_empty() {
        let label = cat.get(&texts::LABEL_INPUTS);
        let _ = writeln!(out, "{indent}{label} {}", reason.inputs.join(", "));
    }
    if let Some(d) = reason.default {
        let _ = writeln!(out, "{indent}{} {d}", cat.get(&texts::LABEL_DEFAULT));
    }
    let _ = writeln!(
        out,
        "{indent}{} {}",
        cat.get(&texts::LABEL_DOCS),
        reason.doc
    );
}

fn setting_line(s: &Setting) -> String {
    if s.args.is_empty() {
        s.name.to_owned()
    } else {
        format!("{} {}", s.name, s.value())
    }
}

/// Every value with its reason, grouped by file, then what is left at the defaults, in
/// English.
pub fn explain_table(plan: &Plan) -> String {
    explain_table_in(plan, Catalogue::english())
}

/// [`explain_table`] in the catalogue's language.
pub fn explain_table_in(plan: &Plan, cat: &Catalogue) -> String {
    let mut out = String::new();
    let mut last_title = "";
    let mut last_reason = "";
    for s in &plan.settings {
        let title = scope_title(s.scope).id;
        if title != last_title {
            let shown = cat.get(scope_title(s.scope));
            let _ = writeln!(out, "{}{shown}", if out.is_empty() { "" } else { "\n" });
            last_title = title;
            last_reason = "";
        }
        let _ = writeln!(out, "  {}", setting_line(s));
        if s.reason.id != last_reason {
            reason_lines(&mut out, &s.reason, "      ", cat);
            last_reason = s.reason.id;
        }
    }
    let _ = writeln!(out, "\n{}", cat.get(&texts::EXPLAIN_OMITTED));
    for o in &plan.omitted {
        let _ = writeln!(out, "  {}", o.name);
        reason_lines(&mut out, &o.reason, "      ", cat);
    }
    out.push('\n');
    out.push_str(&summary_in(plan, cat));
    out
}

/// Everything nginx-gen says about `name` for this plan, or `None` when it neither writes
/// nor deliberately omits it, in English.
pub fn explain_directive(plan: &Plan, name: &str) -> Option<String> {
    explain_directive_in(plan, name, Catalogue::english())
}

/// [`explain_directive`] in the catalogue's language.
pub fn explain_directive_in(plan: &Plan, name: &str, cat: &Catalogue) -> Option<String> {
    let name = name.trim();
    let mut out = String::new();
    for s in plan.settings.iter().filter(|s| s.name == name) {
        let title = cat.get(scope_title(s.scope));
        let _ = writeln!(out, "{}  [{title}]", setting_line(s));
        reason_lines(&mut out, &s.reason, "    ", cat);
    }
    for o in plan.omitted.iter().filter(|o| o.name == name) {
        let _ = writeln!(out, "{name}  [{}]", cat.get(&texts::EXPLAIN_NOT_WRITTEN));
        reason_lines(&mut out, &o.reason, "    ", cat);
    }
    (!out.is_empty()).then_some(out)
}

/// Every name `explain` knows for this plan, sorted.
pub fn known_names(plan: &Plan) -> Vec<&'static str> {
    // Inserted in order, each once: a sort would add 2.4 KB to the module.
    let mut names: Vec<&'static str> = Vec::with_capacity(plan.settings.len());
    let all = plan.settings.iter().map(|s| s.name);
    for name in all.chain(plan.omitted.iter().map(|o| o.name)) {
        if let Err(at) = names.binary_search(&name) {
            names.insert(at, name);
        }
    }
    names
}

fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1024 * 1024)
}

/// The capacity summary, the precompression command and the warnings, in English.
pub fn summary(plan: &Plan) -> String {
    summary_in(plan, Catalogue::english())
}

/// A warning's message in the catalogue's language (the plan holds the English).
pub fn warning_message<'a>(w: &'a Warning, cat: &Catalogue) -> Cow<'a, str> {
    let template = crate::rules::warnings::TEXTS.iter().find(|t| t.id == w.id);
    match template {
        Some(t) if cat.lookup(t.id).is_some() => {
            let values: Vec<(&str, &str)> =
                w.values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            Cow::Owned(cat.fill(t, &values))
        }
        _ => Cow::Borrowed(&w.message),
    }
}

/// [`summary`] in the catalogue's language.
pub fn summary_in(plan: &Plan, cat: &Catalogue) -> String {
    let c = &plan.capacity;
    let limit = cat.get(match c.limited_by {
        Limit::Cpu => &texts::LIMIT_CPU,
        Limit::Given => &texts::LIMIT_GIVEN,
        Limit::Memory => &texts::LIMIT_MEMORY,
        Limit::Slots => &texts::LIMIT_SLOTS,
    });
    let mut out = cat.fill(
        &texts::CAPACITY,
        &[
            ("clients", &c.clients.to_string()),
            ("limit", limit),
            ("idle", &mib(c.idle_memory).to_string()),
            ("active", &c.active_clients.to_string()),
            ("peak", &mib(c.peak_memory).to_string()),
            ("workers", &plan.tuning.workers.to_string()),
            ("connections", &plan.tuning.worker_connections.to_string()),
            ("per_client", &c.client_bytes.div_ceil(1024).to_string()),
            ("memory_clients", &c.memory_clients.to_string()),
        ],
    );
    out.push('\n');
    if let Some(php) = &plan.tuning.php {
        let summary = cat.fill(
            &texts::SUMMARY_PHP,
            &[
                ("children", &php.max_children.to_string()),
                ("concurrency", &php.concurrency.to_string()),
                ("budget", &mib(php.budget).to_string()),
            ],
        );
        out.push_str(&summary);
        out.push('\n');
    }
    if let Some(cmd) = &plan.precompress {
        out.push_str(&cat.fill(&texts::PRECOMPRESS, &[("command", cmd)]));
        out.push('\n');
    }
    for w in &plan.warnings {
        out.push_str(&cat.fill(&texts::WARNING, &[("message", &warning_message(w, cat))]));
        out.push('\n');
    }
    out
}
