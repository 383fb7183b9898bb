//! The service steps after the files are in place: `sysctl --system`,
//! `systemctl daemon-reload`, reload (or restart, when the systemd drop-in's settings
//! changed: a `LimitNOFILE` only takes effect on restart) and the probes, decided from what
//! the changed files set, their comments aside ([`decide`]). Each step is an [`Step`]
//! run by a [`Service`], so the booted-container tests can drive a real systemd with the
//! same list; [`Host`] runs them on this machine and skips, with a note, what it cannot do
//! here (another `--install-root`, no systemd as PID 1, a read-only `/proc/sys`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use nginx_gen_core::render::{SYSCTL_PATH, SYSTEMD_PATH};

pub use nginx_gen::probe::{CatchAll, Probes, probes};
use nginx_gen::probe::{probe_catch_all, probe_http, probe_https};

use super::php::Fpm;

/// One step after the install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `sysctl --system`: the sysctl.d file's settings changed.
    Sysctl,
    /// `systemctl daemon-reload`: the drop-in changed (its bytes).
    DaemonReload,
    /// `systemctl reload nginx`: nginx's files (or the sysctl settings) changed, not the
    /// drop-in's settings. Done when the old workers have retired.
    Reload,
    /// `systemctl restart nginx`: the drop-in's settings changed (its limits apply on
    /// restart only).
    Restart,
    /// `systemctl start nginx`: never a step of a run; a restore's last resort, when nginx
    /// is not active after it.
    Start,
    /// The service is active after the reload or restart.
    ProbeActive,
    /// Each server name answers over plain HTTP (a status line, whatever the code: the
    /// catch-all closes the connection without one).
    ProbeHttp,
    /// Each server name answers over HTTPS (SNI and `Host`, the certificate not checked:
    /// a liveness probe), when the plan serves TLS (not while bootstrapping).
    ProbeHttps,
    /// The catch-all default server closes a request for a name no site has, without a
    /// status line (its 444), and rejects the TLS handshake (`ssl_reject_handshake`).
    ProbeCatchAll,
    /// `systemctl reload` of PHP-FPM (the php workload's pool changed), after nginx's
    /// reload and probes passed; done when the master's old children are gone and a new
    /// one runs. PHP-FPM not running: `systemctl start`.
    PhpReload,
    /// PHP-FPM is active after its reload and its pool's `listen` accepts a connection.
    PhpProbe,
}

impl Step {
    /// The step's name in messages and in `NGINX_GEN_TEST_FAIL_STEP`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sysctl => "sysctl",
            Self::DaemonReload => "daemon-reload",
            Self::Reload => "reload",
            Self::Restart => "restart",
            Self::Start => "start",
            Self::ProbeActive => "probe",
            Self::ProbeHttp => "probe-http",
            Self::ProbeHttps => "probe-https",
            Self::ProbeCatchAll => "probe-catch-all",
            Self::PhpReload => "php-fpm-reload",
            Self::PhpProbe => "php-fpm-probe",
        }
    }

    /// Whether the step makes nginx load the files (so a rollback must load the old ones).
    pub const fn loads_nginx(self) -> bool {
        matches!(self, Self::Reload | Self::Restart | Self::Start)
    }
}

/// One file a run changes, as the service steps see it: its install path and both
/// versions (`None`: absent).
#[derive(Debug, Clone, Copy)]
pub struct Changed<'a> {
    /// Install path.
    pub path: &'a str,
    /// The bytes installed before the run.
    pub old: Option<&'a [u8]>,
    /// The bytes the run installs.
    pub new: Option<&'a [u8]>,
}

/// What a file of `key = value` or `Key=value` lines sets: its lines, trimmed, without
/// blank lines and comments (`#` or `;` first, as systemd and sysctl.d read them). Two
/// files with the same settings differ at most in their comments (nginx-gen's header
/// names the whole command, the server name included).
pub fn settings(bytes: Option<&[u8]>) -> Vec<String> {
    let Some(bytes) = bytes else {
        return Vec::new();
    };
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(['#', ';']))
        .map(str::to_owned)
        .collect()
}

