//! The booted-host harness: a copy of the Debian 12 root `scripts/host-root.sh` caches,
//! booted with `systemd-nspawn -b` (systemd as PID 1, its own network namespace), the
//! release `nginx-gen` bound into it read-only, commands run inside with `nsenter`.
//!
//! Each [`Container`] boots an overlay of the cached root (a copy with `cp -a` where
//! overlayfs is not available), so the scenarios are independent and the cache is never
//! written. Dropping it — also on a panic — powers the container off, kills what is left
//! of it, unmounts and deletes its directory. `scripts/stages/57-host.sh` removes what a
//! killed run left (each container's directory records its `systemd-nspawn`'s PID, and its
//! name the PID of the test process that booted it).
//!
//! Needs root. Nothing here mocks systemd or nginx: they are Debian's, running.
#![allow(
    clippy::missing_panics_doc,
    reason = "test harness: every panic is a failed scenario, with what was found"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Where the binary is bound inside the container.
pub const BIN_INSIDE: &str = "/usr/local/bin/nginx-gen";

/// The body of the site that was there before nginx-gen (`scripts/host-root.sh`).
pub const OLD_BODY: &str = "old.example: the site that was here before\n";

const PATH_INSIDE: &str = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

fn cache() -> PathBuf {
    std::env::var_os("NGINX_GEN_CACHE")
        .map_or_else(|| PathBuf::from("/var/cache/nginx-gen"), PathBuf::from)
}

/// The cached root: `$NGINX_GEN_HOST_ROOT`, or what `scripts/host-root.sh` built.
pub fn cached_root() -> PathBuf {
    let root = std::env::var_os("NGINX_GEN_HOST_ROOT")
        .map_or_else(|| cache().join("host-root/root"), PathBuf::from);
    assert!(
        root.join(".nginx-gen-host-root").is_file(),
        "no booted-host root at {}: run scripts/host-root.sh (as root)",
        root.display()
    );
    root
}

/// The binary under test: `$NGINX_GEN_BIN`, or the release build of this workspace.
pub fn binary() -> PathBuf {
    let bin = std::env::var_os("NGINX_GEN_BIN").map_or_else(
        || {
            let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
                || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
                PathBuf::from,
            );
            target.join("release/nginx-gen")
        },
        PathBuf::from,
    );
    assert!(
        bin.is_file(),
        "no nginx-gen binary at {}: cargo build --release -p nginx-gen (or set NGINX_GEN_BIN)",
        bin.display()
    );
    bin
}

/// The directory of the running containers' overlays.
pub fn runs_dir() -> PathBuf {
    cache().join("host-runs")
}

