//! The systemd drop-in for `nginx.service`.

use super::{Origin, header, line_origin, push_value};
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{Plan, Scope};

/// Renders the drop-in.
pub fn systemd(plan: &Plan) -> String {
    render(plan, None)
}

/// [`systemd`], and where each setting's lines are.
pub fn systemd_with_origins(plan: &Plan) -> (String, Vec<Origin>) {
    let mut origins = Vec::new();
    let out = render(plan, Some(&mut origins));
    (out, origins)
}

fn render(plan: &Plan, mut origins: Option<&mut Vec<Origin>>) -> String {
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
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope != Scope::Systemd {
            continue;
        }
        let reason_at = out.len();
        push_reason(&mut out, "# ", &setting.reason, 90);
        if let Some(origins) = origins.as_deref_mut() {
            origins.push(line_origin(&out, index, reason_at, out.len()));
        }
        out.push_str(setting.name);
        out.push('=');
        push_value(&mut out, setting);
        out.push('\n');
    }
    out
}
