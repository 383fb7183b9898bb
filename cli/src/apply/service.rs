//! The service steps after the files are in place: `sysctl --system`,
//! `systemctl daemon-reload`, reload (or restart, when the systemd drop-in changed: a
//! `LimitNOFILE` only takes effect on restart) and the probes. Each step is an [`Step`]
//! run by a [`Service`], so the booted-container tests can drive a real systemd with the
//! same list; [`Host`] runs them on this machine and skips, with a note, what it cannot do
//! here (another `--install-root`, no systemd as PID 1, a read-only `/proc/sys`).

use std::fmt::Write as _;
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
    /// Each server name answers over HTTPS (SNI and `Host`, the certificate not checked:
    /// a liveness probe), when the plan serves TLS (not while bootstrapping).
    ProbeHttps,
    /// The catch-all default server closes a request for a name no site has, without a
    /// status line (its 444), and rejects the TLS handshake (`ssl_reject_handshake`).
    ProbeCatchAll,
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
            Self::ProbeHttps => "probe-https",
            Self::ProbeCatchAll => "probe-catch-all",
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
        out.extend([
            Step::ProbeActive,
            Step::ProbeHttp,
            Step::ProbeHttps,
            Step::ProbeCatchAll,
        ]);
    }
    out
}

/// The host name the catch-all probe sends: no site has it (`.invalid` is reserved).
pub const NO_SITE_NAME: &str = "nginx-gen-probe.invalid";

/// What the probes after a reload or restart ask, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probes {
    /// Each literal server name over plain HTTP: (address, `Host`).
    pub http: Vec<(SocketAddr, String)>,
    /// Each literal server name over HTTPS: (TLS address, SNI and `Host`); empty without
    /// TLS and while bootstrapping.
    pub https: Vec<(SocketAddr, String)>,
    /// The catch-all default server.
    pub catch_all: CatchAll,
}

/// The catch-all probe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CatchAll {
    /// The plan has no catch-all (the site takes every name, or no IPv4 listen).
    #[default]
    Absent,
    /// An existing default server is kept: it, not nginx-gen's catch-all, answers names
    /// no site has; not probed.
    Existing,
    /// The catch-all is the default server: a request with [`NO_SITE_NAME`] to `http`
    /// gets no status line; a handshake with that SNI to `tls` (when the plan rejects
    /// handshakes there) is refused.
    Probe {
        /// The plain-HTTP address.
        http: SocketAddr,
        /// The TLS address, when the TLS catch-all has `ssl_reject_handshake on`.
        tls: Option<SocketAddr>,
    },
}

/// What to probe for `plan`: each literal server name on the first IPv4 (or any-address)
/// listen, on loopback when it is every address; over HTTPS on the TLS port when the plan
/// serves TLS; the catch-all when the plan has it as the default server.
pub fn probes(plan: &nginx_gen_core::Plan) -> Probes {
    use nginx_gen_core::plan::{Scope, ServerRole};
    let inputs = &plan.inputs;
    let Some(addr) = inputs.listen.iter().find_map(|l| {
        let ip = match l.addr {
            None => std::net::Ipv4Addr::LOCALHOST.to_string(),
            Some(a) => a.to_string(),
        };
        format!("{ip}:{}", l.port)
            .parse::<SocketAddr>()
            .ok()
            .filter(SocketAddr::is_ipv4)
    }) else {
        return Probes::default();
    };
    let tls_addr = SocketAddr::new(addr.ip(), inputs.tls_port);
    let names: Vec<String> = inputs
        .server_names
        .iter()
        .map(ToString::to_string)
        .filter(|n| !n.starts_with(['*', '~', '.']) && !n.ends_with('*') && n != "_")
        .collect();
    let tls = inputs.tls && !inputs.bootstrap;
    let in_server = |role: ServerRole, s: &nginx_gen_core::plan::Setting| match s.scope {
        Scope::Server { server } | Scope::Location { server, .. } => server == role,
        _ => false,
    };
    let has_catch_all = plan
        .settings
        .iter()
        .any(|s| in_server(ServerRole::CatchAll, s));
    let catch_all = if !has_catch_all {
        CatchAll::Absent
    } else if inputs.existing_default_server {
        CatchAll::Existing
    } else {
        let rejects = tls
            && plan.settings.iter().any(|s| {
                in_server(ServerRole::CatchAllTls, s)
                    && s.name == "ssl_reject_handshake"
                    && s.value() == "on"
            });
        CatchAll::Probe {
            http: addr,
            tls: rejects.then_some(tls_addr),
        }
    };
    Probes {
        http: names.iter().map(|n| (addr, n.clone())).collect(),
        https: if tls {
            names.iter().map(|n| (tls_addr, n.clone())).collect()
        } else {
            Vec::new()
        },
        catch_all,
    }
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
        }
    }

    /// What to probe after a reload or restart ([`probes`]).
    #[must_use]
    pub fn with_probes(mut self, probes: Probes) -> Self {
        self.probes = probes;
        self
    }
}

