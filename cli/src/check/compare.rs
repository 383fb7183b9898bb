//! The comparisons of `check`: each takes what the plan says and what was read from the
//! host, and returns the differences as [`Finding`]s, each with the plan's reason and a
//! fix. Pure functions of their arguments, so every rule is unit-tested on captured data.

use std::collections::{BTreeMap, BTreeSet};

use nginx_gen_core::Plan;
use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::plan::{Scope, Setting};

use std::path::Path;

use nginx_gen::sysctl_d;

use super::Finding;
use super::conf::{self, Directive};
use super::probe::{Limits, Listener};

/// The reason of a setting, one line: the explanation and, where computed, its formula.
pub fn reason_of(setting: &Setting, cat: &Catalogue) -> String {
    let why = cat.why(&setting.reason);
    match &setting.reason.formula {
        Some(f) => format!("{} ({f})", why.trim()),
        None => why.trim().to_owned(),
    }
}

/// The reason of the first setting called `name` whose scope `scope` accepts, or a plain
/// sentence when the plan has none.
pub fn reason_for(
    plan: &Plan,
    cat: &Catalogue,
    name: &str,
    scope: impl Fn(Scope) -> bool,
) -> String {
    plan.settings
        .iter()
        .find(|s| s.name == name && scope(s.scope))
        .map_or_else(
            || format!("nginx-gen sets {name} for these inputs"),
            |s| reason_of(s, cat),
        )
}

/// The reason for a directive the plan sets more than once (`ssl_conf_command`): those of
/// its planned values the running configuration lacks, else the first one's.
fn reason_for_values(
    plan: &Plan,
    cat: &Catalogue,
    name: &str,
    scope: impl Fn(Scope) -> bool,
    planned: &[String],
    found: &[String],
) -> String {
    let mut missing: Vec<String> = Vec::new();
    // The same value in two places (a limit in `/` and `@app`) gives its reason once.
    for s in plan
        .settings
        .iter()
        .filter(|s| s.name == name && scope(s.scope))
        .filter(|s| planned.contains(&s.value()) && !found.contains(&s.value()))
    {
        let reason = reason_of(s, cat);
        if !missing.contains(&reason) {
            missing.push(reason);
        }
    }
    if missing.is_empty() {
        reason_for(plan, cat, name, scope)
    } else {
        missing.join(" ")
    }
}

fn show(n: Option<u64>) -> String {
    n.map_or_else(|| "unlimited".into(), |n| n.to_string())
}

/// A limit as `soft N, hard M`.
pub fn show_limits(l: Limits) -> String {
    format!("soft {}, hard {}", show(l.soft), show(l.hard))
}

/// A planned limit, a floor, as `soft at least N, hard at least M` (`unlimited` where it
/// is: only that meets it).
pub fn show_floor(l: Limits) -> String {
    let floor = |n: Option<u64>| n.map_or_else(|| "unlimited".into(), |n| format!("at least {n}"));
    format!("soft {}, hard {}", floor(l.soft), floor(l.hard))
}

/// Whether a found limit meets a planned one: each of soft and hard at least the planned
/// (unlimited is above every number). The plan's limits are floors: `LimitNOFILE` is
/// "at least `worker_rlimit_nofile`", `worker_rlimit_nofile` the files a worker may need; a
/// process allowed more files runs out of none.
pub fn meets(found: Limits, planned: Limits) -> bool {
    let at_least = |f: Option<u64>, p: Option<u64>| match (f, p) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(f), Some(p)) => f >= p,
    };
    at_least(found.soft, planned.soft) && at_least(found.hard, planned.hard)
}

/// The planned file limits: the master's from the systemd drop-in's `LimitNOFILE` (`N` or
/// `SOFT:HARD`), the workers' from `worker_rlimit_nofile` (nginx sets both limits to it),
/// else the master's (they inherit it).
pub fn planned_limits(plan: &Plan) -> (Option<Limits>, Option<Limits>) {
    let parse = |v: &str| -> Option<Option<u64>> {
        if v == "infinity" {
            Some(None)
        } else {
            v.parse().ok().map(Some)
        }
    };
    let master = plan
        .in_scope(Scope::Systemd)
        .find(|s| s.name == "LimitNOFILE")
        .and_then(|s| {
            let v = s.value();
            let (soft, hard) = v.split_once(':').unwrap_or((&v, &v));
            Some(Limits {
                soft: parse(soft)?,
                hard: parse(hard)?,
            })
        });
    let worker = plan
        .in_scope(Scope::Main)
        .find(|s| s.name == "worker_rlimit_nofile")
        .and_then(|s| parse(&s.value()))
        .map(|n| Limits { soft: n, hard: n })
        .or(master);
    (master, worker)
}

/// The file limits of the master (`role` "master") or a worker against the plan: a finding
/// when the soft or the hard limit is below the planned one ([`meets`]).
pub fn limits(
    plan: &Plan,
    cat: &Catalogue,
    role: &str,
    pid: u32,
    found: Result<Limits, String>,
) -> Option<Finding> {
    let (master, worker) = planned_limits(plan);
    let (planned, setting, fix) = if role == "master" {
        (
            master?,
            "LimitNOFILE",
            format!(
                "install {} (nginx-gen apply), then systemctl daemon-reload && systemctl restart nginx; without systemd start nginx under `prlimit --nofile=N:N` (ulimit -n); a hard limit above the container's cannot be set from inside it",
                nginx_gen_core::render::SYSTEMD_PATH
            ),
        )
    } else {
        (
            worker?,
            "worker_rlimit_nofile",
            format!(
                "worker_rlimit_nofile {}; in nginx.conf's main context (nginx-gen apply), then nginx -t && nginx -s reload",
                show(worker?.soft)
            ),
        )
    };
    let reason = reason_for(plan, cat, setting, |_| true);
    let subject = format!("nginx {role} (pid {pid}): Max open files");
    match found {
        Ok(l) if meets(l, planned) => None,
        Ok(l) => Some(Finding::new(
            "limits",
            subject,
            show_floor(planned),
            show_limits(l),
            reason,
            fix,
        )),
        Err(e) => Some(Finding::unreadable(
            "limits",
            subject,
            show_floor(planned),
            &e,
            reason,
        )),
    }
}

