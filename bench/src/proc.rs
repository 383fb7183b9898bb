//! Starting and stopping nginx processes, always by PID, and the cleanup that runs on a
//! normal exit, on Ctrl-C and on a panic (the release profile aborts on panic, so a panic
//! hook calls it rather than relying on `Drop`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// What must be undone whatever happens: nginx masters to stop, namespaces to delete.
#[derive(Debug, Default)]
struct Registry {
    pids: Vec<u32>,
    netns: Vec<String>,
    tmp: Option<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    pids: Vec::new(),
    netns: Vec::new(),
    tmp: None,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub fn register_netns(name: &str) {
    registry().netns.push(name.to_string());
}

pub fn forget_netns(name: &str) {
    registry().netns.retain(|n| n != name);
}

/// A child process (not nginx) to stop at cleanup, like the nginx masters.
pub fn track(pid: u32) {
    registry().pids.push(pid);
}

/// Stops a tracked process by PID (TERM, then KILL) and forgets it.
pub fn stop(pid: u32) {
    stop_pid(pid);
    registry().pids.retain(|p| *p != pid);
}

/// The temporary directory to delete at cleanup (`None` keeps it).
pub fn register_tmp(dir: Option<PathBuf>) {
    registry().tmp = dir;
}

/// Stops every registered nginx, deletes the namespaces and the temporary directory.
/// Idempotent; safe to call from a signal handler thread or a panic hook.
pub fn cleanup() {
    let (pids, netns, tmp) = {
        let mut r = registry();
        (
            std::mem::take(&mut r.pids),
            std::mem::take(&mut r.netns),
            r.tmp.take(),
        )
    };
    for pid in pids {
        stop_pid(pid);
    }
    for ns in netns {
        let _ = Command::new("ip")
            .args(["netns", "del", &ns])
            .stderr(Stdio::null())
            .status();
    }
    if let Some(dir) = tmp {
        let _ = fs::remove_dir_all(dir);
    }
}

/// Installs the Ctrl-C handler and the panic hook that both run [`cleanup`].
pub fn install_handlers() {
    let _ = ctrlc::set_handler(|| {
        eprintln!(
            "\ninterrupted (SIGINT, SIGTERM or SIGHUP): stopping nginx and removing namespaces"
        );
        cleanup();
        std::process::exit(130);
    });
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        cleanup();
        previous(info);
    }));
}

pub fn alive(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // A zombie has exited; only its parent's wait is missing.
        Ok(s) => s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

fn signal(pid: u32, sig: &str) {
    let _ = Command::new("kill")
        .args([sig, &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// The direct children of `pid` (nginx's workers and cache helpers).
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .is_some_and(|s| {
                    s.rsplit_once(')')
                        .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                        == Some(pid)
                })
        })
        .collect()
}

/// Stops an nginx master by PID: TERM (fast shutdown), then KILL for it and its workers.
fn stop_pid(pid: u32) {
    let workers = children(pid);
    signal(pid, "-TERM");
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(3) {
        sleep(Duration::from_millis(20));
    }
    for p in std::iter::once(pid).chain(workers) {
        if alive(p) {
            signal(p, "-KILL");
        }
    }
}

/// CPU time (ns) a process has run, from /proc/PID/schedstat; falls back to the
/// utime+stime ticks of /proc/PID/stat.
pub fn cpu_ns(pid: u32) -> u64 {
    if let Ok(s) = fs::read_to_string(format!("/proc/{pid}/schedstat"))
        && let Some(ns) = s.split_whitespace().next().and_then(|v| v.parse().ok())
    {
        return ns;
    }
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1.to_string();
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
            Some(ticks * 10_000_000)
        })
        .unwrap_or(0)
}

/// A running nginx master (with `daemon off`, so it is our child), and how it was started,
/// to start it again.
#[derive(Debug)]
pub struct Nginx {
    label: String,
    pub prefix: PathBuf,
    conf: PathBuf,
    workers: usize,
    launch: Launch,
    child: Child,
}

/// How to launch a process: optional network namespace, CPU list, file limit, cgroup.
#[derive(Debug, Clone)]
pub struct Launch {
    pub netns: Option<String>,
    pub cpus: String,
    pub nofile: (u64, u64),
    /// A cgroup v2 directory the process starts in (before it forks its workers).
    pub cgroup: Option<PathBuf>,
}

impl Launch {
    /// `[sh -c 'echo $$ > CGROUP/cgroup.procs; exec …'] [ip netns exec NS] nice -n -10
    /// taskset -c CPUS prlimit --nofile=S:H PROGRAM`: every wrapper execs, so the PID is the
    /// program's.
    pub fn command(&self, program: &str) -> Command {
        let mut argv: Vec<String> = Vec::new();
        if let Some(dir) = &self.cgroup {
            argv.extend(
                ["sh", "-c", "echo $$ > \"$1\" && shift && exec \"$@\"", "sh"].map(String::from),
            );
            argv.push(dir.join("cgroup.procs").to_string_lossy().to_string());
        }
        if let Some(ns) = &self.netns {
            argv.extend(["ip", "netns", "exec", ns].map(String::from));
        }
        // Above the other jobs on this shared machine (compilers at nice 0), so they disturb
        // the measurement less.
        argv.extend(["nice", "-n", "-10"].map(String::from));
        argv.extend(["taskset".into(), "-c".into(), self.cpus.clone()]);
        // Never above our own hard limit: raising it needs CAP_SYS_RESOURCE.
        let cap = hard_nofile();
        argv.extend([
            "prlimit".into(),
            format!(
                "--nofile={}:{}",
                self.nofile.0.min(cap),
                self.nofile.1.min(cap)
            ),
        ]);
        argv.push(program.into());
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]);
        cmd
    }
}

