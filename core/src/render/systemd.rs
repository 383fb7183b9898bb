//! The systemd drop-in for `nginx.service`.

use super::{Header, Lines, Origin, Why, texts};
use crate::i18n::Catalogue;
use crate::plan::{Plan, Scope};

pub(super) fn render(
    plan: &Plan,
    cat: &Catalogue,
    head: &Header,
    origins: Option<&mut Vec<Origin>>,
) -> String {
    let mut out = Lines::new(2048, "# ", origins);
    for line in head.lines(cat.get(&texts::WHAT_SYSTEMD), cat) {
        out.comment(&line);
    }
    out.comment(cat.get(&texts::SYSTEMD_APPLY));
    out.raw("\n[Service]\n");
    for (index, setting) in plan.settings.iter().enumerate() {
        if setting.scope == Scope::Systemd {
            out.setting(index, setting, "=", Why::Reason, cat);
        }
    }
    out.finish()
}
