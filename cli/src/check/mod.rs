//! `nginx-gen check`: a read-only audit of the running host against the plan for it.
//!
//! - [`source`]: where the inputs come from (flags, `--input`, the manifest's command,
//!   detection);
//! - [`probe`]: what is read from the host (`/proc`, `ss`, `/proc/sys`, `nginx -T`, the
//!   error logs);
//! - [`conf`]: nginx's syntax, for the running configuration and the plan's files alike;
//! - [`compare`]: each comparison, as findings with the plan's reason and a fix;
//! - [`php`]: the php workload's PHP-FPM pool file and master;
//! - [`report`]: the text and JSON reports.
//!
//! Nothing here writes anything; what cannot be read is a finding, never a panic.

pub mod compare;
pub mod conf;
pub mod php;
pub mod probe;
pub mod report;
pub mod source;

use std::path::Path;

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::{Plan, render};

/// One difference between the plan and the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Which check found it: `nginx`, `limits`, `workers`, `backlog`, `sysctl`, `config`,
    /// `error-log`, `probe`, `php-fpm`.
    pub check: &'static str,
    /// What differs (a process, a key, a directive in its context, a log).
    pub subject: String,
    /// The plan's value.
    pub planned: String,
    /// The host's value, or `unreadable: why`.
    pub found: String,
    /// Why the plan has its value.
    pub reason: String,
    /// What to run or edit.
    pub fix: String,
}

impl Finding {
    /// A difference.
    pub fn new(
        check: &'static str,
        subject: String,
        planned: String,
        found: String,
        reason: String,
        fix: String,
    ) -> Self {
        Self {
            check,
            subject,
            planned,
            found,
            reason,
            fix,
        }
    }

    /// Something that could not be read: a finding too, since nothing says it matches.
    pub fn unreadable(
        check: &'static str,
        subject: String,
        planned: String,
        why: &str,
        reason: String,
    ) -> Self {
        Self::new(
            check,
            subject,
            planned,
            format!("unreadable: {why}"),
            reason,
            "run nginx-gen check as root on the host nginx runs on (in its network namespace)"
                .into(),
        )
    }
}

/// The pid file a configuration names in its main context.
fn pid_file_of(conf: &[conf::Directive]) -> Option<String> {
    conf.iter()
        .find(|d| d.name == "pid" && d.block.is_none())
        .and_then(|d| d.args.first().cloned())
}

/// The master: from the pid file the installed configuration names (under `root`), else
/// `/run/nginx.pid`. Err says why none was found.
fn find_master(root: &Path) -> Result<probe::Process, String> {
    let installed = root.join(render::NGINX_PATH.trim_start_matches('/'));
    let pid_file = std::fs::read_to_string(&installed)
        .ok()
        .and_then(|t| conf::parse(&t).ok())
        .and_then(|c| pid_file_of(&c))
        .unwrap_or_else(|| "/run/nginx.pid".into());
    let text = std::fs::read_to_string(&pid_file)
        .map_err(|e| format!("no nginx running: cannot read the pid file {pid_file}: {e}"))?;
    let pid = probe::parse_pid(&text).ok_or_else(|| {
        if text.trim().is_empty() {
            format!("no nginx running: the pid file {pid_file} is empty")
        } else {
            format!("the pid file {pid_file} holds no pid: {:?}", text.trim())
        }
    })?;
    let process = probe::process(pid)
        .ok_or_else(|| format!("no nginx running: pid {pid} of {pid_file} is gone"))?;
    if !process.title.starts_with("nginx: master process") {
        return Err(format!(
            "pid {pid} of {pid_file} is not an nginx master: {}",
            process.title
        ));
    }
    Ok(process)
}

/// The running configuration: `nginx -T` of the master's binary with the file it was
/// started with, split into files, parsed and its includes expanded. Returns it with the
/// main file's path and every file, parsed.
fn running_conf(
    binary: &str,
    prefix: Option<&str>,
    conf_file: Option<&str>,
) -> Result<(Vec<conf::Directive>, String, Vec<conf::ConfFile>), String> {
    let dump = probe::nginx_t(binary, prefix, conf_file)?;
    let files = conf::split_dump(&dump);
    let Some((main, _)) = files.first() else {
        return Err(format!("{binary} -T printed no configuration file"));
    };
    let main = main.clone();
    let mut parsed = Vec::new();
    for (path, text) in &files {
        let p = conf::parse(text).map_err(|e| format!("{path}, {e}"))?;
        parsed.push((path.clone(), p));
    }
    let dir = Path::new(&main)
        .parent()
        .map_or_else(|| "/".into(), |p| p.to_string_lossy().into_owned());
    Ok((conf::expand(&parsed[0].1, &parsed, &dir), main, parsed))
}

