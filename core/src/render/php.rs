//! The PHP-FPM pool file of the php workload: `key = value` lines under their reasons
//! (`;` comments, as PHP's ini parser wants).

use super::{Header, Lines, Origin, Why, texts, with_new_reason};
use crate::i18n::Catalogue;
use crate::plan::{Plan, Scope};

pub(super) fn render(
    plan: &Plan,
    cat: &Catalogue,
    head: &Header,
    origins: Option<&mut Vec<Origin>>,
) -> String {
    if plan.tuning.php.is_none() {
        return String::new();
    }
    let i = &plan.inputs;
    let fpm = i.layout.php_fpm(i.php_version);
    let mut out = Lines::new(4096, "; ", origins);
    for line in head.lines(cat.get(&texts::WHAT_PHP_POOL), cat) {
        out.comment(&line);
    }
    let program = i.layout.php_fpm_program(i.php_version);
    out.comment(&cat.fill(&texts::PHP_APPLY, &[("program", &program), ("fpm", &fpm)]));
    out.raw("\n[www]\n");
    out.comment(cat.get(&texts::PHP_SOCKET));
    let user = i.layout.user();
    let socket = i.layout.php_socket(i.php_version);
    for (key, value) in [
        ("user", user),
        ("group", user),
        ("listen", &socket),
        ("listen.owner", user),
        ("listen.group", user),
        ("listen.mode", "0660"),
    ] {
        for part in [key, " = ", value, "\n"] {
            out.raw(part);
        }
    }
    // A run of settings with one reason (the spares) shares its text; each keeps its formula.
    for (setting, index, new) in with_new_reason(plan, Scope::PhpPool) {
        if new {
            out.raw("\n");
        }
        let why = if new { Why::Reason } else { Why::FormulaOnly };
        out.setting(index, setting, " = ", why, cat);
    }
    out.finish()
}