/// The request every probe sends.
fn request(host: &str) -> String {
    format!(
        "GET / HTTP/1.1\r\nHost: {host}\r\nUser-Agent: nginx-gen-probe\r\nConnection: close\r\n\r\n"
    )
}

/// The status line at the start of `response`, if it has one.
fn status_line(response: &[u8]) -> Option<String> {
    let line = String::from_utf8_lossy(response)
        .lines()
        .next()
        .unwrap_or_default()
        .trim_end()
        .to_owned();
    (line.starts_with("HTTP/") && line.split_whitespace().nth(1).is_some()).then_some(line)
}

/// Sends `GET /` with `Host: host` to `addr`: `Some(status line)`, or `None` when the
/// connection closed (or was reset) without one; an error when it could not connect or
/// timed out.
pub fn http_answer(
    addr: SocketAddr,
    host: &str,
    timeout: Duration,
) -> Result<Option<String>, String> {
    let fail = |e: &dyn std::fmt::Display| format!("{host} on {addr} does not answer: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(|e| fail(&e))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| fail(&e))?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| fail(&e))?;
    stream
        .write_all(request(host).as_bytes())
        .map_err(|e| fail(&e))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 512];
    while !head.contains(&b'\n') && head.len() < 4096 {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => return Err(fail(&e)),
        }
    }
    Ok(status_line(&head))
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

/// Sends `GET /` with `Host: host` to `addr` and returns the status line; no status line
/// (refused, reset, closed, timed out) is an error.
pub fn probe_http(addr: SocketAddr, host: &str, timeout: Duration) -> Result<String, String> {
    http_answer(addr, host, timeout)?.ok_or_else(|| {
        format!(
            "{host} on {addr} does not answer: the connection closed without an HTTP status line"
        )
    })
}

/// What a TLS server said to a handshake and a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsAnswer {
    /// The handshake succeeded and the request got this status line.
    Status(String),
    /// The handshake succeeded; the connection closed without a status line.
    Closed,
    /// The server refused the handshake (an alert), with `openssl`'s words.
    Rejected(String),
}