/// What a command printed and how it ended.
#[derive(Debug, Clone)]
pub struct Out {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Out {
    fn from(out: &Output) -> Self {
        Self {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Both streams, for messages.
    pub fn both(&self) -> String {
        format!(
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A file's mode and bytes (a link: its target, mode 0).
pub type Snapshot = BTreeMap<String, (u32, Vec<u8>)>;

/// A booted Debian 12: overlay, `systemd-nspawn`, its PID 1.
#[derive(Debug)]
pub struct Container {
    name: String,
    dir: PathBuf,
    merged: PathBuf,
    overlay: bool,
    nspawn: Option<Child>,
    leader: u32,
}

/// `fs.nr_open`: the largest open-files limit a process can have.
fn nr_open() -> u64 {
    fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1_048_576)
}

static SEQ: AtomicU32 = AtomicU32::new(0);

fn run(program: &str, args: &[&str]) -> Out {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    Out::from(&out)
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
}

fn status_field(pid: &str, field: &str) -> Option<String> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .map(|v| v.trim().to_owned())
}

/// The container's PID 1 (in this PID namespace): a process in a PID namespace of its own
/// whose ancestor, at most three generations up, is `nspawn`.
fn find_leader(nspawn: u32) -> Option<u32> {
    let mut parents = BTreeMap::new();
    let mut inits = Vec::new();
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(pid) = name.parse::<u32>() else {
            continue;
        };
        let Some(parent) = status_field(&name, "PPid:").and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        parents.insert(pid, parent);
        if let Some(nspid) = status_field(&name, "NSpid:") {
            let ids: Vec<&str> = nspid.split_whitespace().collect();
            if ids.len() > 1 && ids.last() == Some(&"1") {
                inits.push(pid);
            }
        }
    }
    inits.into_iter().find(|pid| {
        let mut p = *pid;
        for _ in 0..3 {
            match parents.get(&p) {
                Some(&pp) if pp == nspawn => return true,
                Some(&pp) => p = pp,
                None => return false,
            }
        }
        false
    })
}

impl Container {
    /// Boots a fresh copy of the cached root and waits until systemd reports the system
    /// `running` (or `degraded`). Panics, with the console's last lines, when it does not
    /// within 90 s.
    pub fn boot(label: &str) -> Self {
        let root = cached_root();
        let bin = binary();
        let name = format!(
            "ngh-{}-{}-{label}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::SeqCst)
        );
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .take(60)
            .collect();
        let dir = runs_dir().join(&name);
        let merged = dir.join("merged");
        for d in ["upper", "work", "merged"] {
            fs::create_dir_all(dir.join(d)).unwrap();
        }
        let mut this = Self {
            name,
            dir: dir.clone(),
            merged: merged.clone(),
            overlay: false,
            nspawn: None,
            leader: 0,
        };
        let opts = format!(
            "lowerdir={},upperdir={},workdir={}",
            root.display(),
            dir.join("upper").display(),
            dir.join("work").display()
        );
        let m = run(
            "mount",
            &[
                "-t",
                "overlay",
                "overlay",
                "-o",
                &opts,
                merged.to_str().unwrap(),
            ],
        );
        if m.code == Some(0) {
            this.overlay = true;
        } else {
            let cp = run(
                "cp",
                &[
                    "-a",
                    &format!("{}/.", root.display()),
                    merged.to_str().unwrap(),
                ],
            );
            assert_eq!(cp.code, Some(0), "copying the root: {}", cp.both());
        }
        let console = fs::File::create(dir.join("console.log")).unwrap();
        let child = Command::new("systemd-nspawn")
            .args([
                "--quiet",
                "--register=no",
                "--keep-unit",
                "--private-network",
                "--console=read-only",
                "--machine",
                &this.name,
                "-D",
                merged.to_str().unwrap(),
                &format!("--bind-ro={}:{BIN_INSIDE}", bin.display()),
                // systemd-nspawn hands the container its own open-files limit and no
                // CAP_SYS_RESOURCE to raise it; a booted host's PID 1 has fs.nr_open as its
                // hard limit, so LimitNOFILE= above this shell's limit can take effect.
                &format!("--rlimit=RLIMIT_NOFILE=1024:{}", nr_open()),
                "-b",
            ])
            .stdin(Stdio::null())
            .stdout(console.try_clone().unwrap())
            .stderr(console)
            .spawn()
            .expect("cannot run systemd-nspawn (apt-get install systemd-container)");
        let pid = child.id();
        fs::write(dir.join("nspawn.pid"), pid.to_string()).unwrap();
        this.nspawn = Some(child);

        let start = Instant::now();
        let deadline = start + Duration::from_secs(90);
        let mut last = String::new();
        loop {
            assert!(
                Instant::now() < deadline,
                "{}: not booted after 90 s (is-system-running: {last:?})\n{}",
                this.name,
                this.console_tail()
            );
            if let Some(status) = this.nspawn.as_mut().unwrap().try_wait().unwrap() {
                panic!(
                    "{}: systemd-nspawn exited ({status}) while booting\n{}",
                    this.name,
                    this.console_tail()
                );
            }
            if this.leader == 0 {
                this.leader = find_leader(pid).unwrap_or(0);
            }
            if this.leader != 0 {
                let out = this.sh("systemctl is-system-running");
                out.stdout.trim().clone_into(&mut last);
                if last == "running" || last == "degraded" {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!(
            "{}: booted in {:.1} s ({last})",
            this.name,
            start.elapsed().as_secs_f64()
        );
        this
    }

    fn console_tail(&self) -> String {
        let log = fs::read_to_string(self.dir.join("console.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    /// Runs `sh -c script` inside the container (all its namespaces, a clean environment
    /// plus `env`), bounded by 120 s.
    pub fn sh_env(&self, script: &str, env: &[(&str, &str)]) -> Out {
        let leader = self.leader.to_string();
        let mut args: Vec<String> = [
            "120",
            "nsenter",
            "-t",
            &leader,
            "-a",
            "env",
            "-i",
            PATH_INSIDE,
            "LANG=C",
            "TERM=dumb",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        args.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
        args.extend(["sh".into(), "-c".into(), script.into()]);
        let out = Command::new("timeout")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("cannot run timeout/nsenter");
        Out::from(&out)
    }

    /// Runs `sh -c script` inside the container.
    pub fn sh(&self, script: &str) -> Out {
        self.sh_env(script, &[])
    }

    /// Runs `script`, panics unless it exits 0; its standard output.
    pub fn ok(&self, script: &str) -> String {
        let out = self.sh(script);
        assert_eq!(
            out.code,
            Some(0),
            "`{script}` in {}: {}",
            self.name,
            out.both()
        );
        out.stdout
    }

    /// `nginx-gen ARGS…` inside the container, with `env` added.
    pub fn nginx_gen(&self, args: &[&str], env: &[(&str, &str)]) -> Out {
        let mut script = String::from(BIN_INSIDE);
        for a in args {
            write!(script, " '{}'", a.replace('\'', "'\\''")).unwrap();
        }
        self.sh_env(&script, env)
    }

    /// The container's PID 1, as this host sees it (for `nsenter -t`).
    pub fn leader(&self) -> u32 {
        self.leader
    }

    /// The host's path of `path` inside the container (through its PID 1's root).
    pub fn path(&self, path: &str) -> PathBuf {
        PathBuf::from(format!(
            "/proc/{}/root/{}",
            self.leader,
            path.trim_start_matches('/')
        ))
    }

    /// A file's bytes inside the container.
    pub fn read(&self, path: &str) -> Vec<u8> {
        fs::read(self.path(path)).unwrap_or_else(|e| panic!("reading {path}: {e}"))
    }

    /// Writes a file inside the container (parents created, mode 0644).
    pub fn write(&self, path: &str, bytes: &[u8]) {
        let p = self.path(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut f = fs::File::create(&p).unwrap_or_else(|e| panic!("writing {path}: {e}"));
        f.write_all(bytes).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
    }

    /// Every file, link and directory under `dirs` (paths inside the container), with its
    /// mode and bytes, leaving out the paths that start with one of `skip`.
    pub fn snapshot(&self, dirs: &[&str], skip: &[&str]) -> Snapshot {
        fn walk(c: &Container, inside: &str, skip: &[&str], out: &mut Snapshot) {
            if skip.iter().any(|s| inside.starts_with(s)) {
                return;
            }
            let p = c.path(inside);
            let Ok(meta) = fs::symlink_metadata(&p) else {
                return;
            };
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&p).unwrap();
                out.insert(
                    inside.to_owned(),
                    (0, format!("-> {}", target.display()).into_bytes()),
                );
            } else if meta.is_dir() {
                out.insert(
                    format!("{inside}/"),
                    (meta.permissions().mode(), Vec::new()),
                );
                let mut names: Vec<String> = fs::read_dir(&p)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                for n in names {
                    walk(
                        c,
                        &format!("{}/{n}", inside.trim_end_matches('/')),
                        skip,
                        out,
                    );
                }
            } else {
                out.insert(
                    inside.to_owned(),
                    (meta.permissions().mode(), fs::read(&p).unwrap()),
                );
            }
        }
        let mut out = Snapshot::new();
        for d in dirs {
            walk(self, d, skip, &mut out);
        }
        out
    }

    /// `GET /` with `Host: host` on `127.0.0.1:port`, by curl inside the container:
    /// (status code, body). Code 0: no HTTP answer.
    pub fn get(&self, host: &str, port: u16) -> (u16, String) {
        self.curl(&format!(
            "--resolve {host}:{port}:127.0.0.1 http://{host}:{port}/"
        ))
    }

    /// `GET /` with `Host: host` on `[::1]:80` (IPv6 loopback), by curl inside the container:
    /// (status code, body). Code 0: no HTTP answer.
    pub fn get_v6(&self, host: &str) -> (u16, String) {
        self.curl(&format!("-H 'Host: {host}' 'http://[::1]/'"))
    }

    /// One request by curl inside the container, `args` its target: (status code, body).
    /// Code 0: no HTTP answer.
    fn curl(&self, args: &str) -> (u16, String) {
        let out = self.sh(&format!(
            "curl -sS --max-time 5 -o /tmp/.body -w '%{{http_code}}' {args}; cat /tmp/.body 2>/dev/null; rm -f /tmp/.body"
        ));
        let code = out
            .stdout
            .get(..3)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (code, out.stdout.get(3..).unwrap_or("").to_owned())
    }

    /// `nginx -T`: every configuration file nginx loads, as it loads them.
    pub fn nginx_dump(&self) -> String {
        self.ok("nginx -T 2>/dev/null")
    }

    /// The nginx master's PID (inside the container) and its workers'.
    pub fn nginx_pids(&self) -> (u32, Vec<u32>) {
        let master: u32 = self
            .ok("systemctl show -p MainPID --value nginx")
            .trim()
            .parse()
            .unwrap();
        assert_ne!(master, 0, "nginx has no main process");
        let workers = self
            .sh(&format!("pgrep -P {master}"))
            .stdout
            .split_whitespace()
            .map(|p| p.parse().unwrap())
            .collect();
        (master, workers)
    }

    /// `Max open files` of a process inside the container: (soft, hard).
    pub fn nofile(&self, pid: u32) -> (String, String) {
        let limits = self.ok(&format!("cat /proc/{pid}/limits"));
        let line = limits
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .unwrap_or_else(|| panic!("no Max open files in\n{limits}"));
        let f: Vec<&str> = line["Max open files".len()..].split_whitespace().collect();
        (f[0].to_owned(), f[1].to_owned())
    }

    /// The backup sets `apply` made, by name.
    pub fn backup_sets(&self) -> Vec<String> {
        let mut sets: Vec<String> = fs::read_dir(self.path("/var/lib/nginx-gen/backups"))
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        sets.sort();
        sets
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.nspawn.take() {
            let pid = child.id().to_string();
            // An orderly power-off: systemd-nspawn turns SIGTERM into the container's
            // poweroff.
            let _ = run("kill", &["-TERM", &pid]);
            let deadline = Instant::now() + Duration::from_secs(15);
            while Instant::now() < deadline {
                if child.try_wait().ok().flatten().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if child.try_wait().ok().flatten().is_none() {
                // Killing the PID namespace's init kills every process in it.
                if self.leader != 0 && alive(self.leader) {
                    let _ = run("kill", &["-KILL", &self.leader.to_string()]);
                }
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        if self.overlay {
            let m = self.merged.to_str().unwrap().to_owned();
            if run("umount", &[&m]).code != Some(0) {
                let _ = run("umount", &["-l", &m]);
            }
            self.overlay = false;
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A scenario's line in the report, `| name | passed/FAILED | seconds | notes |`, appended to
/// `$NGINX_GEN_HOST_REPORT` when it ends (also by a panic).
#[derive(Debug)]
pub struct Scenario {
    name: &'static str,
    start: Instant,
    notes: std::cell::RefCell<Vec<String>>,
}

impl Scenario {
    /// Starts timing `name`.
    pub fn start(name: &'static str) -> Self {
        Self {
            name,
            start: Instant::now(),
            notes: std::cell::RefCell::default(),
        }
    }

    /// Something the report should say about this run (also printed now; once).
    pub fn note(&self, text: &str) {
        eprintln!("note: {text}");
        let text = text.replace('|', "\\|");
        let mut notes = self.notes.borrow_mut();
        if !notes.contains(&text) {
            notes.push(text);
        }
    }
}

impl Drop for Scenario {
    fn drop(&mut self) {
        let Some(report) = std::env::var_os("NGINX_GEN_HOST_REPORT") else {
            return;
        };
        let result = if std::thread::panicking() {
            "FAILED"
        } else {
            "passed"
        };
        if let Ok(mut f) = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(report)
        {
            let _ = writeln!(
                f,
                "| {} | {result} | {:.1} | {} |",
                self.name,
                self.start.elapsed().as_secs_f64(),
                self.notes.borrow().join("; ")
            );
        }
    }
}

/// The paths two snapshots disagree on, each with what differs.
pub fn differences(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, (mode, bytes)) in before {
        match after.get(path) {
            None => out.push(format!("{path}: gone")),
            Some((m, _)) if m != mode => out.push(format!("{path}: mode {mode:o} → {m:o}")),
            Some((_, b)) if b != bytes => out.push(format!("{path}: content changed")),
            Some(_) => {}
        }
    }
    for path in after.keys() {
        if !before.contains_key(path) {
            out.push(format!("{path}: new"));
        }
    }
    out
}

// --- what the scenarios share ----------------------------------------------------------------

/// The directories whose every byte a failed apply must leave as it was.
pub const STATE: [&str; 5] = [
    "/etc/nginx",
    "/etc/sysctl.d",
    "/etc/systemd/system/nginx.service.d",
    "/var/lib/nginx-gen",
    "/var/www",
];

/// The inputs of every scenario: 2 vCPU, 2G, Debian's nginx 1.22.1, a site `name` whose
/// document root is `/var/www/NAME`, Debian's default site kept as the default server.
pub fn inputs(name: &str) -> Vec<String> {
    [
        "--no-detect",
        "--vcpu",
        "2",
        "--ram",
        "2G",
        "--nginx-version",
        "1.22.1",
        "--openssl-version",
        "3.0.15",
        "--existing-default-server",
        "--server-name",
        name,
        "--root",
        &format!("/var/www/{name}"),
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

/// The page of `name`'s document root.
pub fn body(name: &str) -> String {
    format!("{name}: served by the tree nginx-gen installed\n")
}

/// A booted container with a document root for `names` (a page naming its site).
pub fn boot(label: &str, names: &[&str]) -> Container {
    let c = Container::boot(label);
    for n in names {
        c.write(&format!("/var/www/{n}/index.html"), body(n).as_bytes());
    }
    c
}

/// `nginx-gen apply ARGS` inside the container, with `env` added.
pub fn apply(c: &Container, args: &[String], env: &[(&str, &str)]) -> Out {
    let mut all = vec!["apply"];
    all.extend(args.iter().map(String::as_str));
    c.nginx_gen(&all, env)
}

/// `nginx-gen apply ARGS`, which must succeed: what it printed (both streams).
pub fn applied(c: &Container, args: &[String]) -> String {
    let out = apply(c, args, &[]);
    assert_eq!(out.code, Some(0), "apply failed: {}", out.both());
    out.stdout + &out.stderr
}

/// What `nginx-gen` (generate) prints for one file with these inputs.
pub fn generated(c: &Container, args: &[String], format: &str) -> String {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--format", format]);
    let out = c.nginx_gen(&all, &[]);
    assert_eq!(out.code, Some(0), "{}", out.both());
    out.stdout
}

/// Generates the install script (`--format script`) for `args` with the release binary
/// inside the container and runs it with `sh`.
pub fn script(c: &Container, args: &[String]) -> Out {
    let text = generated(c, args, "script");
    c.write("/root/install.sh", text.as_bytes());
    let out = c.sh("sh /root/install.sh");
    eprintln!("{}", out.both());
    out
}

/// The value of `key` in a file of nginx (`key value;`), systemd (`key=value`) or sysctl
/// (`key = value`) syntax: its first setting, comments aside.
pub fn directive(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix(key)?;
        // The key whole: `a.b` is not `a.b_c`.
        if !rest.starts_with([' ', '\t', '=']) {
            return None;
        }
        Some(
            rest.trim_start_matches([' ', '\t', '='])
                .trim_end_matches(';')
                .trim()
                .to_owned(),
        )
    })
}

/// `GET http://NAME/` on 127.0.0.1:80 inside the container answers 200 with `want`.
pub fn assert_serves(c: &Container, name: &str, want: &str) {
    let (code, got) = c.get(name, 80);
    assert_eq!(
        (code, got.as_str()),
        (200, want),
        "GET http://{name}/ inside the container"
    );
}

/// No difference between two snapshots; the message lists them.
pub fn assert_same(before: &Snapshot, after: &Snapshot, what: &str) {
    let diff = differences(before, after);
    assert!(diff.is_empty(), "{what}:\n  {}", diff.join("\n  "));
}

/// apply failed with exit 1, its message naming `step`.
pub fn assert_failed_at(out: &Out, step: &str) {
    assert_eq!(out.code, Some(1), "apply should fail: {}", out.both());
    assert!(
        out.stderr.contains(&format!("failed at step {step}:")),
        "the message names the step {step}: {}",
        out.both()
    );
}

/// After a failed apply, the files under `dirs` are those of `was`. A failed first apply
/// leaves its backup set, and the directory holding it (backup sets are never deleted,
/// docs/lifecycle.md); everything else is compared.
pub fn assert_restored(c: &Container, dirs: &[&str], was: &Snapshot) {
    let backups = "/var/lib/nginx-gen/backups";
    let mut now = c.snapshot(dirs, &[backups]);
    if !was.contains_key("/var/lib/nginx-gen/") {
        now.remove("/var/lib/nginx-gen/");
    }
    let then: Snapshot = was
        .iter()
        .filter(|(p, _)| !p.starts_with(backups))
        .map(|(p, v)| (p.clone(), v.clone()))
        .collect();
    assert_same(&then, &now, "files after the failed apply");
}

#[cfg(test)]
mod tests {
    use super::{Snapshot, differences, directive};

    #[test]
    fn differences_name_every_kind_of_change() {
        let a: Snapshot = [
            ("/a".to_owned(), (0o644, b"x".to_vec())),
            ("/b".to_owned(), (0o644, b"y".to_vec())),
            ("/c".to_owned(), (0o600, b"z".to_vec())),
        ]
        .into();
        assert!(differences(&a, &a).is_empty());
        let mut b = a.clone();
        b.remove("/a");
        b.insert("/b".into(), (0o644, b"changed".to_vec()));
        b.insert("/c".into(), (0o644, b"z".to_vec()));
        b.insert("/d".into(), (0o644, Vec::new()));
        assert_eq!(
            differences(&a, &b),
            [
                "/a: gone",
                "/b: content changed",
                "/c: mode 600 → 644",
                "/d: new"
            ]
        );
    }

    #[test]
    fn directives_are_read_from_nginx_systemd_and_sysctl_syntax() {
        let text = "# LimitNOFILE=1\n[Service]\nLimitNOFILESoft=1\nLimitNOFILE=524288\nworker_rlimit_nofile 10240;\nnet.core.somaxconn = 4096\n";
        assert_eq!(directive(text, "LimitNOFILE").as_deref(), Some("524288"));
        assert_eq!(
            directive(text, "worker_rlimit_nofile").as_deref(),
            Some("10240")
        );
        assert_eq!(
            directive(text, "net.core.somaxconn").as_deref(),
            Some("4096")
        );
        assert_eq!(directive(text, "worker_connections"), None);
    }
}