/// This process's hard `RLIMIT_NOFILE` (from /proc/self/limits).
pub fn hard_nofile() -> u64 {
    fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("Max open files"))?;
            let v = l.split_whitespace().nth(4)?;
            if v == "unlimited" {
                Some(u64::MAX)
            } else {
                v.parse().ok()
            }
        })
        .unwrap_or(u64::MAX)
}

pub const NGINX: &str = "/usr/sbin/nginx";

/// The error log, relative to an instance's prefix.
const ERROR_LOG: &str = "logs/error.log";

impl Nginx {
    /// Checks the configuration with `nginx -t`, starts nginx in the foreground and waits
    /// until its workers run.
    pub fn start(
        label: &str,
        prefix: &Path,
        conf: &Path,
        workers: usize,
        launch: &Launch,
    ) -> Result<Self, String> {
        fs::create_dir_all(prefix.join("logs")).map_err(|e| e.to_string())?;
        // Debian's modules-enabled files load `modules/…` relative to the prefix.
        let modules = prefix.join("modules");
        if !modules.exists() {
            std::os::unix::fs::symlink("/usr/share/nginx/modules", &modules)
                .map_err(|e| format!("{}: {e}", modules.display()))?;
        }
        Self::check(label, prefix, conf, launch)?;
        let mut me = Self {
            label: label.to_string(),
            prefix: prefix.to_path_buf(),
            conf: conf.to_path_buf(),
            workers,
            launch: launch.clone(),
            child: Self::spawn(prefix, conf, launch)?,
        };
        me.wait_for_workers()?;
        Ok(me)
    }

    /// Stops this nginx and starts it again with the same configuration. Two instances of
    /// the same configuration keep a difference of their own for as long as they run:
    /// measured 2026-12-05 (html, 50 connections, 20 interleaved rounds per pair) at 0.965,
    /// 1.019, 1.030 and 0.997 in four fresh pairs, each with a 95 % interval of only
    /// ±0.3–0.6 %, so rounds of the same instances measure that pair's difference, not the
    /// configurations'. Started afresh every round, five pairs gave 0.979 to 1.010
    /// (±1.1–2.0 %): the difference is drawn anew each round and the interval covers it.
    /// The configuration passed `nginx -t` at the first start and has not changed since.
    pub fn restart(&mut self) -> Result<(), String> {
        self.stop();
        self.child = Self::spawn(&self.prefix, &self.conf, &self.launch)?;
        self.wait_for_workers()
    }

    /// `nginx -p PREFIX -c CONF -e ERROR_LOG -g 'daemon off;'`, launched as `launch` says.
    fn command(prefix: &Path, conf: &Path, launch: &Launch) -> Command {
        let mut cmd = launch.command(NGINX);
        cmd.arg("-p")
            .arg(prefix)
            .arg("-c")
            .arg(conf)
            .arg("-e")
            .arg(prefix.join(ERROR_LOG))
            .args(["-g", "daemon off;"]);
        cmd
    }

    /// `nginx -t` of the configuration.
    fn check(label: &str, prefix: &Path, conf: &Path, launch: &Launch) -> Result<(), String> {
        let test = Self::command(prefix, conf, launch)
            .arg("-t")
            .output()
            .map_err(|e| format!("{NGINX}: {e}"))?;
        if !test.status.success() {
            return Err(format!(
                "{label}: nginx -t failed:\n{}",
                String::from_utf8_lossy(&test.stderr)
            ));
        }
        Ok(())
    }

    /// nginx itself in the foreground.
    fn spawn(prefix: &Path, conf: &Path, launch: &Launch) -> Result<Child, String> {
        let child = Self::command(prefix, conf, launch)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{NGINX}: {e}"))?;
        registry().pids.push(child.id());
        Ok(child)
    }

    fn wait_for_workers(&mut self) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "{}: nginx exited ({status}) at start:\n{}",
                    self.label,
                    self.error_log()
                ));
            }
            if children(self.pid()).len() >= self.workers {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(10) {
                self.stop();
                return Err(format!(
                    "{}: nginx workers did not start within 10 s",
                    self.label
                ));
            }
            sleep(Duration::from_millis(20));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// CPU time of the master and its workers, in ns.
    pub fn cpu_ns(&self) -> u64 {
        let pid = self.pid();
        std::iter::once(pid).chain(children(pid)).map(cpu_ns).sum()
    }

    /// The CPUs the workers may run on (to document what `worker_cpu_affinity` did).
    pub fn worker_cpus(&self) -> String {
        children(self.pid())
            .iter()
            .filter_map(|p| {
                let s = fs::read_to_string(format!("/proc/{p}/status")).ok()?;
                s.lines()
                    .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                    .map(|v| v.trim().to_string())
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn error_log(&self) -> String {
        fs::read_to_string(self.prefix.join(ERROR_LOG)).unwrap_or_default()
    }

    /// Stops this nginx by its PID and reaps it.
    pub fn stop(&mut self) {
        let pid = self.pid();
        stop_pid(pid);
        let _ = self.child.wait();
        registry().pids.retain(|p| *p != pid);
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        if alive(self.pid()) {
            self.stop();
        }
    }
}