/// A TLS handshake with SNI `name` to `addr`, then `GET /` with `Host: name`, through
/// `openssl s_client` (installed wherever nginx is); the certificate is not checked (a
/// liveness probe). An error when it could not connect or `openssl` could not run.
pub fn tls_answer(addr: SocketAddr, name: &str, timeout: Duration) -> Result<TlsAnswer, String> {
    let fail = |e: &dyn std::fmt::Display| format!("{name} on {addr} (TLS) does not answer: {e}");
    let mut child = Command::new("timeout")
        .args([
            "-k",
            "1",
            &timeout.as_secs().max(1).to_string(),
            "openssl",
            "s_client",
        ])
        .arg("-connect")
        .arg(addr.to_string())
        .args(["-servername", name, "-quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| fail(&format!("cannot run openssl s_client: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A refused handshake closes the pipe before the request is read: not an error.
        let _ = stdin.write_all(request(name).as_bytes());
    }
    let out = child.wait_with_output().map_err(|e| fail(&e))?;
    if let Some(line) = status_line(&out.stdout) {
        return Ok(TlsAnswer::Status(line));
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(124) {
        return Err(fail(&format!("no answer within {} s", timeout.as_secs())));
    }
    if let Some(alert) = stderr.lines().find(|l| l.contains("alert")) {
        return Ok(TlsAnswer::Rejected(alert.trim().to_owned()));
    }
    if out.status.success() {
        return Ok(TlsAnswer::Closed);
    }
    Err(fail(
        &stderr
            .lines()
            .last()
            .unwrap_or("openssl s_client failed")
            .trim(),
    ))
}

/// [`tls_answer`] wanting a status line.
pub fn probe_https(addr: SocketAddr, name: &str, timeout: Duration) -> Result<String, String> {
    match tls_answer(addr, name, timeout)? {
        TlsAnswer::Status(line) => Ok(line),
        TlsAnswer::Closed => Err(format!(
            "{name} on {addr} (TLS) does not answer: the connection closed without an HTTP status line"
        )),
        TlsAnswer::Rejected(alert) => Err(format!(
            "{name} on {addr} (TLS) does not answer: the handshake was refused ({alert})"
        )),
    }
}

/// The catch-all probe: [`NO_SITE_NAME`] over HTTP to `http` must get no status line, and
/// a handshake with that SNI to `tls` must be refused. Returns what each did.
pub fn probe_catch_all(
    http: SocketAddr,
    tls: Option<SocketAddr>,
    timeout: Duration,
) -> Result<String, String> {
    let mut done = match http_answer(http, NO_SITE_NAME, timeout)? {
        None => format!("{NO_SITE_NAME} on {http}: closed without a status line (444)"),
        Some(line) => {
            return Err(format!(
                "{NO_SITE_NAME} on {http} got {line:?}: the catch-all is not the default server there (another site answers names no site has)"
            ));
        }
    };
    if let Some(tls) = tls {
        match tls_answer(tls, NO_SITE_NAME, timeout)? {
            TlsAnswer::Rejected(_) => {
                let _ = write!(done, "; on {tls}: handshake refused");
            }
            other => {
                return Err(format!(
                    "{NO_SITE_NAME} on {tls}: the TLS handshake was accepted ({other:?}); the catch-all should refuse it (ssl_reject_handshake)"
                ));
            }
        }
    }
    Ok(done)
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
                Ok(line) => Ok(Outcome::Done(format!("{line}{}", self.running_differs()))),
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
    use super::{CatchAll, Host, Outcome, Service, Step, probe_http, steps};
    use nginx_gen_core::render::{NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH};

    #[test]
    fn the_steps_follow_the_changed_files() {
        assert_eq!(steps(&[]), vec![]);
        assert_eq!(
            steps(&[NGINX_PATH]),
            vec![
                Step::Reload,
                Step::ProbeActive,
                Step::ProbeHttp,
                Step::ProbeHttps,
                Step::ProbeCatchAll
            ]
        );
        assert_eq!(
            steps(&[NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH]),
            vec![
                Step::Sysctl,
                Step::DaemonReload,
                Step::Restart,
                Step::ProbeActive,
                Step::ProbeHttp,
                Step::ProbeHttps,
                Step::ProbeCatchAll
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
            probes.http,
            vec![("127.0.0.1:8080".parse().unwrap(), "a.example".to_owned())]
        );
        assert!(probes.https.is_empty());
        assert_eq!(
            probes.catch_all,
            CatchAll::Probe {
                http: "127.0.0.1:8080".parse().unwrap(),
                tls: None
            }
        );
    }

    #[test]
    fn tls_adds_https_probes_and_the_catch_all_refuses_handshakes() {
        let raw = |json: &str| {
            let raw = nginx_gen_core::RawInputs::from_json(json).unwrap();
            nginx_gen_core::Plan::new(&nginx_gen_core::Inputs::from_raw(&raw).unwrap())
        };
        let base =
            r#""server_names":["a.example"],"listen":["80"],"tls":true,"nginx_version":"1.22.1""#;
        let p = super::probes(&raw(&format!("{{{base}}}")));
        assert_eq!(
            p.https,
            vec![("127.0.0.1:443".parse().unwrap(), "a.example".to_owned())]
        );
        assert_eq!(
            p.catch_all,
            CatchAll::Probe {
                http: "127.0.0.1:80".parse().unwrap(),
                tls: Some("127.0.0.1:443".parse().unwrap())
            }
        );
        // Bootstrapping: HTTP only.
        let p = super::probes(&raw(&format!("{{{base},\"bootstrap\":true}}")));
        assert!(p.https.is_empty());
        assert_eq!(
            p.catch_all,
            CatchAll::Probe {
                http: "127.0.0.1:80".parse().unwrap(),
                tls: None
            }
        );
        // An existing default server is kept: the catch-all is not probed.
        let p = super::probes(&raw(&format!(
            "{{{base},\"existing_default_server\":true}}"
        )));
        assert_eq!(p.catch_all, CatchAll::Existing);
        // The site takes every name: no catch-all.
        let p = super::probes(&raw(r#"{"server_names":["_"],"listen":["80"]}"#));
        assert_eq!(p.catch_all, CatchAll::Absent);
        assert!(p.http.is_empty());
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
