//! Parse-back: what every generated file must contain according to the [`Plan`], compared
//! with what an nginx-grammar parser (or `key = value` reader) finds in the rendered text.
//! Nothing missing, nothing extra, no argument split, joined or cut.

use nginx_gen_core::plan::FileKind;
use nginx_gen_core::plan::{Args, LocationRole, Scope, ServerRole};
use nginx_gen_core::render::{self, File};
use nginx_gen_core::{Plan, render::SYSCTL_PATH, render::SYSTEMD_PATH};

use crate::parse::{self, Directive};

/// The `location` arguments of each role: the only strings of the site file that do not
/// come from the plan, fixed by the site's design ([`LocationRole::matcher`]).
pub fn location_args(role: LocationRole) -> Vec<String> {
    role.matcher().iter().map(|s| (*s).to_owned()).collect()
}

fn leaf(name: &str, args: &Args) -> Directive {
    Directive {
        name: name.to_owned(),
        args: args.iter().map(str::to_owned).collect(),
        block: None,
        line: 0,
    }
}

fn block(name: &str, args: Vec<String>, children: Vec<Directive>) -> Directive {
    Directive {
        name: name.to_owned(),
        args,
        block: Some(children),
        line: 0,
    }
}

fn scope(plan: &Plan, scope: Scope) -> Vec<Directive> {
    plan.in_scope(scope)
        .map(|s| leaf(s.name, &s.args))
        .collect()
}

/// The directive tree of nginx.conf that the plan calls for.
pub fn nginx_conf(plan: &Plan) -> Vec<Directive> {
    let mut out = scope(plan, Scope::Main);
    out.push(block("events", Vec::new(), scope(plan, Scope::Events)));
    out.push(block("http", Vec::new(), scope(plan, Scope::Http)));
    out
}

/// The directive tree of the site file that the plan calls for.
pub fn site(plan: &Plan) -> Vec<Directive> {
    let mut out = Vec::new();
    for setting in &plan.settings {
        if let Scope::Table { table } = setting.scope {
            let rows = table.rows().iter().map(|(key, values)| {
                let mut args = vec![(*key).to_owned()];
                args.extend(values.iter().map(|v| (*v).to_owned()));
                Directive {
                    name: args.remove(0),
                    args,
                    block: None,
                    line: 0,
                }
            });
            out.push(block(
                setting.name,
                setting.args.iter().map(ToString::to_string).collect(),
                rows.collect(),
            ));
        }
    }
    let upstream = scope(plan, Scope::Upstream);
    if !upstream.is_empty() {
        out.push(block("upstream", vec!["app".into()], upstream));
    }
    for server in ServerRole::ALL {
        let mut children = scope(plan, Scope::Server { server });
        for location in LocationRole::ALL {
            if location.parent().is_none() {
                children.extend(location_block(plan, server, location));
            }
        }
        if !children.is_empty() {
            out.push(block("server", Vec::new(), children));
        }
    }
    out
}

/// A location's block: its settings, then the locations nested in it.
fn location_block(plan: &Plan, server: ServerRole, location: LocationRole) -> Option<Directive> {
    let mut body = scope(plan, Scope::Location { server, location });
    for nested in LocationRole::ALL {
        if nested.parent() == Some(location) {
            body.extend(location_block(plan, server, nested));
        }
    }
    (!body.is_empty()).then(|| block("location", location_args(location), body))
}

/// `(key, value)` lines of a sysctl.d file or of the systemd drop-in's `[Service]`.
fn key_values(text: &str, separator: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') || t == "[Service]" {
            continue;
        }
        let (k, v) = t
            .split_once(separator)
            .ok_or_else(|| format!("line {}: not `key{separator}value`: {line:?}", n + 1))?;
        out.push((k.trim().to_owned(), v.trim().to_owned()));
    }
    Ok(out)
}

fn strip_lines(nodes: &mut [Directive]) {
    for n in nodes {
        n.line = 0;
        if let Some(children) = &mut n.block {
            strip_lines(children);
        }
    }
}

