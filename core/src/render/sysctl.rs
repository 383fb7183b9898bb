//! The `sysctl.d` file: `key = value` lines under their reasons.

use super::{Origin, header, line_origin, push_value};
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{FileKind, Plan, Scope};

fn comment_lines(out: &mut String, text: &str) {
    push_wrapped(out, "# ", text, 90);
}

/// Renders the sysctl.d file.
pub fn sysctl(plan: &Plan) -> String {
    render(plan, None)
}

/// [`sysctl`], and where each setting's lines are.
pub fn sysctl_with_origins(plan: &Plan) -> (String, Vec<Origin>) {
    let mut origins = Vec::new();
    let out = render(plan, Some(&mut origins));
    (out, origins)
}

fn render(plan: &Plan, mut origins: Option<&mut Vec<Origin>>) -> String {
    let mut out = String::with_capacity(4096);
    for line in header(plan, "Kernel settings for nginx") {
        comment_lines(&mut out, &line);
    }
    comment_lines(&mut out, "Apply with: sysctl --system");
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope != Scope::Sysctl {
            continue;
        }
        out.push('\n');
        let reason_at = out.len();
        push_reason(&mut out, "# ", &setting.reason, 90);
        if let Some(origins) = origins.as_deref_mut() {
            origins.push(line_origin(&out, index, reason_at, out.len()));
        }
        out.push_str(setting.name);
        out.push_str(" = ");
        push_value(&mut out, setting);
        out.push('\n');
    }
    let mut omitted = plan
        .omitted
        .iter()
        .filter(|o| o.scope.file() == FileKind::Sysctl)
        .peekable();
    if omitted.peek().is_some() {
        out.push('\n');
        comment_lines(&mut out, "Left at the kernel's defaults on purpose:");
        let mut line = String::new();
        for o in omitted {
            line.clear();
            for part in ["- ", o.name, ": ", &o.reason.why] {
                line.push_str(part);
            }
            comment_lines(&mut out, &line);
        }
    }
    out
}