/// The kernel's settings under `proc_sys` (`/proc/sys`) against the plan's sysctl.d file
/// (`sysctl_file`, its text), key by key, each by its rule ([`sysctl_d::satisfied`]: a
/// floor's higher value is no finding, and the finding's planned value reads `at least N`).
/// A key the kernel does not have, or that cannot be read, is a finding too. Where a file
/// applied after ours sets the key to a value that does not meet ours (`overrides`, from
/// [`sysctl_d::overrides`]), the fix names it: that file wins at every boot.
pub fn sysctls(
    plan: &Plan,
    cat: &Catalogue,
    sysctl_file: &str,
    proc_sys: &Path,
    overrides: &[sysctl_d::Override],
) -> Vec<Finding> {
    let ours = sysctl_d::parse(sysctl_file);
    let differences = sysctl_d::differences(proc_sys, &ours);
    let mut out = Vec::new();
    for (key, value) in &ours {
        // What meets ours, in words: `at least 4096` for a floor, else the value.
        let planned = sysctl_d::describe(key, value);
        let reason = plan
            .in_scope(Scope::Sysctl)
            .find(|s| s.name == key)
            .map_or_else(|| format!("nginx-gen sets {key}"), |s| reason_of(s, cat));
        let path = proc_sys.join(key.replace('.', "/"));
        if let Err(e) = std::fs::read_to_string(&path) {
            let why = format!(
                "this kernel (or network namespace) has no {key}: {}: {e}",
                path.display()
            );
            out.push(Finding::unreadable(
                "sysctl",
                key.clone(),
                planned,
                &why,
                reason,
            ));
            continue;
        }
        let Some(d) = differences.iter().find(|d| d.key == *key) else {
            continue;
        };
        let fix = match overrides.iter().find(|o| o.key == *key) {
            Some(o) => format!(
                "{} sets {key} = {} and is applied after {}: remove that line (or make it {planned}), then sysctl --system",
                o.file,
                o.theirs,
                nginx_gen_core::render::SYSCTL_PATH
            ),
            None => format!(
                "sysctl -w {key}='{value}' now; keep it with {} (nginx-gen apply runs sysctl --system)",
                nginx_gen_core::render::SYSCTL_PATH
            ),
        };
        out.push(Finding::new(
            "sysctl",
            key.clone(),
            planned,
            d.actual.clone(),
            reason,
            fix,
        ));
    }
    out
}

/// The running workers against the CPUs the master may use.
pub fn workers(
    plan: &Plan,
    cat: &Catalogue,
    running: usize,
    cpus: Option<&(u32, String)>,
) -> Option<Finding> {
    let reason = reason_for(plan, cat, "worker_processes", |s| s == Scope::Main);
    let Some((n, source)) = cpus else {
        return Some(Finding::unreadable(
            "workers",
            "worker processes".into(),
            "one per CPU nginx may use".into(),
            "cannot read the master's CPU affinity (/proc/PID/status)",
            reason,
        ));
    };
    (running != *n as usize).then(|| {
        Finding::new(
            "workers",
            "worker processes".into(),
            format!("{n} ({source})"),
            format!("{running} running"),
            reason,
            format!(
                "worker_processes {n}; in nginx.conf, then nginx -t && nginx -s reload; when the configuration says so already, workers died: read the error log"
            ),
        )
    })
}

/// A listen address of the plan: the port and the address as `ss` shows it.
fn listen_key(addr: &str) -> Option<(String, u16)> {
    if let Some(rest) = addr.strip_prefix('[') {
        let (host, port) = rest.split_once("]:")?;
        return Some((format!("[{host}]"), port.parse().ok()?));
    }
    match addr.rsplit_once(':') {
        Some((host, port)) => Some((
            if host == "*" {
                "0.0.0.0".into()
            } else {
                host.to_owned()
            },
            port.parse().ok()?,
        )),
        None if addr.bytes().all(|b| b.is_ascii_digit()) => {
            Some(("0.0.0.0".into(), addr.parse().ok()?))
        }
        None => Some((addr.to_owned(), 80)),
    }
}

/// Every address and port the plan sets a listen queue for, with its backlog (the
/// `backlog=` of any listen on it, as nginx applies it to the socket).
pub fn planned_backlogs(servers: &[&Directive]) -> BTreeMap<(String, u16), u32> {
    let mut out = BTreeMap::new();
    for server in servers {
        for d in server.children().iter().filter(|d| d.name == "listen") {
            let Some(key) = d.args.first().and_then(|a| listen_key(a)) else {
                continue;
            };
            let backlog = d
                .args
                .iter()
                .find_map(|a| a.strip_prefix("backlog=")?.parse().ok());
            // A socket no `backlog=` is planned for (the status server's) is not compared.
            if let Some(b) = backlog {
                out.insert(key, b);
            }
        }
    }
    out
}