/// A file of the running configuration modified after nginx last loaded it (the newest
/// start of a worker: each reload starts new ones), as a finding: `nginx -T` shows the
/// files, so what runs may be older than what is compared. One second of slack.
fn stale(files: &[conf::ConfFile], loaded: Option<u64>) -> Option<Finding> {
    let loaded = loaded?;
    let (path, at) = files
        .iter()
        .filter_map(|(f, _)| probe::modified_at(f).map(|t| (f, t)))
        .max_by_key(|(_, t)| *t)?;
    (at > loaded + 1).then(|| {
        Finding::new(
            "config",
            "loaded configuration".into(),
            "the files as nginx last loaded them".into(),
            format!(
                "{path} changed {} s after nginx last (re)loaded: the running values may be older than those compared",
                at - loaded
            ),
            "nginx reads its files only at start and reload; nginx -T (what check compares) reads them now".into(),
            "nginx -t && nginx -s reload (systemctl reload nginx)".into(),
        )
    })
}

/// How long one request of [`probe_site`] may take.
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The probes `apply` and `rollback` run after a reload ([`nginx_gen::probe`]), as
/// findings: each literal server name answers over HTTP (and HTTPS when the plan serves
/// TLS), and the catch-all closes requests and refuses handshakes for names no site has.
fn probe_site(plan: &Plan) -> Vec<Finding> {
    use nginx_gen::probe::{self as live, CatchAll};
    let probes = live::probes(plan);
    let mut out = Vec::new();
    let site = "read the error log; nginx -T shows the server blocks that take the name (nginx-gen apply installs the plan's)";
    let failed = |subject: String, planned: &str, found: String, reason: &str, fix: &str| {
        Finding::new(
            "probe",
            subject,
            planned.into(),
            found,
            reason.into(),
            fix.into(),
        )
    };
    let sites = probes.http.iter().map(|p| (p, false));
    for ((addr, host), tls) in sites.chain(probes.https.iter().map(|p| (p, true))) {
        let (scheme, over, answer) = if tls {
            (
                "https",
                " over TLS",
                live::probe_https(*addr, host, PROBE_TIMEOUT),
            )
        } else {
            ("http", "", live::probe_http(*addr, host, PROBE_TIMEOUT))
        };
        if let Err(e) = answer {
            out.push(failed(
                format!("{scheme}://{host}/ on {addr}"),
                &format!("an HTTP status line{over}"),
                e,
                &format!(
                    "the site answers {} (apply and rollback probe it after every reload)",
                    if tls {
                        "over HTTPS with its name as SNI"
                    } else {
                        "over plain HTTP"
                    }
                ),
                site,
            ));
        }
    }
    if let CatchAll::Probe { http, tls } = probes.catch_all
        && let Err(e) = live::probe_catch_all(http, tls, PROBE_TIMEOUT)
    {
        out.push(failed(
            format!("catch-all on {http}"),
            "no answer for a name no site has (444, handshake refused)",
            e,
            "the catch-all default server keeps unknown host names (scanners) away from the site",
            "another default_server on that port takes the names no site has: install the plan's site file, whose catch-all is the default server (nginx-gen apply; with --existing-default-server the existing one is kept and not probed)",
        ));
    }
    out
}

