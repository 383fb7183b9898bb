//! The systemd drop-in for `nginx.service`.

use super::{Header, Origin, line_origin, push_value, texts};
use crate::i18n::Catalogue;
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{Plan, Scope};

/// Renders the drop-in in English.
pub fn systemd(plan: &Plan) -> String {
    systemd_in(plan, Catalogue::english())
}

/// Renders the drop-in in the catalogue's language.
pub fn systemd_in(plan: &Plan, cat: &Catalogue) -> String {
    render(plan, None, cat, &Header::new(plan, cat))
}

/// [`systemd_in`], and where each setting's lines are.
pub fn systemd_with_origins(plan: &Plan, cat: &Catalogue) -> (String, Vec<Origin>) {
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
    let mut out = String::with_capacity(2048);
    for line in head.lines(cat.get(&texts::WHAT_SYSTEMD), cat) {
        push_wrapped(&mut out, "# ", &line, 90);
    }
    push_wrapped(&mut out, "# ", cat.get(&texts::SYSTEMD_APPLY), 90);
    out.push_str("\n[Service]\n");
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope != Scope::Systemd {
            continue;
        }
        let reason_at = out.len();
        push_reason(&mut out, "# ", &setting.reason, 90, cat);
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
