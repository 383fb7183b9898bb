//! The systemd drop-in for `nginx.service`.

use super::{header, push_value};
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{Plan, Scope};

/// Renders the drop-in.
pub fn systemd(plan: &Plan) -> String {
    let mut out = String::with_capacity(1024);
    for line in header(plan, "systemd drop-in for nginx.service") {
        push_wrapped(&mut out, "# ", &line, 90);
    }
    push_wrapped(
        &mut out,
        "# ",
        "Apply with: systemctl daemon-reload && systemctl restart nginx",
        90,
    );
    out.push_str("\n[Service]\n");
    for setting in plan.in_scope(Scope::Systemd) {
        push_reason(&mut out, "# ", &setting.reason, 90);
        out.push_str(setting.name);
        out.push('=');
        push_value(&mut out, setting);
        out.push('\n');
    }
    out
}
