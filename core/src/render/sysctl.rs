//! The `sysctl.d` file: `key = value` lines under their reasons.

use super::{Header, Origin, line_origin, push_value, texts};
use crate::i18n::Catalogue;
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{FileKind, Plan, Scope};

fn comment_lines(out: &mut String, text: &str) {
    push_wrapped(out, "# ", text, 90);
}

/// Renders the sysctl.d file in English.
pub fn sysctl(plan: &Plan) -> String {
    sysctl_in(plan, Catalogue::english())
}

/// Renders the sysctl.d file in the catalogue's language.
pub fn sysctl_in(plan: &Plan, cat: &Catalogue) -> String {
    render(plan, None, cat, &Header::new(plan, cat))
}

/// [`sysctl_in`], and where each setting's lines are.
pub fn sysctl_with_origins(plan: &Plan, cat: &Catalogue) -> (String, Vec<Origin>) {
    let mut origins = Vec::new();
    let out = render(plan, Some(&mut origins), cat, &Header::new(plan, cat));
    (out, origins)
}

pub(super) fn render(
    plan: &Plan,
    mut origins: Option<&mut Vec<Origin>>,
    cat: &Catalogue,
    head: &Header,
) -> String {
    let mut out = String::with_capacity(4096);
    for line in head.lines(cat.get(&texts::WHAT_SYSCTL), cat) {
        comment_lines(&mut out, &line);
    }
    comment_lines(&mut out, cat.get(&texts::SYSCTL_APPLY));
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope != Scope::Sysctl {
            continue;
        }
        out.push('\n');
        let reason_at = out.len();
        push_reason(&mut out, "# ", &setting.reason, 90, cat);
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
        comment_lines(&mut out, cat.get(&texts::OMITTED_SYSCTL));
        let mut line = String::with_capacity(256);
        for o in omitted {
            line.clear();
            for part in ["- ", o.name, ": ", &cat.why(&o.reason)] {
                line.push_str(part);
            }
            comment_lines(&mut out, &line);
        }
    }
    out
}