fn compare(path: &str, text: &str, expected: &[Directive]) -> Result<(), String> {
    let mut got = parse::parse(text).map_err(|e| format!("{path}: does not parse: {e}"))?;
    strip_lines(&mut got);
    if got == expected {
        return Ok(());
    }
    Err(format!(
        "{path}: the directive tree differs from the plan\n--- plan ---\n{}--- parsed ---\n{}",
        parse::dump(expected),
        parse::dump(&got)
    ))
}

/// Checks every rendered file of `plan` against the plan itself.
pub fn check_files(plan: &Plan, files: &[File]) -> Result<(), String> {
    let mut want_paths = vec![
        render::NGINX_PATH.to_owned(),
        plan.site_path(),
        SYSCTL_PATH.to_owned(),
        SYSTEMD_PATH.to_owned(),
    ];
    // The php workload's fifth file: the PHP-FPM pool.
    if render::has_file(plan, FileKind::PhpPool) {
        want_paths.push(render::path_of(plan, FileKind::PhpPool));
    }
    let got_paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    if got_paths != want_paths.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(format!("files {got_paths:?}, expected {want_paths:?}"));
    }
    for f in files {
        if f.contents.contains('\0') {
            return Err(format!("{}: contains a NUL byte", f.path));
        }
    }
    compare(&files[0].path, &files[0].contents, &nginx_conf(plan))?;
    compare(&files[1].path, &files[1].contents, &site(plan))?;
    let kv = |scope| {
        plan.in_scope(scope)
            .map(|s| (s.name.to_owned(), s.value()))
            .collect::<Vec<_>>()
    };
    let sysctl = key_values(&files[2].contents, "=").map_err(|e| format!("{SYSCTL_PATH}: {e}"))?;
    if sysctl != kv(Scope::Sysctl) {
        return Err(format!(
            "{SYSCTL_PATH}: {sysctl:?} differs from the plan's {:?}",
            kv(Scope::Sysctl)
        ));
    }
    let systemd =
        key_values(&files[3].contents, "=").map_err(|e| format!("{SYSTEMD_PATH}: {e}"))?;
    if systemd != kv(Scope::Systemd) {
        return Err(format!(
            "{SYSTEMD_PATH}: {systemd:?} differs from the plan's {:?}",
            kv(Scope::Systemd)
        ));
    }
    if !files[3].contents.lines().any(|l| l == "[Service]") {
        return Err(format!("{SYSTEMD_PATH}: no [Service] section"));
    }
    if let Some(pool) = files.get(4) {
        check_pool(plan, pool, &kv(Scope::PhpPool))?;
    }
    Ok(())
}

/// The pool file: `[www]`, the account and socket of the layout, then the plan's settings.
fn check_pool(plan: &Plan, pool: &File, settings: &[(String, String)]) -> Result<(), String> {
    let path = &pool.path;
    let mut lines = pool.contents.lines().map(str::trim);
    if !lines.any(|l| l == "[www]") {
        return Err(format!("{path}: no [www] section"));
    }
    let rest: Vec<&str> = lines.collect();
    let kv = key_values(&rest.join("\n"), "=").map_err(|e| format!("{path}: {e}"))?;
    let i = &plan.inputs;
    let user = i.layout.user().to_owned();
    let fixed = [
        ("user", user.clone()),
        ("group", user.clone()),
        ("listen", i.layout.php_socket(i.php_version)),
        ("listen.owner", user.clone()),
        ("listen.group", user),
        ("listen.mode", "0660".to_owned()),
    ];
    let want: Vec<(String, String)> = fixed
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .chain(settings.iter().cloned())
        .collect();
    if kv != want {
        return Err(format!("{path}: {kv:?} differs from the plan's {want:?}"));
    }
    Ok(())
}

/// Renders `plan` and checks the result against it.
pub fn check(plan: &Plan) -> Result<(), String> {
    check_files(plan, &render::files(plan))
}
