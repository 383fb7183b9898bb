//! The `sysctl.d` file: `key = value` lines under their reasons.

use super::{Header, Lines, Origin, Why, texts};
use crate::i18n::Catalogue;
use crate::plan::{FileKind, Plan, Scope};

pub(super) fn render(
    plan: &Plan,
    cat: &Catalogue,
    head: &Header,
    origins: Option<&mut Vec<Origin>>,
) -> String {
    let mut out = Lines::new(4096, "# ", origins);
    for line in head.lines(cat.get(&texts::WHAT_SYSCTL), cat) {
        out.comment(&line);
    }
    out.comment(cat.get(&texts::SYSCTL_APPLY));
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope == Scope::Sysctl {
            out.raw("\n");
            out.setting(index, setting, " = ", Why::Reason, cat);
        }
    }
    let mut omitted = plan
        .omitted
        .iter()
        .filter(|o| o.scope.file() == FileKind::Sysctl)
        .peekable();
    if omitted.peek().is_some() {
        out.raw("\n");
        out.comment(cat.get(&texts::OMITTED_SYSCTL));
        let mut line = String::with_capacity(256);
        for o in omitted {
            line.clear();
            for part in ["- ", o.name, ": ", &cat.why(&o.reason)] {
                line.push_str(part);
            }
            out.comment(&line);
        }
    }
    out.finish()
}