/// The listen backlog of each socket nginx owns against the plan's `backlog=`, capped by
/// `net.core.somaxconn` (the kernel's value, as found).
pub fn backlogs(
    plan: &Plan,
    cat: &Catalogue,
    planned: &BTreeMap<(String, u16), u32>,
    sockets: &[Listener],
    somaxconn: Option<u32>,
) -> Vec<Finding> {
    let reason = plan
        .settings
        .iter()
        .find(|s| s.name == "listen" && s.args.iter().any(|a| a.starts_with("backlog=")))
        .map_or_else(
            || "nginx's default listen backlog (511) for these inputs".into(),
            |s| reason_of(s, cat),
        );
    let mut out = Vec::new();
    for ((addr, port), want) in planned {
        let subject = format!("listen {addr}:{port}: backlog");
        let on = |l: &&Listener| {
            l.port == *port
                && (l.addr == *addr
                    || l.addr == "*"
                    || (addr.starts_with('[') == l.addr.starts_with('[')
                        && (l.addr == "0.0.0.0" || l.addr == "[::]")))
        };
        let Some(socket) = sockets.iter().find(on) else {
            out.push(Finding::new(
                "backlog",
                subject,
                want.to_string(),
                "no listening socket of nginx".into(),
                reason.clone(),
                "install the plan's listen directives (nginx-gen apply) and reload nginx; `ss -ltnp` shows who listens".into(),
            ));
            continue;
        };
        let capped = somaxconn.is_some_and(|m| m < *want);
        if socket.backlog == *want {
            // In effect now, but the kernel caps the next listen() (a restart) at somaxconn.
            if let Some(max) = somaxconn.filter(|_| capped) {
                out.push(Finding::new(
                    "backlog",
                    subject,
                    want.to_string(),
                    format!(
                        "{want} now; net.core.somaxconn {max} caps it at the next start of nginx"
                    ),
                    reason.clone(),
                    format!(
                        "sysctl -w net.core.somaxconn={} (and keep it in {})",
                        want.max(&4096),
                        nginx_gen_core::render::SYSCTL_PATH
                    ),
                ));
            }
            continue;
        }
        let fix = if capped {
            format!(
                "net.core.somaxconn ({}) caps the backlog: raise it (sysctl -w net.core.somaxconn={}), then nginx -s reload (nginx sets the backlog again)",
                somaxconn.unwrap_or_default(),
                want.max(&4096)
            )
        } else {
            format!(
                "listen {addr}:{port} … backlog={want} in {} (nginx-gen apply), then nginx -t && nginx -s reload",
                plan.site_path()
            )
        };
        out.push(Finding::new(
            "backlog",
            subject,
            want.to_string(),
            socket.backlog.to_string(),
            reason.clone(),
            fix,
        ));
    }
    out
}

/// The directives of a context that are not blocks, by name, each name's values sorted.
fn by_name(ds: &[Directive]) -> BTreeMap<&str, Vec<String>> {
    let mut map: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for d in ds.iter().filter(|d| d.block.is_none()) {
        map.entry(d.name.as_str()).or_default().push(d.value());
    }
    for values in map.values_mut() {
        values.sort();
    }
    map
}

fn block<'a>(ds: &'a [Directive], name: &str) -> &'a [Directive] {
    ds.iter()
        .find(|d| d.name == name && d.block.is_some())
        .map_or(&[], Directive::children)
}

/// The `server` blocks of a configuration's `http` context.
pub fn servers(conf: &[Directive]) -> Vec<&Directive> {
    block(conf, "http")
        .iter()
        .filter(|d| d.name == "server" && d.block.is_some())
        .collect()
}

/// How a server block is found in the other configuration: its names, else the ports it is
/// the default server on.
fn server_key(server: &Directive) -> (BTreeSet<String>, BTreeSet<u16>) {
    let names = server
        .children()
        .iter()
        .filter(|d| d.name == "server_name")
        .flat_map(|d| d.args.iter().cloned())
        .collect();
    let defaults = server
        .children()
        .iter()
        .filter(|d| d.name == "listen" && d.args.iter().any(|a| a == "default_server"))
        .filter_map(|d| d.args.first().and_then(|a| listen_key(a)).map(|(_, p)| p))
        .collect();
    (names, defaults)
}

/// Every port a server block listens on.
fn server_ports(server: &Directive) -> BTreeSet<u16> {
    server
        .children()
        .iter()
        .filter(|d| d.name == "listen")
        .filter_map(|d| d.args.first().and_then(|a| listen_key(a)).map(|(_, p)| p))
        .collect()
}

/// The running server block that is the plan's `server`: the same names on a port it
/// listens on too (the plain-HTTP and HTTPS servers of a site share their names), or, for
/// a catch-all, the default server on its ports.
fn matching<'a>(server: &Directive, running: &[&'a Directive]) -> Option<&'a Directive> {
    let (names, defaults) = server_key(server);
    let ports = server_ports(server);
    running.iter().copied().find(|r| {
        let (rn, rd) = server_key(r);
        let unnamed = |n: &BTreeSet<String>| n.iter().all(String::is_empty);
        if !names.is_empty() {
            rn == names && !ports.is_disjoint(&server_ports(r))
        } else if !defaults.is_empty() {
            defaults.is_subset(&rd)
        } else {
            // A catch-all beside an existing default server: no name, on the same ports.
            unnamed(&rn) && !ports.is_disjoint(&server_ports(r))
        }
    })
}

fn describe_server(server: &Directive) -> String {
    let (names, defaults) = server_key(server);
    let list = |ports: &BTreeSet<u16>| {
        ports
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if names.is_empty() || names.iter().all(|n| n == "_" || n.is_empty()) {
        if defaults.is_empty() {
            format!(
                "server (no server_name, on {})",
                list(&server_ports(server))
            )
        } else {
            format!("server (default_server on {})", list(&defaults))
        }
    } else {
        format!("server {}", names.into_iter().collect::<Vec<_>>().join(" "))
    }
}

/// Where a configuration comes from, for the fixes.
pub struct Files<'a> {
    /// The running main file (`-c`).
    pub main: &'a str,
    /// The plan's site file.
    pub site: &'a str,
}

/// Compares one context: every directive the plan sets there, by name (all its values).
fn context(
    plan: &Plan,
    cat: &Catalogue,
    where_: &str,
    in_scope: &dyn Fn(Scope) -> bool,
    planned: &[Directive],
    running: &[Directive],
    file: &str,
) -> Vec<Finding> {
    let want = by_name(planned);
    let have = by_name(running);
    let mut out = Vec::new();
    for (name, values) in &want {
        let found = have.get(name).cloned().unwrap_or_default();
        if found == *values {
            continue;
        }
        let show = |v: &[String]| {
            if v.is_empty() {
                "(not set)".to_owned()
            } else {
                v.join("; ")
            }
        };
        let lines: Vec<String> = values.iter().map(|v| format!("{name} {v};")).collect();
        out.push(Finding::new(
            "config",
            format!("{where_}: {name}"),
            show(values),
            show(&found),
            reason_for_values(plan, cat, name, in_scope, values, &found),
            format!(
                "{} in the {where_} of {file} (nginx-gen apply), then nginx -t && nginx -s reload",
                lines.join(" ")
            ),
        ));
    }
    out
}