/// The service steps a run calls for, and why some were left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decision {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// What the report says about a file whose bytes changed but whose settings did not.
    pub notes: Vec<String>,
}

/// The steps the changed files call for, decided from what they **set**, not their bytes:
///
/// - the sysctl.d file's settings changed: `sysctl --system` (and a reload);
/// - the drop-in's settings changed (created and removed included): `daemon-reload` and a
///   **restart** (its `LimitNOFILE` applies to a new process only); only its bytes (its
///   comments): `daemon-reload`, so systemd has the file on disk loaded, but no restart;
/// - any file under `/etc/nginx/` changed, by a byte: a reload;
/// - the PHP-FPM pool's settings changed: PHP-FPM's reload and probe, **last**, after
///   nginx's reload and probes passed (docs/lifecycle.md, "PHP-FPM"); only its comments:
///   nothing.
///
/// The probes follow a reload or restart.
pub fn decide(changed: &[Changed]) -> Decision {
    let file = |path: &str| changed.iter().find(|c| c.path == path);
    let differs = |c: &Changed| settings(c.old) != settings(c.new);
    let sysctl_file = file(SYSCTL_PATH);
    let unit_file = file(SYSTEMD_PATH);
    let sysctl = sysctl_file.is_some_and(differs);
    let unit = unit_file.is_some_and(differs);
    let nginx = changed.iter().any(|c| c.path.starts_with("/etc/nginx/"));
    let mut out = Decision::default();
    if sysctl {
        out.steps.push(Step::Sysctl);
    }
    if unit_file.is_some() {
        out.steps.push(Step::DaemonReload);
    }
    if unit {
        out.steps.push(Step::Restart);
    } else if nginx || sysctl {
        out.steps.push(Step::Reload);
    }
    if sysctl_file.is_some() && !sysctl {
        out.notes.push(format!(
            "the sysctl file's settings are unchanged (only its comments differ): no sysctl --system for {SYSCTL_PATH}"
        ));
    }
    if unit_file.is_some() && !unit {
        let then = if out.steps.contains(&Step::Reload) {
            "reload, no restart"
        } else {
            "no restart"
        };
        out.notes.push(format!(
            "the drop-in's settings are unchanged (only its comments differ): daemon-reload for its new bytes, {then}"
        ));
    }
    if out.steps.iter().any(|s| s.loads_nginx()) {
        out.steps.extend([
            Step::ProbeActive,
            Step::ProbeHttp,
            Step::ProbeHttps,
            Step::ProbeCatchAll,
        ]);
    }
    for pool in changed.iter().filter(|c| super::php::is_pool(c.path)) {
        if differs(pool) {
            if !out.steps.contains(&Step::PhpReload) {
                out.steps.extend([Step::PhpReload, Step::PhpProbe]);
            }
        } else {
            out.notes.push(format!(
                "the PHP-FPM pool's settings are unchanged (only its comments differ): PHP-FPM is not reloaded for {}",
                pool.path
            ));
        }
    }
    out
}

/// A probe of one name at one address, returning the status line.
type ProbeFn = fn(SocketAddr, &str, Duration) -> Result<String, String>;

/// How long a probe waits for an answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// What a step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Done, with what was done.
    Done(String),
    /// Not applicable here, with why and what to do instead.
    Skipped(String),
}

/// Runs the service steps.
pub trait Service {
    /// Runs `step`; `Err` is a failure that rolls the install back.
    fn run(&mut self, step: Step) -> Result<Outcome, String>;
}

/// This machine.
#[derive(Debug)]
pub struct Host {
    /// `--install-root` is `/`.
    this_root: bool,
    /// systemd is PID 1 (`/run/systemd/system` exists, as `sd_booted` checks).
    systemd: bool,
    /// `/proc/sys` can be written.
    proc_sys_writable: bool,
    /// `--install-root`, for notes.
    root: PathBuf,
    /// What the probes ask, and where.
    probes: Probes,
    /// The PHP-FPM whose pool the run changes, if any.
    php: Option<Fpm>,
}

