//! The PHP-FPM pool file of the php workload: `key = value` lines under their reasons
//! (`;` comments, as PHP's ini parser wants).

use super::{Header, Origin, line_origin, push_value, texts, with_new_reason};
use crate::i18n::Catalogue;
use crate::ir::{push_reason, push_wrapped};
use crate::plan::{Plan, Scope};

/// Renders the pool file in the catalogue's language (empty unless the workload is php).
pub fn php_pool_in(plan: &Plan, cat: &Catalogue) -> String {
    render(plan, None, cat, &Header::new(plan, cat))
}

/// [`php_pool_in`], and where each setting's lines are.
pub fn php_pool_with_origins(plan: &Plan, cat: &Catalogue) -> (String, Vec<Origin>) {
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
    if plan.tuning.php.is_none() {
        return String::new();
    }
    let i = &plan.inputs;
    let fpm = i.layout.php_fpm(i.php_version);
    let mut out = String::with_capacity(4096);
    for line in head.lines(cat.get(&texts::WHAT_PHP_POOL), cat) {
        push_wrapped(&mut out, "; ", &line, 90);
    }
    let program = i.layout.php_fpm_program(i.php_version);
    let apply = cat.fill(&texts::PHP_APPLY, &[("program", &program), ("fpm", &fpm)]);
    push_wrapped(&mut out, "; ", &apply, 90);
    out.push_str("\n[www]\n");
    push_wrapped(&mut out, "; ", cat.get(&texts::PHP_SOCKET), 90);
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
            out.push_str(part);
        }
    }
    // A run of settings with one reason (the spares) shares its text; each keeps its formula.
    for (setting, index, new) in with_new_reason(plan, Scope::PhpPool) {
        if new {
            out.push('\n');
        }
        let reason_at = out.len();
        match (new, &setting.reason.formula) {
            (false, Some(formula)) => push_wrapped(&mut out, "; ", formula, 90),
            (false, None) => {}
            (true, _) => push_reason(&mut out, "; ", &setting.reason, 90, cat),
        }
        if let Some(origins) = origins.as_deref_mut() {
            origins.push(line_origin(&out, index, reason_at, out.len()));
        }
        out.push_str(setting.name);
        out.push_str(" = ");
        push_value(&mut out, setting);
        out.push('\n');
    }
    out
}