/// The running configuration (includes expanded) against the plan's (nginx.conf with the
/// site file), directive by directive in the main, `events` and `http` contexts and in the
/// plan's server blocks: a directive the plan sets that is missing, set to another value,
/// or set more often. Directives the plan does not set are not compared.
pub fn config(
    plan: &Plan,
    cat: &Catalogue,
    planned: &[Directive],
    running: &[Directive],
    files: &Files,
) -> Vec<Finding> {
    let mut out = context(
        plan,
        cat,
        "main context",
        &|s| s == Scope::Main,
        planned,
        running,
        files.main,
    );
    for (name, scope) in [("events", Scope::Events), ("http", Scope::Http)] {
        out.extend(context(
            plan,
            cat,
            &format!("{name} block"),
            &|s| s == scope,
            block(planned, name),
            block(running, name),
            files.main,
        ));
    }
    out.extend(upstreams(plan, cat, planned, running, files.site));
    let running_servers = servers(running);
    for server in servers(planned) {
        let (names, _) = server_key(server);
        let found = matching(server, &running_servers);
        let what = describe_server(server);
        let in_server = |s: Scope| matches!(s, Scope::Server { .. });
        match found {
            Some(r) => {
                out.extend(context(
                    plan,
                    cat,
                    &what,
                    &in_server,
                    server.children(),
                    r.children(),
                    files.site,
                ));
                out.extend(locations(plan, cat, &what, server, r, files.site));
            }
            None => out.push(absent(
                what,
                "server block",
                reason_for(
                    plan,
                    cat,
                    if names.is_empty() {
                        "listen"
                    } else {
                        "server_name"
                    },
                    in_server,
                ),
                files.site,
            )),
        }
    }
    out
}

/// The `location` blocks of the plan's `server` (or location) against the running one's,
/// found by their arguments (`/`, `@app`, `~ [^/]\.php(?:/|$)`): each one's directives as [`context`]
/// compares them, its nested locations likewise; a location missing is a finding.
fn locations(
    plan: &Plan,
    cat: &Catalogue,
    where_: &str,
    planned: &Directive,
    running: &Directive,
    file: &str,
) -> Vec<Finding> {
    let in_location = |s: Scope| matches!(s, Scope::Location { .. });
    let mut out = Vec::new();
    let have = location_blocks(running);
    for location in location_blocks(planned) {
        let what = format!("{where_}, location {}", location.value());
        let key = location_key(&location.args);
        match have.iter().find(|r| location_key(&r.args) == key) {
            Some(r) => {
                out.extend(context(
                    plan,
                    cat,
                    &what,
                    &in_location,
                    location.children(),
                    r.children(),
                    file,
                ));
                out.extend(locations(plan, cat, &what, location, r, file));
            }
            None => out.push(absent(
                what,
                "location",
                location.children().first().map_or_else(
                    || "nginx-gen writes this location for these inputs".to_owned(),
                    |d| reason_for(plan, cat, &d.name, in_location),
                ),
                file,
            )),
        }
    }
    out
}

/// A location's arguments as nginx reads them: its modifier apart from the path, written
/// together (`=/x`, `~*\.png$`) or not.
fn location_key(args: &[String]) -> Vec<&str> {
    const MODIFIERS: [&str; 4] = ["^~", "~*", "=", "~"];
    let mut key = Vec::with_capacity(args.len() + 1);
    for (i, arg) in args.iter().enumerate() {
        let modifier = MODIFIERS.into_iter().find(|m| {
            i == 0
                && !MODIFIERS.contains(&arg.as_str())
                && arg.len() > m.len()
                && arg.starts_with(m)
        });
        match modifier {
            Some(m) => key.extend([m, &arg[m.len()..]]),
            None => key.push(arg),
        }
    }
    key
}

/// A block of the plan (`what`, a `kind` such as "location") the running configuration
/// lacks: installing the plan's `file` brings it.
fn absent(what: String, kind: &str, reason: String, file: &str) -> Finding {
    Finding::new(
        "config",
        what,
        "present".into(),
        format!("no such {kind} in the running configuration"),
        reason,
        format!("install {file} (nginx-gen apply), then nginx -t && nginx -s reload"),
    )
}

/// The `location` blocks directly inside `d`.
fn location_blocks(d: &Directive) -> Vec<&Directive> {
    d.children()
        .iter()
        .filter(|c| c.name == "location" && c.block.is_some())
        .collect()
}

/// The plan's `upstream` blocks against the running configuration's of the same names.
fn upstreams(
    plan: &Plan,
    cat: &Catalogue,
    planned: &[Directive],
    running: &[Directive],
    file: &str,
) -> Vec<Finding> {
    let in_upstream = |s: Scope| s == Scope::Upstream;
    let blocks = |ds| {
        block(ds, "http")
            .iter()
            .filter(|d| d.name == "upstream" && d.block.is_some())
    };
    let have: Vec<&Directive> = blocks(running).collect();
    let mut out = Vec::new();
    for upstream in blocks(planned) {
        let what = format!("upstream {}", upstream.value());
        match have.iter().find(|r| r.args == upstream.args) {
            Some(r) => out.extend(context(
                plan,
                cat,
                &what,
                &in_upstream,
                upstream.children(),
                r.children(),
                file,
            )),
            None => out.push(absent(
                what,
                "upstream block",
                reason_for(plan, cat, "server", in_upstream),
                file,
            )),
        }
    }
    out
}

