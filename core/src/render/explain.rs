//! Human explanations: the table of every value, one directive in depth, and the capacity
//! summary printed after the files.

use std::fmt::Write;

use crate::ir::push_wrapped;
use crate::plan::{Limit, Plan, Reason, Scope, Setting};

fn scope_title(scope: Scope) -> &'static str {
    match scope {
        Scope::Main => "nginx.conf (main)",
        Scope::Events => "nginx.conf (events)",
        Scope::Http => "nginx.conf (http)",
        Scope::Upstream => "site (upstream)",
        Scope::Server { .. } => "site (server)",
        Scope::Location { .. } => "site (location)",
        Scope::Sysctl => "sysctl.d",
        Scope::Systemd => "systemd drop-in",
    }
}

fn reason_lines(out: &mut String, reason: &Reason, indent: &str) {
    push_wrapped(out, indent, &reason.why, 84);
    if let Some(f) = &reason.formula {
        let _ = writeln!(out, "{indent}formula: {f}");
    }
    if !reason.inputs.is_empty() {
        let _ = writeln!(out, "{indent}inputs: {}", reason.inputs.join(", "));
    }
    if let Some(d) = reason.default {
        let _ = writeln!(out, "{indent}default: {d}");
    }
    let _ = writeln!(out, "{indent}docs: {}", reason.doc);
}

fn setting_line(s: &Setting) -> String {
    if s.args.is_empty() {
        s.name.to_owned()
    } else {
        format!("{} {}", s.name, s.value())
    }
}

/// Every value with its reason, grouped by file, then what is left at the defaults.
pub fn explain_table(plan: &Plan) -> String {
    let mut out = String::new();
    let mut last_title = "";
    let mut last_reason = "";
    for s in &plan.settings {
        let title = scope_title(s.scope);
        if title != last_title {
            let _ = writeln!(out, "{}{title}", if out.is_empty() { "" } else { "\n" });
            last_title = title;
            last_reason = "";
        }
        let _ = writeln!(out, "  {}", setting_line(s));
        if s.reason.id != last_reason {
            reason_lines(&mut out, &s.reason, "      ");
            last_reason = s.reason.id;
        }
    }
    out.push_str("\nLeft at the defaults on purpose\n");
    for o in &plan.omitted {
        let _ = writeln!(out, "  {}", o.name);
        reason_lines(&mut out, &o.reason, "      ");
    }
    out.push('\n');
    out.push_str(&summary(plan));
    out
}

/// Everything nginx-gen says about `name` for this plan, or `None` when it neither writes
/// nor deliberately omits it.
pub fn explain_directive(plan: &Plan, name: &str) -> Option<String> {
    let name = name.trim();
    let mut out = String::new();
    for s in plan.settings.iter().filter(|s| s.name == name) {
        let _ = writeln!(out, "{}  [{}]", setting_line(s), scope_title(s.scope));
        reason_lines(&mut out, &s.reason, "    ");
    }
    for o in plan.omitted.iter().filter(|o| o.name == name) {
        let _ = writeln!(out, "{name}  [not written: left at the default]");
        reason_lines(&mut out, &o.reason, "    ");
    }
    (!out.is_empty()).then_some(out)
}

/// Every name `explain` knows for this plan, sorted.
pub fn known_names(plan: &Plan) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = plan
        .settings
        .iter()
        .map(|s| s.name)
        .chain(plan.omitted.iter().map(|o| o.name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1024 * 1024)
}

/// The capacity summary, the precompression command and the warnings.
pub fn summary(plan: &Plan) -> String {
    let c = &plan.capacity;
    let limit = match c.limited_by {
        Limit::Cpu => "sized from the vCPUs",
        Limit::Given => "as given",
        Limit::Memory => "limited by memory",
        Limit::Slots => "limited by connection slots",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Capacity: ≈ {} concurrent clients ({limit}), ≈ {} MiB peak nginx memory ({} workers × {} connections; ≈ {} KiB per active client, memory allows ≈ {}).",
        c.clients,
        mib(c.peak_memory),
        plan.tuning.workers,
        plan.tuning.worker_connections,
        c.client_bytes.div_ceil(1024),
        c.memory_clients
    );
    if let Some(cmd) = &plan.precompress {
        let _ = writeln!(out, "Precompress the site after each deploy: {cmd}");
    }
    for w in &plan.warnings {
        let _ = writeln!(out, "warning: {}", w.message);
    }
    out
}
