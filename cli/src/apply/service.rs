//! The service steps after the files are in place: `sysctl --system`,
//! `systemctl daemon-reload`, reload (or restart, when the systemd drop-in changed: a
//! `LimitNOFILE` only takes effect on restart) and the probes. Each step is an [`Step`]
//! run by a [`Service`], so the booted-container tests can drive a real systemd with the
//! same list; [`Host`] runs them on this machine and skips, with a note, what it cannot do
//! here (another `--install-root`, no systemd as PID 1, a read-only `/proc/sys`).

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use nginx_gen_core::render::{SYSCTL_PATH, SYSTEMD_PATH};

/// One step after the install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `sysctl --system`: the sysctl.d file changed.
    Sysctl,
    /// `systemctl daemon-reload`: the drop-in changed.
    DaemonReload,
    /// `systemctl reload nginx`: only nginx's files changed.
    Reload,
    /// `systemctl restart nginx`: the drop-in changed (its limits apply on restart only).
    Restart,
    /// The service is active after the reload or restart.
    ProbeActive,
    /// Each server name answers over plain HTTP (a status line, whatever the code: the
    /// catch-all closes the connection without one).
    ProbeHttp,
}

impl Step {
    /// The step's name in messages and in `NGINX_GEN_TEST_FAIL_STEP`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sysctl => "sysctl",
            Self::DaemonReload => "daemon-reload",
            Self::Reload => "reload",
            Self::Restart => "restart",
            Self::ProbeActive => "probe",
            Self::ProbeHttp => "probe-http",
        }
    }

    /// Whether the step makes nginx load the files (so a rollback must load the old ones).
    pub const fn loads_nginx(self) -> bool {
        matches!(self, Self::Reload | Self::Restart)
    }
}

/// The steps the changed files (install paths) call for, in order.
pub fn steps(changed: &[&str]) -> Vec<Step> {
    let sysctl = changed.contains(&SYSCTL_PATH);
    let unit = changed.contains(&SYSTEMD_PATH);
    let nginx = changed.iter().any(|p| p.starts_with("/etc/nginx/"));
    let mut out = Vec::new();
    if sysctl {
        out.push(Step::Sysctl);
    }
    if unit {
        out.extend([Step::DaemonReload, Step::Restart]);
    } else if nginx || sysctl {
        out.push(Step::Reload);
    }
    if out.iter().any(|s| s.loads_nginx()) {
        out.extend([Step::ProbeActive, Step::ProbeHttp]);
    }
    out
}

/// Where `apply` probes each literal server name: the first IPv4 (or any-address) listen,
/// on loopback when it is every address.
pub fn probes(plan: &nginx_gen_core::Plan) -> Vec<(std::net::SocketAddr, String)> {
    let inputs = &plan.inputs;
    let Some(addr) = inputs.listen.iter().find_map(|l| {
        let ip = match l.addr {
            None => std::net::Ipv4Addr::LOCALHOST.to_string(),
            Some(a) => a.to_string(),
        };
        format!("{ip}:{}", l.port)
            .parse::<std::net::SocketAddr>()
            .ok()
            .filter(std::net::SocketAddr::is_ipv4)
    }) else {
        return Vec::new();
    };
    inputs
        .server_names
        .iter()
        .map(ToString::to_string)
        .filter(|n| !n.starts_with(['*', '~', '.']) && !n.ends_with('*'))
        .map(|n| (addr, n))
        .collect()
}

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
    /// Where each server name is probed: (address, `Host` header).
    probes: Vec<(SocketAddr, String)>,
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
            probes: Vec::new(),
        }
    }

    /// The server names to probe after a reload, each with the address it listens on.
    #[must_use]
    pub fn with_probes(mut self, probes: Vec<(SocketAddr, String)>) -> Self {
        self.probes = probes;
        self
    }
}