/// The plan's configuration, parsed as the running one is: nginx.conf with the site file
/// in place of its `include conf.d/*.conf`, and, where the plan includes a file by its
/// path rather than a pattern (`fastcgi_params`, `mime.types`), that file as the host has
/// it (`host_files`: the running configuration's), so a location that includes one
/// compares with the host's own. Patterns (`conf.d/*.conf`, other sites) are not followed.
pub fn planned_conf(
    nginx_conf: &str,
    site_path: &str,
    site: &str,
    host_files: &[conf::ConfFile],
) -> Result<Vec<Directive>, String> {
    let main = conf::parse(nginx_conf).map_err(|e| format!("the plan's nginx.conf, {e}"))?;
    let site = conf::parse(site).map_err(|e| format!("the plan's site file, {e}"))?;
    let mut files = vec![
        (nginx_gen_core::render::NGINX_PATH.to_owned(), main.clone()),
        (site_path.to_owned(), site),
    ];
    // Each file a file of the plan names, and those it names in turn.
    let mut at = 0;
    while at < files.len() {
        let mut named = Vec::new();
        plain_includes(&files[at].1, "/etc/nginx", &mut named);
        for path in named {
            if !files.iter().any(|(p, _)| *p == path)
                && let Some(file) = host_files.iter().find(|(p, _)| *p == path)
            {
                files.push(file.clone());
            }
        }
        at += 1;
    }
    Ok(conf::expand(&main, &files, "/etc/nginx"))
}

/// The paths `include` names without a pattern, anywhere in `ds`.
fn plain_includes(ds: &[Directive], dir: &str, out: &mut Vec<String>) {
    for d in ds {
        match (&d.block, d.args.as_slice()) {
            (Some(children), _) => plain_includes(children, dir, out),
            (None, [path]) if d.name == "include" && !path.contains(['*', '?', '[']) => {
                out.push(conf::resolve(path, dir));
            }
            _ => {}
        }
    }
}