/// Runs every check of the host (under `root` for the installed files) against `plan`.
pub fn run(plan: &Plan, cat: &Catalogue, root: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let files = render::files_in(plan, cat);
    let site_path = plan.site_path();
    let planned_with = |host_files: &[conf::ConfFile]| {
        compare::planned_conf(
            &files[0].contents,
            &site_path,
            &files[1].contents,
            host_files,
        )
    };
    let planned = match planned_with(&[]) {
        Ok(p) => p,
        Err(e) => {
            // The plan's own files always parse; this would be a bug, reported, not a panic.
            findings.push(Finding::unreadable(
                "config",
                "the plan's files".into(),
                "parsable".into(),
                &e,
                "nginx-gen renders them".into(),
            ));
            Vec::new()
        }
    };

    let master = find_master(root);
    let mut binary = "nginx".to_owned();
    let mut conf_file = (root != Path::new("/")).then(|| {
        root.join(render::NGINX_PATH.trim_start_matches('/'))
            .to_string_lossy()
            .into_owned()
    });
    let mut prefix = None;
    let mut nginx_pids = Vec::new();
    let mut loaded = None;
    match &master {
        Err(why) => findings.push(Finding::new(
            "nginx",
            "nginx master".into(),
            "running".into(),
            why.clone(),
            "every other check but the kernel's settings and the configuration on disk reads the running nginx".into(),
            "start nginx (systemctl start nginx, or nginx), then run check again".into(),
        )),
        Ok(m) => {
            if let Some(exe) = probe::exe(m.pid) {
                binary = exe;
            }
            prefix = probe::option_of_title(&m.title, "-p");
            if let Some(c) = probe::conf_of_title(&m.title) {
                conf_file = Some(c);
            } else if root == Path::new("/") {
                conf_file = None;
            }
            nginx_pids.push(m.pid);
            findings.extend(compare::limits(plan, cat, "master", m.pid, probe::limits(m.pid)));
            let children = probe::children(m.pid);
            let workers: Vec<&probe::Process> = children.iter().filter(|p| p.is_worker()).collect();
            for w in &workers {
                findings.extend(compare::limits(plan, cat, "worker", w.pid, probe::limits(w.pid)));
            }
            nginx_pids.extend(children.iter().map(|p| p.pid));
            loaded = workers
                .iter()
                .filter_map(|w| probe::started_at(w.pid))
                .max()
                .or_else(|| probe::started_at(m.pid));
            findings.extend(compare::workers(
                plan,
                cat,
                workers.len(),
                probe::cpus(m.pid).as_ref(),
            ));
        }
    }

    let somaxconn = probe::sysctl("net.core.somaxconn")
        .ok()
        .and_then(|v| v.parse().ok());
    if master.is_ok() {
        let want = compare::planned_backlogs(&compare::servers(&planned));
        match probe::listeners() {
            Ok(sockets) => {
                let seen = sockets.iter().any(|s| !s.pids.is_empty());
                let ours: Vec<probe::Listener> = sockets
                    .into_iter()
                    .filter(|s| !seen || s.pids.iter().any(|p| nginx_pids.contains(p)))
                    .collect();
                findings.extend(compare::backlogs(plan, cat, &want, &ours, somaxconn));
            }
            Err(e) => findings.push(Finding::unreadable(
                "backlog",
                "listening sockets".into(),
                "the plan's backlog= on each".into(),
                &e,
                compare::reason_for(plan, cat, "listen", |_| true),
            )),
        }
    }
    // Files applied after ours win at every boot: the fixes name them.
    let overrides = nginx_gen::sysctl_d::overrides(root, render::SYSCTL_PATH, &files[2].contents)
        .unwrap_or_default();
    findings.extend(compare::sysctls(
        plan,
        cat,
        &files[2].contents,
        Path::new("/proc/sys"),
        &overrides,
    ));

    // Relative error logs are under the prefix: -p, else the compiled-in one.
    let log_prefix = prefix.clone().unwrap_or_else(|| {
        nginx_gen::host::nginx_v_output(&binary)
            .as_deref()
            .and_then(probe::parse_prefix)
            .unwrap_or_else(|| "/usr/share/nginx".into())
    });
    match running_conf(&binary, prefix.as_deref(), conf_file.as_deref()) {
        Ok((running, main, host_files)) => {
            findings.extend(stale(&host_files, loaded));
            // The files the plan includes by path (fastcgi_params) as this host has them.
            let planned = planned_with(&host_files).unwrap_or(planned);
            let names = compare::Files {
                main: &main,
                site: &site_path,
            };
            findings.extend(compare::config(plan, cat, &planned, &running, &names));
            for log in compare::error_logs(&running, &log_prefix) {
                match probe::tail(Path::new(&log)) {
                    Ok(text) => {
                        for signal in probe::SIGNALS {
                            let (count, last) = probe::count_signal(&text, signal);
                            if count > 0 {
                                findings.push(compare::signal(
                                    plan,
                                    cat,
                                    &log,
                                    signal,
                                    count,
                                    last.as_deref(),
                                ));
                            }
                        }
                    }
                    Err(e) => findings.push(Finding::unreadable(
                        "error-log",
                        log.clone(),
                        "readable, without the signals".into(),
                        &e,
                        "nginx reports exhausted connections, file limits and upstream failures there".into(),
                    )),
                }
            }
        }
        Err(e) => findings.push(Finding::new(
            "config",
            "the running configuration".into(),
            "the plan's nginx.conf and site file".into(),
            format!("unreadable: {e}"),
            "nginx -T shows what nginx runs with".into(),
            "run nginx -t: a configuration on disk that does not load is also what the next reload would fail on; as another user, run check as root".into(),
        )),
    }
    // The php workload's PHP-FPM: its pool file, its master, the pool it loaded.
    if plan.tuning.php.is_some() {
        let pool_path =
            nginx_gen_core::render::path_of(plan, nginx_gen_core::plan::FileKind::PhpPool);
        if let Some(pool) = files.iter().find(|f| f.path == pool_path) {
            findings.extend(php::run(plan, cat, root, &pool.contents));
        }
    }
    // Last, after the error logs were read: a probe's own request may add a line there (a
    // proxy whose application is down), for the next run to count.
    if master.is_ok() {
        findings.extend(probe_site(plan));
    }
    findings
}