/// Sends `GET /` with `Host: host` to `addr` and returns the status line; no status line
/// (refused, reset, closed, timed out) is an error.
pub fn probe_http(addr: SocketAddr, host: &str, timeout: Duration) -> Result<String, String> {
    let fail = |e: &dyn std::fmt::Display| format!("{host} on {addr} does not answer: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(|e| fail(&e))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| fail(&e))?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| fail(&e))?;
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {host}\r\nUser-Agent: nginx-gen-probe\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).map_err(|e| fail(&e))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 512];
    while !head.contains(&b'\n') && head.len() < 4096 {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) => return Err(fail(&e)),
        }
    }
    let line = String::from_utf8_lossy(&head)
        .lines()
        .next()
        .unwrap_or_default()
        .trim_end()
        .to_owned();
    if line.starts_with("HTTP/") && line.split_whitespace().nth(1).is_some() {
        Ok(line)
    } else {
        Err(fail(&"the connection closed without an HTTP status line"))
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
                Ok(line) => Ok(Outcome::Done(line)),
                Err(e) => match keys_the_environment_keeps(&e) {
                    Some(keys) => Ok(Outcome::Skipped(format!(
                        "sysctl --system could not set {} here (read-only or absent in this environment); the other keys are set",
                        keys.join(", ")
                    ))),
                    None => Err(e),
                },
            },
            _ if !self.systemd => Ok(Outcome::Skipped(format!(
                "systemd is not PID 1 here: {} by hand (nginx -s reload, or a restart for {SYSTEMD_PATH})",
                step.name()
            ))),
            Step::DaemonReload => run_command("systemctl", &["daemon-reload"]).map(Outcome::Done),
            Step::Reload => run_command("systemctl", &["reload", "nginx"]).map(Outcome::Done),
            Step::Restart => run_command("systemctl", &["restart", "nginx"]).map(|line| {
                Outcome::Done(format!(
                    "{line} (a restart, not a reload: the drop-in's limits apply to a new process only)"
                ))
            }),
            Step::ProbeActive => {
                run_command("systemctl", &["is-active", "--quiet", "nginx"]).map(Outcome::Done)
            }
            Step::ProbeHttp => {
                let mut answers = Vec::new();
                for (addr, host) in &self.probes {
                    let line = probe_http(*addr, host, Duration::from_secs(5))?;
                    answers.push(format!("{host} on {addr}: {line}"));
                }
                if answers.is_empty() {
                    return Ok(Outcome::Skipped(
                        "no literal server name to probe (wildcards and regexes are not)".into(),
                    ));
                }
                Ok(Outcome::Done(answers.join("; ")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Host, Outcome, Service, Step, probe_http, steps};
    use nginx_gen_core::render::{NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH};

    #[test]
    fn the_steps_follow_the_changed_files() {
        assert_eq!(steps(&[]), vec![]);
        assert_eq!(
            steps(&[NGINX_PATH]),
            vec![Step::Reload, Step::ProbeActive, Step::ProbeHttp]
        );
        assert_eq!(
            steps(&[NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH]),
            vec![
                Step::Sysctl,
                Step::DaemonReload,
                Step::Restart,
                Step::ProbeActive,
                Step::ProbeHttp
            ]
        );
    }

    /// A server that answers `reply` to one request and closes.
    fn server(reply: &'static [u8]) -> std::net::SocketAddr {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let n = s.read(&mut buf).unwrap();
            assert!(String::from_utf8_lossy(&buf[..n]).contains("\r\nHost: a.example\r\n"));
            let _ = s.write_all(reply);
        });
        addr
    }

    #[test]
    fn the_http_probe_wants_a_status_line() {
        let t = std::time::Duration::from_secs(5);
        let ok = server(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(probe_http(ok, "a.example", t).unwrap(), "HTTP/1.1 200 OK");
        // The catch-all's 444: the connection closes without a response.
        let closed = server(b"");
        let e = probe_http(closed, "a.example", t).unwrap_err();
        assert!(e.contains("without an HTTP status line"), "{e}");
        let refused = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = refused.local_addr().unwrap();
        drop(refused);
        assert!(probe_http(addr, "a.example", t).is_err());
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
    fn literal_server_names_are_probed_on_the_first_ipv4_listen() {
        let inputs = nginx_gen_core::Inputs {
            server_names: vec!["a.example".parse().unwrap(), "*.b.example".parse().unwrap()],
            listen: vec!["[::]:8080".parse().unwrap(), "8080".parse().unwrap()],
            ..Default::default()
        };
        let probes = super::probes(&nginx_gen_core::Plan::new(&inputs));
        assert_eq!(
            probes,
            vec![("127.0.0.1:8080".parse().unwrap(), "a.example".to_owned())]
        );
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