/// Every `error_log` file a configuration names (not `stderr`, `syslog:`, `memory:`),
/// relative ones under `prefix`; Debian's compiled-in log when it names none.
pub fn error_logs(conf: &[Directive], prefix: &str) -> Vec<String> {
    fn walk(ds: &[Directive], prefix: &str, out: &mut Vec<String>) {
        for d in ds {
            if d.name == "error_log"
                && let Some(path) = d.args.first()
                && path != "stderr"
                && !path.starts_with("syslog:")
                && !path.starts_with("memory:")
            {
                let p = conf::resolve(path, prefix);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            walk(d.children(), prefix, out);
        }
    }
    let mut out = Vec::new();
    walk(conf, prefix, &mut out);
    if out.is_empty() {
        out.push("/var/log/nginx/error.log".into());
    }
    out
}

/// The finding for one error-log signal seen `count` times, the last at `last`.
pub fn signal(
    plan: &Plan,
    cat: &Catalogue,
    log: &str,
    signal: &str,
    count: usize,
    last: Option<&str>,
) -> Finding {
    let value = |name: &str| plan.get(name).map(Setting::value).unwrap_or_default();
    let (reason, fix) = match signal {
        "worker_connections are not enough" => (
            reason_for(plan, cat, "worker_connections", |_| true),
            format!(
                "worker_connections {} (events) and nginx -s reload; if it is set already, more clients come than planned: run nginx-gen again with a larger --clients",
                value("worker_connections")
            ),
        ),
        "Too many open files" => (
            reason_for(plan, cat, "worker_rlimit_nofile", |_| true),
            format!(
                "worker_rlimit_nofile {} in nginx.conf and LimitNOFILE={} in {} (nginx-gen apply), then restart nginx",
                value("worker_rlimit_nofile"),
                value("LimitNOFILE"),
                nginx_gen_core::render::SYSTEMD_PATH
            ),
        ),
        "upstream timed out" => (
            "the application behind nginx did not answer within proxy_read_timeout".into(),
            "look at the application's own logs and load; raise proxy_read_timeout only for requests known to be slow".into(),
        ),
        "no live upstreams" => (
            "every server of the upstream was marked failed (max_fails), so nginx answered 502 without trying".into(),
            "start or repair the application the upstream names; nginx retries it after fail_timeout".into(),
        ),
        _ => (
            "nginx could not connect to the application (refused or unreachable)".into(),
            "check that the application listens on the upstream's address (ss -ltnp) and is running".into(),
        ),
    };
    Finding::new(
        "error-log",
        format!("{log}: \"{signal}\""),
        "0".into(),
        match last {
            Some(t) => format!("{count}, last at {t}"),
            None => count.to_string(),
        },
        reason,
        fix,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;
    use nginx_gen_core::render;

    fn plan() -> Plan {
        let inputs = Inputs::from_json(
            // Without the status server: these tests are about the site's servers.
            r#"{"vcpu": 2, "ram": "4G", "server_names": ["a.example"], "layout": "debian", "status_port": 0}"#,
        )
        .unwrap();
        Plan::new(&inputs)
    }

    fn planned(plan: &Plan) -> Vec<Directive> {
        let files = render::files(plan);
        planned_conf(&files[0].contents, &files[1].path, &files[1].contents, &[]).unwrap()
    }

    const FILES: Files = Files {
        main: "/etc/nginx/nginx.conf",
        site: "/etc/nginx/conf.d/a.example.conf",
    };

    /// Debian 12's stock nginx.conf and default site, as `nginx -T` shows them (trimmed).
    const STOCK: &str = "user www-data;\nworker_processes auto;\npid /run/nginx.pid;\n\
        include /etc/nginx/modules-enabled/*.conf;\nevents {\n\tworker_connections 768;\n}\n\
        http {\n\tsendfile on;\n\ttcp_nopush on;\n\ttypes_hash_max_size 2048;\n\
        \tinclude /etc/nginx/mime.types;\n\tdefault_type application/octet-stream;\n\
        \taccess_log /var/log/nginx/access.log;\n\terror_log /var/log/nginx/error.log;\n\
        \tgzip on;\n\tinclude /etc/nginx/conf.d/*.conf;\n\tinclude /etc/nginx/sites-enabled/*;\n\
        \tserver {\n\t\tlisten 80 default_server;\n\t\tlisten [::]:80 default_server;\n\
        \t\troot /var/www/html;\n\t\tserver_name _;\n\t}\n}\n";

    #[test]
    fn the_plan_against_itself_matches() {
        let cat = Catalogue::english();
        // A TLS site has two servers of the same names (HTTP redirect, HTTPS) and two
        // catch-alls: each is found by its names and ports.
        let tls = Plan::new(
            &Inputs::from_json(
                r#"{"vcpu": 2, "ram": "4G", "server_names": ["a.example"], "tls": true, "workload": "proxy"}"#,
            )
            .unwrap(),
        );
        let beside = Plan::new(
            &Inputs::from_json(
                r#"{"server_names": ["a.example"], "existing_default_server": true, "status_port": 0}"#,
            )
            .unwrap(),
        );
        for plan in [plan(), tls, beside.clone()] {
            let p = planned(&plan);
            assert!(config(&plan, cat, &p, &p, &FILES).is_empty());
        }
        let tls = Plan::new(
            &Inputs::from_json(r#"{"server_names": ["a.example"], "tls": true, "status_port": 0}"#)
                .unwrap(),
        );
        let p = planned(&tls);
        let names: Vec<String> = servers(&p).iter().map(|s| describe_server(s)).collect();
        assert_eq!(
            names,
            [
                "server (default_server on 80)",
                "server (default_server on 443)",
                "server a.example",
                "server a.example"
            ]
        );
        let p = planned(&beside);
        assert_eq!(
            describe_server(servers(&p)[0]),
            "server (no server_name, on 80)"
        );
        // The HTTPS server alone missing is named.
        let mut r = p.clone();
        let http = r.iter_mut().find(|d| d.name == "http").unwrap();
        let children = http.block.as_mut().unwrap();
        let last = children.iter().rposition(|d| d.name == "server").unwrap();
        children.remove(last);
        let found = config(&tls, cat, &p, &r, &FILES);
        let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
        assert_eq!(subjects, ["server a.example"], "{found:#?}");
    }

    /// The running configuration of `plan` with `edit` applied to the `http` block's
    /// children.
    fn edited(plan: &Plan, edit: impl FnOnce(&mut Vec<Directive>)) -> Vec<Directive> {
        let mut r = planned(plan);
        let http = r.iter_mut().find(|d| d.name == "http").unwrap();
        edit(http.block.as_mut().unwrap());
        r
    }

    /// The site's server block among `http`'s children, mutably.
    fn site(http: &mut [Directive]) -> &mut Vec<Directive> {
        http.iter_mut()
            .rfind(|d| d.name == "server" && d.children().iter().any(|c| c.name == "server_name"))
            .and_then(|d| d.block.as_mut())
            .unwrap()
    }

    #[test]
    fn locations_and_upstreams_are_compared() {
        let cat = Catalogue::english();
        let plan = Plan::new(
            &Inputs::from_json(
                r#"{"server_names": ["a.example"], "workload": "mixed", "rate_limit": true, "status_port": 0}"#,
            )
            .unwrap(),
        );
        let p = planned(&plan);
        assert!(config(&plan, cat, &p, &p, &FILES).is_empty());
        // A host still running the limits at server level: `/` and `@app` lack them.
        let r = edited(&plan, |http| {
            for location in site(http).iter_mut().filter(|d| d.name == "location") {
                if let Some(children) = location.block.as_mut() {
                    children.retain(|d| d.name != "limit_req");
                }
            }
        });
        let found = config(&plan, cat, &p, &r, &FILES);
        let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
        assert_eq!(
            subjects,
            [
                "server a.example, location /: limit_req",
                "server a.example, location @app: limit_req"
            ],
            "{found:#?}"
        );
        assert_eq!(found[0].found, "(not set)");
        assert!(
            found[0].reason.matches("beyond that, 429").count() == 1,
            "{}",
            found[0].reason
        );
        // A location gone, a nested one changed, the upstream's pool changed.
        let r = edited(&plan, |http| {
            site(http).retain(|d| !(d.name == "location" && d.args == ["@app"]));
            let upstream = http.iter_mut().find(|d| d.name == "upstream").unwrap();
            let keepalive = upstream
                .block
                .as_mut()
                .unwrap()
                .iter_mut()
                .find(|d| d.name == "keepalive")
                .unwrap();
            keepalive.args = vec!["2".into()];
        });
        let found = config(&plan, cat, &p, &r, &FILES);
        let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
        assert_eq!(
            subjects,
            ["upstream app: keepalive", "server a.example, location @app"],
            "{found:#?}"
        );
        assert_eq!(
            found[1].found,
            "no such location in the running configuration"
        );
        let r = edited(&plan, |http| http.retain(|d| d.name != "upstream"));
        let found = config(&plan, cat, &p, &r, &FILES);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].subject, "upstream app");
    }

    #[test]
    fn a_location_modifier_may_touch_its_path() {
        let key = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(ToString::to_string).collect();
            location_key(&args).join(" ")
        };
        assert_eq!(key(&["=/x"]), key(&["=", "/x"]));
        assert_eq!(key(&["~*\\.png$"]), key(&["~*", "\\.png$"]));
        assert_eq!(key(&["^~/.well-known/"]), "^~ /.well-known/");
        assert_eq!(key(&["/"]), "/");
        assert_eq!(key(&["@app"]), "@app");
        assert_eq!(key(&["~"]), "~");
    }

    #[test]
    fn a_file_the_plan_includes_by_path_is_the_hosts() {
        let cat = Catalogue::english();
        let plan = Plan::new(
            &Inputs::from_json(
                r#"{"server_names": ["a.example"], "workload": "php", "status_port": 0}"#,
            )
            .unwrap(),
        );
        let files = render::files(&plan);
        let params = conf::parse(
            "fastcgi_param QUERY_STRING $query_string;\nfastcgi_param REQUEST_METHOD $request_method;\n",
        )
        .unwrap();
        let host = [("/etc/nginx/fastcgi_params".to_owned(), params)];
        let with = planned_conf(
            &files[0].contents,
            &files[1].path,
            &files[1].contents,
            &host,
        )
        .unwrap();
        let without = planned(&plan);
        // The running configuration has the host's fastcgi_params in the PHP location.
        assert!(config(&plan, cat, &with, &with, &FILES).is_empty());
        let found = config(&plan, cat, &without, &with, &FILES);
        let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
        assert_eq!(
            subjects,
            ["server a.example, location ~ [^/]\\.php(?:/|$): fastcgi_param"],
            "without the host's file the plan's three parameters are three of five: {found:#?}"
        );
    }

    #[test]
    fn a_stock_debian_config_differs_where_the_plan_sets_values() {
        let plan = plan();
        let cat = Catalogue::english();
        let stock = conf::parse(STOCK).unwrap();
        let found = config(&plan, cat, &planned(&plan), &stock, &FILES);
        let get = |subject: &str| {
            found
                .iter()
                .find(|f| f.subject == subject)
                .unwrap_or_else(|| panic!("{subject}: {found:#?}"))
        };
        let wc = get("events block: worker_connections");
        assert_eq!((wc.planned.as_str(), wc.found.as_str()), ("4096", "768"));
        assert!(wc.reason.contains("Connection slots"), "{}", wc.reason);
        assert!(wc.fix.contains("worker_connections 4096;"), "{}", wc.fix);
        assert_eq!(get("main context: worker_processes").found, "auto");
        assert_eq!(get("main context: error_log").found, "(not set)");
        assert_eq!(get("http block: gzip_types").found, "(not set)");
        let listen = get("server (default_server on 80): listen");
        assert!(
            listen.planned.contains("deferred backlog=4096"),
            "{}",
            listen.planned
        );
        assert_eq!(listen.found, "80 default_server; [::]:80 default_server");
        assert_eq!(
            get("server a.example").found,
            "no such server block in the running configuration"
        );
        // Equal values and the directives the plan does not set are not findings.
        for same in [
            "main context: user",
            "main context: pid",
            "http block: sendfile",
            "http block: include",
            "main context: include",
        ] {
            assert!(found.iter().all(|f| f.subject != same), "{same}");
        }
        assert!(
            found
                .iter()
                .all(|f| !f.subject.ends_with("server_name") && !f.subject.ends_with(": root"))
        );
    }

    #[test]
    fn an_extra_value_of_a_planned_directive_is_a_difference() {
        let plan = plan();
        let cat = Catalogue::english();
        let p = planned(&plan);
        let mut r = p.clone();
        let http = r.iter_mut().find(|d| d.name == "http").unwrap();
        http.block.as_mut().unwrap().push(Directive {
            name: "gzip".into(),
            args: vec!["off".into()],
            block: None,
        });
        let found = config(&plan, cat, &p, &r, &FILES);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            (found[0].planned.as_str(), found[0].found.as_str()),
            ("on", "off; on")
        );
    }

    #[test]
    fn a_missing_value_of_a_repeated_directive_gets_its_own_reason() {
        let plan = Plan::new(
            &Inputs::from_json(
                r#"{"server_names": ["a.example"], "tls": true, "nginx_version": "1.22.1", "status_port": 0}"#,
            )
            .unwrap(),
        );
        let cat = Catalogue::english();
        let p = planned(&plan);
        let mut r = p.clone();
        let http = r.iter_mut().find(|d| d.name == "http").unwrap();
        http.block
            .as_mut()
            .unwrap()
            .retain(|d| !(d.name == "ssl_conf_command" && d.args[0] == "Ciphersuites"));
        let found = config(&plan, cat, &p, &r, &FILES);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].subject, "http block: ssl_conf_command");
        assert!(
            found[0].reason.starts_with("Mozilla's TLS 1.3 suites"),
            "{}",
            found[0].reason
        );
    }

    #[test]
    fn limits_sysctls_workers_and_backlogs() {
        let plan = plan();
        let cat = Catalogue::english();
        let (master, worker) = planned_limits(&plan);
        let master = master.unwrap();
        assert_eq!(
            master,
            Limits {
                soft: Some(524_288),
                hard: Some(524_288)
            }
        );
        assert_eq!(worker.unwrap().soft, Some(10_240));
        assert!(limits(&plan, cat, "master", 1, Ok(master)).is_none());
        // Floors: more files (or unlimited) meet them, one less soft or hard does not.
        for more in [
            Limits {
                soft: Some(1_048_576),
                hard: Some(1_048_576),
            },
            Limits {
                soft: Some(524_288),
                hard: None,
            },
        ] {
            assert!(
                limits(&plan, cat, "master", 1, Ok(more)).is_none(),
                "{more:?}"
            );
        }
        let f = limits(
            &plan,
            cat,
            "master",
            1,
            Ok(Limits {
                soft: Some(524_288),
                hard: Some(524_287),
            }),
        )
        .unwrap();
        assert_eq!(
            (f.planned.as_str(), f.found.as_str()),
            (
                "soft at least 524288, hard at least 524288",
                "soft 524288, hard 524287"
            )
        );
        assert!(meets(
            Limits {
                soft: None,
                hard: None
            },
            Limits {
                soft: None,
                hard: None
            }
        ));
        assert!(!meets(
            Limits {
                soft: Some(u64::MAX),
                hard: None
            },
            Limits {
                soft: None,
                hard: None
            }
        ));
        assert_eq!(
            show_floor(Limits {
                soft: None,
                hard: Some(1)
            }),
            "soft unlimited, hard at least 1"
        );
        let f = limits(
            &plan,
            cat,
            "master",
            1,
            Ok(Limits {
                soft: Some(1024),
                hard: Some(524_288),
            }),
        )
        .unwrap();
        assert_eq!(f.found, "soft 1024, hard 524288");
        assert!(
            f.fix.contains("LimitNOFILE") || f.fix.contains("nginx.service.d"),
            "{}",
            f.fix
        );
        let inherited = Limits {
            soft: Some(1024),
            hard: Some(524_288),
        };
        let f = limits(&plan, cat, "worker", 2, Ok(inherited)).unwrap();
        assert_eq!(f.planned, "soft at least 10240, hard at least 10240");
        // A worker that inherited a higher limit than worker_rlimit_nofile has enough.
        let higher = Limits {
            soft: Some(524_288),
            hard: Some(524_288),
        };
        assert!(limits(&plan, cat, "worker", 2, Ok(higher)).is_none());
        assert!(
            f.fix.starts_with("worker_rlimit_nofile 10240;"),
            "{}",
            f.fix
        );
        let f = limits(&plan, cat, "worker", 2, Err("cannot read".into())).unwrap();
        assert_eq!(f.found, "unreadable: cannot read");

        // A /proc/sys tree: somaxconn lowered, tcp_fastopen absent, the rest as planned.
        let proc_sys = tempfile::tempdir().unwrap();
        let file = render::files(&plan)[2].contents.clone();
        for (key, value) in sysctl_d::parse(&file) {
            let at = proc_sys.path().join(key.replace('.', "/"));
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            match key.as_str() {
                "net.core.somaxconn" => std::fs::write(at, "128\n").unwrap(),
                "net.ipv4.tcp_fastopen" => {}
                _ => std::fs::write(at, format!("{}\n", value.replace(' ', "\t"))).unwrap(),
            }
        }
        let found = sysctls(&plan, cat, &file, proc_sys.path(), &[]);
        let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
        assert_eq!(subjects, ["net.core.somaxconn", "net.ipv4.tcp_fastopen"]);
        assert_eq!(
            (found[0].planned.as_str(), found[0].found.as_str()),
            ("at least 4096", "128")
        );
        assert!(
            found[0].reason.contains("caps every listen queue"),
            "{}",
            found[0].reason
        );
        assert!(
            found[0]
                .fix
                .starts_with("sysctl -w net.core.somaxconn='4096'")
        );
        assert!(
            found[1].found.starts_with("unreadable: this kernel"),
            "{}",
            found[1].found
        );
        // A file applied after ours: the fix names it.
        let later = sysctl_d::Override {
            key: "net.core.somaxconn".into(),
            ours: "4096".into(),
            file: "/etc/sysctl.d/99-nginx-tuning.conf".into(),
            theirs: "128".into(),
        };
        let found = sysctls(&plan, cat, &file, proc_sys.path(), &[later]);
        assert!(
            found[0]
                .fix
                .starts_with("/etc/sysctl.d/99-nginx-tuning.conf sets net.core.somaxconn = 128"),
            "{}",
            found[0].fix
        );
        assert!(
            found[0].fix.contains("(or make it at least 4096)"),
            "{}",
            found[0].fix
        );
        // Raised above the plan (the guide's 65535), fastopen with more bits: no drift.
        let at = |key: &str| proc_sys.path().join(key.replace('.', "/"));
        std::fs::write(at("net.core.somaxconn"), "65535\n").unwrap();
        std::fs::write(at("net.ipv4.tcp_fastopen"), "515\n").unwrap();
        assert_eq!(sysctls(&plan, cat, &file, proc_sys.path(), &[]), []);
        // fastopen without the server bit, tcp_max_syn_backlog one below: drift.
        std::fs::write(at("net.ipv4.tcp_fastopen"), "1\n").unwrap();
        std::fs::write(at("net.ipv4.tcp_max_syn_backlog"), "4095\n").unwrap();
        let found = sysctls(&plan, cat, &file, proc_sys.path(), &[]);
        let shown: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|f| (f.subject.as_str(), f.planned.as_str(), f.found.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("net.ipv4.tcp_max_syn_backlog", "at least 4096", "4095"),
                ("net.ipv4.tcp_fastopen", "with every bit of 3 set", "1"),
            ]
        );

        assert!(workers(&plan, cat, 2, Some(&(2, "CPU affinity mask".into()))).is_none());
        let f = workers(&plan, cat, 1, Some(&(2, "CPU affinity mask".into()))).unwrap();
        assert_eq!(
            (f.planned.as_str(), f.found.as_str()),
            ("2 (CPU affinity mask)", "1 running")
        );

        let p = planned(&plan);
        let want = planned_backlogs(&servers(&p));
        assert_eq!(
            want.into_iter().collect::<Vec<_>>(),
            [(("0.0.0.0".into(), 80), 4096), (("[::]".into(), 80), 4096)]
        );
        let want = planned_backlogs(&servers(&p));
        let socket = |addr: &str, backlog| Listener {
            addr: addr.into(),
            port: 80,
            backlog,
            pids: vec![],
        };
        assert!(
            backlogs(
                &plan,
                cat,
                &want,
                &[socket("0.0.0.0", 4096), socket("[::]", 4096)],
                Some(4096)
            )
            .is_empty()
        );
        let found = backlogs(&plan, cat, &want, &[socket("0.0.0.0", 4095)], Some(4096));
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].planned.as_str(), found[0].found.as_str()),
            ("4096", "4095")
        );
        assert_eq!(found[1].found, "no listening socket of nginx");
        let capped = backlogs(&plan, cat, &want, &[socket("*", 128)], Some(128));
        assert_eq!(capped.len(), 2);
        assert!(
            capped[0].fix.contains("caps the backlog"),
            "{}",
            capped[0].fix
        );
        // Set before somaxconn was lowered: in effect, but not after a restart.
        let later = backlogs(&plan, cat, &want, &[socket("*", 4096)], Some(128));
        assert_eq!(later.len(), 2);
        assert_eq!(
            later[0].found,
            "4096 now; net.core.somaxconn 128 caps it at the next start of nginx"
        );
    }

    #[test]
    fn error_log_paths_and_signals() {
        let conf = conf::parse("error_log /var/log/a.log warn;\nhttp { error_log logs/b.log; server { error_log stderr; error_log syslog:server=x; } error_log /var/log/a.log; }").unwrap();
        assert_eq!(
            error_logs(&conf, "/usr/share/nginx"),
            ["/var/log/a.log", "/usr/share/nginx/logs/b.log"]
        );
        assert_eq!(
            error_logs(&[], "/usr/share/nginx"),
            ["/var/log/nginx/error.log"]
        );
        let plan = plan();
        let f = signal(
            &plan,
            Catalogue::english(),
            "/var/log/a.log",
            "worker_connections are not enough",
            3,
            Some("2026/12/01 10:00:00"),
        );
        assert_eq!(f.found, "3, last at 2026/12/01 10:00:00");
        assert!(f.fix.starts_with("worker_connections 4096"), "{}", f.fix);
    }
}
