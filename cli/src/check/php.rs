//! The php workload's PHP-FPM: its pool file on disk against the plan's, setting by
//! setting (comments aside, as PHP-FPM reads it), its master running, and the pool not
//! changed since PHP-FPM last (re)loaded it.

use std::path::Path;

use nginx_gen_core::Plan;
use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::plan::Scope;

use super::Finding;
use super::compare::reason_of;
use super::probe;
use crate::apply::php::Fpm;

/// The `key = value` settings of a pool file's text, each with its `[section]`; comments
/// (`;`, `#`) and blank lines aside, values unquoted.
pub fn settings(text: &str) -> Vec<(String, String, String)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with([';', '#']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            name.trim().clone_into(&mut section);
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(v);
            out.push((section.clone(), k.trim().to_owned(), v.to_owned()));
        }
    }
    out
}

/// The installed pool (`installed`: its text, or why it cannot be read) against the plan's
/// (`planned`): every setting the plan writes, in its section, with the installed file's
/// last value for it (PHP-FPM keeps the last). Settings the plan does not write are not
/// compared.
pub fn pool(
    plan: &Plan,
    cat: &Catalogue,
    fpm: &Fpm,
    planned: &str,
    installed: Result<&str, String>,
) -> Vec<Finding> {
    let reload = format!("{} -t && systemctl reload {}", fpm.program, fpm.name);
    let text = match installed {
        Ok(text) => text,
        Err(why) => {
            return vec![Finding::new(
                "php-fpm",
                fpm.pool.clone(),
                "the plan's pool file".into(),
                why,
                "the php workload's PHP-FPM pool: its children sized to the memory, its socket nginx's fastcgi_pass".into(),
                format!("install {} (nginx-gen apply), then {reload}", fpm.pool),
            )];
        }
    };
    let found = settings(text);
    let mut out = Vec::new();
    for (section, key, value) in settings(planned) {
        let theirs = found
            .iter()
            .rev()
            .find(|(s, k, _)| *s == section && *k == key)
            .map(|(_, _, v)| v.as_str());
        if theirs == Some(value.as_str()) {
            continue;
        }
        let reason = plan
            .in_scope(Scope::PhpPool)
            .find(|s| s.name == key)
            .map_or_else(
                || format!("the plan's pool sets {key} in [{section}]"),
                |s| reason_of(s, cat),
            );
        out.push(Finding::new(
            "php-fpm",
            format!("{} [{section}]: {key}", fpm.pool),
            value.clone(),
            theirs.map_or_else(|| "(not set)".into(), str::to_owned),
            reason,
            format!(
                "{key} = {value} in [{section}] of {} (nginx-gen apply), then {reload}",
                fpm.pool
            ),
        ));
    }
    out
}

/// PHP-FPM's master for the main configuration `conf`: the process titled
/// `php-fpm: master process (CONF)`.
fn master(conf: &str) -> Option<u32> {
    let title = format!("php-fpm: master process ({conf})");
    std::fs::read_dir("/proc")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .find(|&pid| probe::process(pid).is_some_and(|p| p.title == title))
}