impl Host {
    /// Probes what this machine can do for `root`.
    pub fn detect(root: &Path) -> Self {
        let this_root = root.canonicalize().is_ok_and(|r| r == Path::new("/"));
        Self {
            this_root,
            systemd: Path::new("/run/systemd/system").is_dir(),
            proc_sys_writable: std::fs::OpenOptions::new()
                .write(true)
                .open("/proc/sys/net/core/somaxconn")
                .is_ok(),
            root: root.to_owned(),
            probes: Probes::default(),
            php: None,
        }
    }

    /// The PHP-FPM the php steps reload and probe.
    #[must_use]
    pub fn with_php(mut self, php: Option<Fpm>) -> Self {
        self.php = php;
        self
    }

    /// What to probe after a reload or restart ([`probes`]).
    #[must_use]
    pub fn with_probes(mut self, probes: Probes) -> Self {
        self.probes = probes;
        self
    }
}

impl Host {
    /// After `sysctl --system`: the keys of our sysctl.d file whose running value in
    /// `/proc/sys` is another (a file applied later, or a key the namespace keeps), as a
    /// note; empty when all match.
    fn running_differs(&self) -> String {
        let ours = std::fs::read_to_string(self.root.join(SYSCTL_PATH.trim_start_matches('/')))
            .map(|t| nginx_gen::sysctl_d::parse(&t))
            .unwrap_or_default();
        let differ = nginx_gen::sysctl_d::differences(Path::new("/proc/sys"), &ours);
        if differ.is_empty() {
            return String::new();
        }
        let keys: Vec<String> = differ
            .iter()
            .map(|d| format!("{} is {} (ours: {})", d.key, d.actual, d.ours))
            .collect();
        format!(
            "; warning: the running values differ from {SYSCTL_PATH}: {} (a file applied after it, or a key this environment keeps)",
            keys.join(", ")
        )
    }
}

fn run_command(program: &str, args: &[&str]) -> Result<String, String> {
    let line = format!("{program} {}", args.join(" "));
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {line}: {e}"))?;
    if out.status.success() {
        Ok(line)
    } else {
        Err(format!(
            "{line} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// How long a reload may take to replace nginx's workers.
const RELOAD_TIMEOUT: Duration = Duration::from_secs(30);

/// The parent PID in a `/proc/PID/stat` line (the field after the state, which follows the
/// command's closing parenthesis: the command may hold spaces and parentheses).
fn ppid_of_stat(stat: &str) -> Option<u32> {
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Whether a process title (`/proc/PID/cmdline`) is one of nginx's workers that accepts
/// connections: `nginx: worker process`, not `… is shutting down`.
fn accepting_worker(cmdline: &[u8]) -> bool {
    let title = String::from_utf8_lossy(cmdline);
    title.contains("worker process") && !title.contains("shutting down")
}

/// The children of `master` that are accepting workers.
fn workers_of(master: u32) -> Vec<u32> {
    children_of(master, accepting_worker)
}

/// The children of `master` whose command line (`/proc/PID/cmdline`) passes `keep`, in
/// order.
fn children_of(master: u32, keep: fn(&[u8]) -> bool) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out: Vec<u32> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| ppid_of_stat(&s))
                == Some(master)
        })
        .filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| keep(&c)))
        .collect();
    out.sort_unstable();
    out
}

/// nginx's master (systemd's `MainPID`) and its accepting workers; `None` without one.
fn master_and_workers() -> Option<(u32, Vec<u32>)> {
    let out = Command::new("systemctl")
        .args(["show", "-p", "MainPID", "--value", "nginx"])
        .output()
        .ok()?;
    let master: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    (master != 0).then(|| (master, workers_of(master)))
}

