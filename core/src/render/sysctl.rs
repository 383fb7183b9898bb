//! The `sysctl.d` file: `key = value` lines under their reasons.

use std::fmt::Write;

use super::{comment, header_lines};
use crate::ir::wrap;
use crate::plan::{Plan, Scope};

fn comment_lines(out: &mut String, text: &str) {
    for line in wrap(text, 90) {
        let _ = writeln!(out, "# {line}");
    }
}

/// Renders the sysctl.d file.
pub fn sysctl(plan: &Plan) -> String {
    let mut out = String::new();
    for line in header_lines(plan, "Kernel settings for nginx") {
        comment_lines(&mut out, &line);
    }
    comment_lines(&mut out, "Apply with: sysctl --system");
    for setting in plan.in_scope(Scope::Sysctl) {
        out.push('\n');
        comment_lines(&mut out, &comment(&setting.reason));
        let _ = writeln!(out, "{} = {}", setting.name, setting.value());
    }
    let omitted: Vec<_> = plan.omitted.iter().filter(|o| o.name.contains('.')).collect();
    if !omitted.is_empty() {
        out.push('\n');
        comment_lines(&mut out, "Left at the kernel's defaults on purpose:");
        for o in omitted {
            comment_lines(&mut out, &format!("- {}: {}", o.name, o.reason.why));
        }
    }
    out
}
