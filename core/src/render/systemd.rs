//! The systemd drop-in for `nginx.service`.

use std::fmt::Write;

use super::{comment, header_lines};
use crate::ir::wrap;
use crate::plan::{Plan, Scope};

/// Renders the drop-in.
pub fn systemd(plan: &Plan) -> String {
    let mut out = String::new();
    let mut lines = header_lines(plan, "systemd drop-in for nginx.service");
    lines.push("Apply with: systemctl daemon-reload && systemctl restart nginx".into());
    for line in lines {
        for l in wrap(&line, 90) {
            let _ = writeln!(out, "# {l}");
        }
    }
    out.push_str("\n[Service]\n");
    for setting in plan.in_scope(Scope::Systemd) {
        for l in wrap(&comment(&setting.reason), 90) {
            let _ = writeln!(out, "# {l}");
        }
        let _ = writeln!(out, "{}={}", setting.name, setting.value());
    }
    out
}