/// Waits until none of the `old` workers of `master` accepts connections any more and a
/// new one does: the reload took effect. An error when it does not within `timeout` (the
/// master kept its workers: it refused the new files, e.g. a listen address it cannot
/// bind).
fn wait_for_new_workers(master: u32, old: &[u32], timeout: Duration) -> Result<Duration, String> {
    let start = std::time::Instant::now();
    loop {
        let now = workers_of(master);
        let stale: Vec<&u32> = old.iter().filter(|p| now.contains(p)).collect();
        if stale.is_empty() && now.iter().any(|p| !old.contains(p)) {
            return Ok(start.elapsed());
        }
        if !Path::new(&format!("/proc/{master}")).exists() {
            return Err(format!(
                "nginx's master {master} exited during the reload (journalctl -u nginx)"
            ));
        }
        if start.elapsed() > timeout {
            return Err(format!(
                "systemctl reload nginx returned, but after {} s nginx's master {master} still has its old workers {stale:?} and no new one: it did not take the new files (journalctl -u nginx, /var/log/nginx/error.log)",
                timeout.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// PHP-FPM's master (systemd's `MainPID` of `unit`) and its children; `None` without one.
fn fpm_master_and_children(unit: &str) -> Option<(u32, Vec<u32>)> {
    let out = Command::new("systemctl")
        .args(["show", "-p", "MainPID", "--value", unit])
        .output()
        .ok()?;
    let master: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    (master != 0).then(|| (master, fpm_children(master)))
}

/// The pool children of PHP-FPM's `master` (`php-fpm: pool NAME`).
fn fpm_children(master: u32) -> Vec<u32> {
    children_of(master, |c| {
        String::from_utf8_lossy(c).starts_with("php-fpm: pool")
    })
}

/// How long PHP-FPM's master must stay up after its old children are gone when no new one
/// shows (a pool of `pm = ondemand` keeps none idle).
const ONDEMAND_SETTLE: Duration = Duration::from_secs(3);

/// `systemctl reload` of PHP-FPM (its unit's `kill -USR2`: the master re-executes itself
/// with the files on disk, keeping its pid and its listening sockets), done when none of
/// the old children is left and a new one runs: the master took the new pool (or, with no
/// new child, once the master stayed up [`ONDEMAND_SETTLE`] after). The master gone, or
/// its old children still there after [`RELOAD_TIMEOUT`]: a failure. Not running:
/// `systemctl start`.
fn php_reload(fpm: &Fpm) -> Result<Outcome, String> {
    let unit = fpm.name.as_str();
    let Some((master, old)) = fpm_master_and_children(unit) else {
        return run_command("systemctl", &["start", unit]).map(|line| {
            Outcome::Done(format!(
                "{line} ({unit} was not running: started with the pool)"
            ))
        });
    };
    let line = run_command("systemctl", &["reload", unit])?;
    let start = std::time::Instant::now();
    let mut gone_at = None;
    loop {
        std::thread::sleep(Duration::from_millis(50));
        // Not its title: the master re-executes itself, and is titled again after.
        let alive = std::fs::read_to_string(format!("/proc/{master}/stat")).is_ok_and(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
        });
        if !alive {
            return Err(format!(
                "{line}: PHP-FPM's master {master} exited during the reload (journalctl -u {unit}, /var/log/{unit}.log)"
            ));
        }
        let now = fpm_children(master);
        let stale: Vec<&u32> = old.iter().filter(|p| now.contains(p)).collect();
        let fresh = now.iter().any(|p| !old.contains(p));
        if stale.is_empty() {
            // A pool without idle children (pm = ondemand) has none to show: the old ones
            // gone and the master alive for a while.
            let since = *gone_at.get_or_insert_with(std::time::Instant::now);
            if fresh || since.elapsed() >= ONDEMAND_SETTLE {
                return Ok(Outcome::Done(if fresh {
                    format!(
                        "{line} (new children in {} ms, the old ones gone)",
                        start.elapsed().as_millis()
                    )
                } else {
                    format!(
                        "{line} (the old children gone, the master running {} s later; no idle children to show: pm = ondemand?)",
                        ONDEMAND_SETTLE.as_secs()
                    )
                }));
            }
        }
        if start.elapsed() > RELOAD_TIMEOUT {
            return Err(format!(
                "systemctl reload {unit} returned, but after {} s PHP-FPM's master {master} still has its old children {stale:?} or no new one: it did not take the pool (journalctl -u {unit}, /var/log/{unit}.log)",
                RELOAD_TIMEOUT.as_secs()
            ));
        }
    }
}

/// PHP-FPM active (`systemctl is-active`) and its pool's `listen` (from the pool file
/// installed under `root`) accepting a connection.
fn php_probe(fpm: &Fpm, root: &Path) -> Result<Outcome, String> {
    let unit = fpm.name.as_str();
    let active = run_command("systemctl", &["is-active", "--quiet", unit])?;
    let pool = root.join(fpm.pool.trim_start_matches('/'));
    let text = std::fs::read_to_string(&pool)
        .map_err(|e| format!("cannot read {}: {e}", pool.display()))?;
    let Some(listen) = super::php::listen_of(&text) else {
        return Ok(Outcome::Done(format!("{active}; the pool names no listen")));
    };
    connect_listen(&listen, PROBE_TIMEOUT)?;
    Ok(Outcome::Done(format!(
        "{active}; {listen} accepts connections"
    )))
}

/// Connects to a PHP-FPM `listen`: a socket path, `ADDR:PORT` or `PORT` (all addresses).
fn connect_listen(listen: &str, timeout: Duration) -> Result<(), String> {
    if listen.starts_with('/') {
        return std::os::unix::net::UnixStream::connect(listen)
            .map(drop)
            .map_err(|e| format!("PHP-FPM's socket {listen} refuses connections: {e}"));
    }
    let addr = if listen.bytes().all(|b| b.is_ascii_digit()) {
        format!("127.0.0.1:{listen}")
    } else {
        listen.to_owned()
    };
    let addr: SocketAddr = addr.parse().map_err(|e| {
        format!("PHP-FPM's listen {listen} is not an address nginx-gen can probe: {e}")
    })?;
    std::net::TcpStream::connect_timeout(&addr, timeout)
        .map(drop)
        .map_err(|e| format!("PHP-FPM's listen {listen} refuses connections: {e}"))
}

/// The keys of a failed `sysctl --system` when every error is one the environment causes
/// (a read-only key, permission denied, a key this kernel or namespace does not have);
/// `None` when any other error is among them.
pub fn keys_the_environment_keeps(stderr: &str) -> Option<Vec<String>> {
    let mut keys = Vec::new();
    for line in stderr.lines().filter(|l| l.contains("sysctl: ")) {
        let line = &line[line.find("sysctl: ")? + "sysctl: ".len()..];
        let environmental = line.contains("Read-only file system")
            || line.starts_with("permission denied on key")
            || (line.starts_with("cannot stat /proc/sys/")
                && line.contains("No such file or directory"));
        if !environmental {
            return None;
        }
        let key = if let Some(rest) = line.strip_prefix("cannot stat /proc/sys/") {
            rest.split(':').next().unwrap_or_default().replace('/', ".")
        } else {
            line.split(['"', '\''])
                .nth(1)
                .unwrap_or_default()
                .to_owned()
        };
        if !key.is_empty() && !keys.contains(&key) {
            keys.push(key);
        }
    }
    (!keys.is_empty()).then_some(keys)
}

impl Service for Host {
    fn run(&mut self, step: Step) -> Result<Outcome, String> {
        if !self.this_root {
            return Ok(Outcome::Skipped(format!(
                "--install-root {} is not this host's root: its services are not this tree's",
                self.root.display()
            )));
        }
        match step {
            Step::Sysctl if !self.proc_sys_writable => Ok(Outcome::Skipped(format!(
                "/proc/sys is read-only here (a container?): {SYSCTL_PATH} takes effect where the kernel's settings can be written (the host's boot, or sysctl --system there)"
            ))),
            Step::Sysctl => match run_command("sysctl", &["--system"]) {
                Ok(line) => Ok(Outcome::Done(format!("{line}{}", self.running_differs()))),
                Err(e) => match keys_the_environment_keeps(&e) {
                    Some(keys) => Ok(Outcome::Skipped(format!(
                        "sysctl --system could not set {} here (read-only or absent in this environment); the other keys are set",
                        keys.join(", ")
                    ))),
                    None => Err(e),
                },
            },
            Step::PhpReload | Step::PhpProbe if !self.systemd => Ok(Outcome::Skipped(format!(
                "systemd is not PID 1 here: reload PHP-FPM by hand ({program} -t, then its master's pid file to kill -USR2, or its init script)",
                program = self.php.as_ref().map_or("php-fpm", |f| f.program.as_str())
            ))),
            Step::PhpReload | Step::PhpProbe => {
                let Some(fpm) = self.php.clone() else {
                    return Err("no PHP-FPM is known for the pool file (a bug: the run names none)".into());
                };
                if step == Step::PhpReload {
                    php_reload(&fpm)
                } else {
                    php_probe(&fpm, &self.root)
                }
            }
            _ if !self.systemd => Ok(Outcome::Skipped(format!(
                "systemd is not PID 1 here: {} by hand (nginx -s reload, or a restart for {SYSTEMD_PATH})",
                step.name()
            ))),
            Step::DaemonReload => run_command("systemctl", &["daemon-reload"]).map(Outcome::Done),
            Step::Reload => {
                // `systemctl reload` returns once the master has the signal; it starts new
                // workers and retires the old ones after. Until then the old workers still
                // accept connections: the probes would ask the previous files.
                let before = master_and_workers();
                let line = run_command("systemctl", &["reload", "nginx"])?;
                match before {
                    Some((master, old)) if !old.is_empty() => {
                        let took = wait_for_new_workers(master, &old, RELOAD_TIMEOUT)?;
                        Ok(Outcome::Done(format!(
                            "{line} (new workers in {} ms, the old ones retired)",
                            took.as_millis()
                        )))
                    }
                    _ => Ok(Outcome::Done(line)),
                }
            }
            Step::Restart => run_command("systemctl", &["restart", "nginx"]).map(|line| {
                Outcome::Done(format!(
                    "{line} (a restart, not a reload: the drop-in's limits apply to a new process only)"
                ))
            }),
            Step::Start => run_command("systemctl", &["start", "nginx"]).map(Outcome::Done),
            Step::ProbeActive => {
                run_command("systemctl", &["is-active", "--quiet", "nginx"]).map(Outcome::Done)
            }
            Step::ProbeHttp | Step::ProbeHttps => {
                let (list, probe): (_, ProbeFn) =
                    if step == Step::ProbeHttp {
                        (&self.probes.http, probe_http)
                    } else {
                        (&self.probes.https, probe_https)
                    };
                let mut answers = Vec::new();
                for (addr, host) in list {
                    let line = probe(*addr, host, PROBE_TIMEOUT)?;
                    answers.push(format!("{host} on {addr}: {line}"));
                }
                if answers.is_empty() {
                    return Ok(Outcome::Skipped(if step == Step::ProbeHttp {
                        "no literal server name to probe (wildcards and regexes are not)".into()
                    } else {
                        "no HTTPS server to probe (no TLS, or bootstrapping)".into()
                    }));
                }
                Ok(Outcome::Done(answers.join("; ")))
            }
            Step::ProbeCatchAll => match &self.probes.catch_all {
                CatchAll::Absent => Ok(Outcome::Skipped(
                    "no catch-all server (the site takes every name)".into(),
                )),
                CatchAll::Existing => Ok(Outcome::Skipped(
                    "an existing default server is kept: it, not nginx-gen's catch-all, answers names no site has".into(),
                )),
                CatchAll::Probe { http, tls } => {
                    probe_catch_all(*http, *tls, PROBE_TIMEOUT).map(Outcome::Done)
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Changed, Decision, Host, Outcome, Service, Step, decide, settings};
    use nginx_gen_core::render::{NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH};

    const PROBES: [Step; 4] = [
        Step::ProbeActive,
        Step::ProbeHttp,
        Step::ProbeHttps,
        Step::ProbeCatchAll,
    ];

    /// Each file of `paths` changed from `old` to `new` bytes.
    fn changed<'a>(paths: &[&'a str], old: &'a [u8], new: &'a [u8]) -> Vec<Changed<'a>> {
        paths
            .iter()
            .map(|&path| Changed {
                path,
                old: Some(old),
                new: Some(new),
            })
            .collect()
    }

    fn with_probes(steps: &[Step]) -> Vec<Step> {
        steps.iter().chain(&PROBES).copied().collect()
    }

    #[test]
    fn the_steps_follow_the_changed_settings() {
        assert_eq!(decide(&[]), Decision::default());
        let (a, b) = (&b"# a\nx = 1\n"[..], &b"# b\n\nx = 2\n"[..]);
        assert_eq!(
            decide(&changed(&[NGINX_PATH], a, b)).steps,
            with_probes(&[Step::Reload])
        );
        let all = decide(&changed(&[NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH], a, b));
        assert_eq!(
            all.steps,
            with_probes(&[Step::Sysctl, Step::DaemonReload, Step::Restart])
        );
        assert!(all.notes.is_empty(), "{:?}", all.notes);
        // The sysctl file alone: sysctl --system, then a reload.
        assert_eq!(
            decide(&changed(&[SYSCTL_PATH], a, b)).steps,
            with_probes(&[Step::Sysctl, Step::Reload])
        );
        // A drop-in created or removed: its settings changed.
        for (old, new) in [(None, Some(a)), (Some(a), None)] {
            let d = decide(&[Changed {
                path: SYSTEMD_PATH,
                old,
                new,
            }]);
            assert_eq!(
                d.steps,
                with_probes(&[Step::DaemonReload, Step::Restart]),
                "{old:?} -> {new:?}"
            );
        }
    }

    #[test]
    fn comments_and_blank_lines_are_not_settings() {
        let text =
            b"# header\n; also a comment\n\n[Service]\n  # indented\nLimitNOFILE=524288   \n";
        assert_eq!(settings(Some(text)), ["[Service]", "LimitNOFILE=524288"]);
        assert_eq!(settings(None), Vec::<String>::new());
        // Only the comments differ: the drop-in is daemon-reloaded, nginx reloaded, not
        // restarted; the sysctl file is not applied again.
        let (a, b) = (
            &b"# nginx-gen --server-name a.example\n[Service]\nLimitNOFILE=524288\n"[..],
            &b"# nginx-gen --server-name b.example\n\n[Service]\nLimitNOFILE=524288\n"[..],
        );
        let d = decide(&changed(&[NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH], a, b));
        assert_eq!(d.steps, with_probes(&[Step::DaemonReload, Step::Reload]));
        assert_eq!(d.notes.len(), 2, "{:?}", d.notes);
        assert!(
            d.notes[0].contains("sysctl file's settings are unchanged")
                && d.notes[0].contains("no sysctl --system"),
            "{:?}",
            d.notes
        );
        assert!(
            d.notes[1].contains("drop-in's settings are unchanged")
                && d.notes[1].contains("reload, no restart"),
            "{:?}",
            d.notes
        );
        // The drop-in's comments alone: systemd reads it again, nginx is left alone.
        let d = decide(&changed(&[SYSTEMD_PATH], a, b));
        assert_eq!(d.steps, [Step::DaemonReload]);
        assert!(d.notes[0].ends_with("no restart"), "{:?}", d.notes);
    }

    /// What apply renders for two server names differs in every file's header (the
    /// command), but neither the drop-in's nor the sysctl file's settings (finding H3).
    #[test]
    fn another_server_name_reloads_and_neither_restarts_nor_reapplies_sysctls() {
        let render = |name: &str| {
            let plan = nginx_gen_core::plan_from_json(&format!(
                r#"{{"vcpu": 2, "ram": "2G", "server_names": ["{name}"]}}"#
            ))
            .unwrap();
            nginx_gen_core::render::files(&plan)
        };
        let (a, b) = (render("a.example"), render("b.example"));
        let mut changes = Vec::new();
        for path in [NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH] {
            let old = a.iter().find(|f| f.path == path).unwrap();
            let new = b.iter().find(|f| f.path == path).unwrap();
            assert_ne!(
                old.contents, new.contents,
                "{path}: the header names the command"
            );
            changes.push(Changed {
                path,
                old: Some(old.contents.as_bytes()),
                new: Some(new.contents.as_bytes()),
            });
        }
        let d = decide(&changes);
        assert_eq!(d.steps, with_probes(&[Step::DaemonReload, Step::Reload]));
        // More clients: a larger LimitNOFILE, a restart.
        let big = nginx_gen_core::plan_from_json(
            r#"{"vcpu": 2, "ram": "2G", "clients": 2000000, "server_names": ["b.example"]}"#,
        )
        .unwrap();
        let big = nginx_gen_core::render::files(&big);
        let new = big.iter().find(|f| f.path == SYSTEMD_PATH).unwrap();
        changes[2].new = Some(new.contents.as_bytes());
        assert!(decide(&changes).steps.contains(&Step::Restart));
    }

    #[test]
    fn the_pool_reloads_php_fpm_after_nginx_and_its_probes() {
        const POOL: &str = "/etc/php/8.2/fpm/pool.d/www.conf";
        let (a, b) = (
            &b"; a\n[www]\npm.max_children = 5\n"[..],
            &b"; b\n[www]\npm.max_children = 42\n"[..],
        );
        let both = decide(&changed(&[NGINX_PATH, POOL], a, b));
        let mut want = with_probes(&[Step::Reload]);
        want.extend([Step::PhpReload, Step::PhpProbe]);
        assert_eq!(both.steps, want);
        // The pool alone: PHP-FPM only, nginx is not reloaded.
        assert_eq!(
            decide(&changed(&[POOL], a, b)).steps,
            [Step::PhpReload, Step::PhpProbe]
        );
        // Only its comments: nothing, with a note.
        let d = decide(&changed(
            &[POOL],
            a,
            &b"; c\n[www]\npm.max_children = 5\n"[..],
        ));
        assert!(d.steps.is_empty(), "{:?}", d.steps);
        assert!(
            d.notes[0].contains("PHP-FPM is not reloaded"),
            "{:?}",
            d.notes
        );
        // Not a pool nginx-gen writes: no PHP-FPM step.
        assert!(
            decide(&changed(&["/etc/php/8.2/fpm/pool.d/other.conf"], a, b))
                .steps
                .is_empty()
        );
    }

    #[test]
    fn sysctl_errors_the_environment_causes_are_told_apart() {
        use super::keys_the_environment_keeps as keys;
        let ro = "sysctl --system failed (exit status: 255): sysctl: setting key \"net.core.somaxconn\": Read-only file system\nsysctl: permission denied on key \"fs.file-max\", ignoring\nsysctl: cannot stat /proc/sys/net/ipv4/tcp_fastopen: No such file or directory";
        assert_eq!(
            keys(ro).unwrap(),
            ["net.core.somaxconn", "fs.file-max", "net.ipv4.tcp_fastopen"]
        );
        let bad = "sysctl: setting key \"net.core.somaxconn\": Invalid argument";
        assert_eq!(keys(bad), None);
        assert_eq!(keys(&format!("{ro}\n{bad}")), None);
        assert_eq!(keys("cannot run sysctl --system: No such file"), None);
    }

    #[test]
    fn a_reload_is_done_when_the_workers_are_new() {
        use super::{accepting_worker, ppid_of_stat};
        assert_eq!(
            ppid_of_stat("4242 (nginx: worker (x) ) S 4100 4100 4100 0 -1"),
            Some(4100)
        );
        assert_eq!(ppid_of_stat("garbage"), None);
        assert!(accepting_worker(b"nginx: worker process\0"));
        assert!(!accepting_worker(
            b"nginx: worker process is shutting down\0"
        ));
        assert!(!accepting_worker(
            b"nginx: master process /usr/sbin/nginx\0"
        ));
        assert!(!accepting_worker(b"nginx: cache manager process\0"));
    }

    #[test]
    fn another_root_skips_every_step_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let mut host = Host::detect(dir.path());
        for step in [Step::Sysctl, Step::DaemonReload, Step::Restart] {
            let Ok(Outcome::Skipped(note)) = host.run(step) else {
                panic!("{step:?} ran");
            };
            assert!(note.contains("not this host's root"), "{note}");
        }
    }
}