/// Every check of PHP-FPM for `plan` (the php workload) on the host, its files under
/// `root`.
pub fn run(plan: &Plan, cat: &Catalogue, root: &Path, planned_pool: &str) -> Vec<Finding> {
    let fpm = Fpm::of(plan.inputs.layout, plan.inputs.php_version);
    let path = root.join(fpm.pool.trim_start_matches('/'));
    let installed = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "missing".to_owned(),
        _ => format!("unreadable: {}: {e}", path.display()),
    });
    let mut out = pool(
        plan,
        cat,
        &fpm,
        planned_pool,
        installed.as_deref().map_err(Clone::clone),
    );
    let Some(pid) = master(&fpm.conf) else {
        out.push(Finding::new(
            "php-fpm",
            format!("{} master", fpm.name),
            "running".into(),
            format!("no process titled php-fpm: master process ({})", fpm.conf),
            "nginx passes the .php requests to PHP-FPM's pool; without it they fail with 502"
                .into(),
            format!(
                "systemctl start {} (journalctl -u {} says why it stopped)",
                fpm.name, fpm.name
            ),
        ));
        return out;
    };
    // Each reload starts new children; the newest one's start is the last (re)load.
    let loaded = probe::children(pid)
        .iter()
        .filter_map(|c| probe::started_at(c.pid))
        .max()
        .or_else(|| probe::started_at(pid));
    let modified = probe::modified_at(&path.to_string_lossy());
    if let (Some(loaded), Some(at)) = (loaded, modified)
        && at > loaded + 1
    {
        out.push(Finding::new(
            "php-fpm",
            format!("{} loaded pool", fpm.name),
            format!("{} as PHP-FPM last loaded it", fpm.pool),
            format!(
                "{} changed {} s after PHP-FPM last (re)loaded: the running pool may be older than the file",
                fpm.pool,
                at - loaded
            ),
            "PHP-FPM reads its pools only at start and reload".into(),
            format!("{} -t && systemctl reload {}", fpm.program, fpm.name),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{pool, settings};
    use crate::apply::php::Fpm;
    use nginx_gen_core::i18n::Catalogue;
    use nginx_gen_core::plan::FileKind;

    #[test]
    fn settings_keep_their_section_without_comments() {
        let s =
            settings("; c\n[global]\npid = /run/x.pid\n\n[www]\n# c\npm = dynamic\nx = \"a b\"\n");
        assert_eq!(
            s,
            [
                ("global".into(), "pid".into(), "/run/x.pid".into()),
                ("www".into(), "pm".into(), "dynamic".into()),
                ("www".into(), "x".into(), "a b".into()),
            ]
        );
    }

    #[test]
    fn the_pool_differs_by_its_settings_only() {
        let plan = nginx_gen_core::plan_from_json(
            r#"{"vcpu": 2, "ram": "4G", "workload": "php", "server_names": ["a.example"]}"#,
        )
        .unwrap();
        let cat = Catalogue::english();
        let fpm = Fpm::of(plan.inputs.layout, plan.inputs.php_version);
        let planned = nginx_gen_core::render::file_in(&plan, FileKind::PhpPool, cat);
        assert!(pool(&plan, cat, &fpm, &planned, Ok(&planned)).is_empty());
        // Other comments, another order of nothing: the same settings.
        let recommented = planned.replace("; ", ";; ");
        assert!(pool(&plan, cat, &fpm, &planned, Ok(&recommented)).is_empty());
        // A value edited by hand, a key removed, a later line that wins.
        let max = super::settings(&planned)
            .into_iter()
            .find(|(_, k, _)| k == "pm.max_children")
            .unwrap()
            .2;
        let edited = planned
            .replace(&format!("pm.max_children = {max}"), "pm.max_children = 5")
            .replace("pm.max_requests = 500\n", "")
            + "security.limit_extensions = .php .phtml\n";
        let found = pool(&plan, cat, &fpm, &planned, Ok(&edited));
        let subjects: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|f| (f.subject.as_str(), f.planned.as_str(), f.found.as_str()))
            .collect();
        assert_eq!(
            subjects,
            [
                (
                    "/etc/php/8.2/fpm/pool.d/www.conf [www]: pm.max_children",
                    max.as_str(),
                    "5"
                ),
                (
                    "/etc/php/8.2/fpm/pool.d/www.conf [www]: pm.max_requests",
                    "500",
                    "(not set)"
                ),
                (
                    "/etc/php/8.2/fpm/pool.d/www.conf [www]: security.limit_extensions",
                    ".php",
                    ".php .phtml"
                ),
            ]
        );
        assert!(found[0].reason.contains("per child"), "{}", found[0].reason);
        assert!(
            found[0]
                .fix
                .ends_with("php-fpm8.2 -t && systemctl reload php8.2-fpm"),
            "{}",
            found[0].fix
        );
        let missing = pool(&plan, cat, &fpm, &planned, Err("missing".into()));
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].found, "missing");
    }
}
