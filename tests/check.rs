//! `nginx-gen check` against a real, running nginx: Debian's nginx 1.22 started in a private
//! network and mount namespace (`unshare --net --mount`, loopback up, a private `/run` and
//! `/var/log/nginx`, a copy of `/etc/nginx` bound over `/etc/nginx`), so it owns its own
//! port 80, pid file, logs and network sysctls, and neither disturbs nor sees the host's
//! nginx. No systemd: nginx is started by hand, under `prlimit` for its file limit. `check`
//! runs inside the same namespaces (`nsenter`), as a monitoring job on that host would.
//!
//! Needs root, util-linux (`unshare`, `nsenter`, `prlimit`), iproute2 (`ip`, `ss`) and
//! Debian's nginx (`scripts/setup.sh` installs them). Fails, never skips, without them.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nginx-gen");

/// A private network and mount namespace, held open by a `sleep` (killed on drop, after
/// the nginx started in it).
struct Ns {
    holder: Child,
    tree: tempfile::TempDir,
}

impl Ns {
    /// The namespace with a copy of this host's `/etc/nginx` bound over `/etc/nginx`, a
    /// private `/run` and `/var/log/nginx`, and loopback up.
    fn new() -> Self {
        let uid = run(Command::new("id").arg("-u"));
        assert_eq!(
            String::from_utf8_lossy(&uid.stdout).trim(),
            "0",
            "the check tests start nginx in namespaces: run them as root"
        );
        assert!(
            Path::new("/usr/sbin/nginx").exists() && Path::new("/etc/nginx/nginx.conf").exists(),
            "Debian's nginx is not installed: run scripts/setup.sh"
        );
        let tree = tempfile::tempdir().unwrap();
        let copied = Command::new("cp")
            .args(["-a", "/etc/nginx"])
            .arg(tree.path())
            .status()
            .unwrap();
        assert!(copied.success());
        let holder = Command::new("unshare")
            .args([
                "--net",
                "--mount",
                "--propagation",
                "private",
                "--",
                "sleep",
                "600",
            ])
            .stdin(Stdio::null())
            .spawn()
            .expect("unshare runs");
        let ns = Self { holder, tree };
        // unshare execs sleep in the same process once the namespaces exist.
        let deadline = Instant::now() + Duration::from_secs(10);
        while fs::read_to_string(format!("/proc/{}/comm", ns.pid())).unwrap_or_default()
            != "sleep\n"
        {
            assert!(Instant::now() < deadline, "unshare did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        let conf = ns.conf_dir();
        for cmd in [
            "ip link set lo up".to_owned(),
            "mount -t tmpfs tmpfs /run".to_owned(),
            "mount -t tmpfs tmpfs /var/log/nginx".to_owned(),
            format!("mount --bind {} /etc/nginx", conf.display()),
        ] {
            ns.ok(&cmd);
        }
        ns
    }

    fn pid(&self) -> u32 {
        self.holder.id()
    }

    /// The copy of `/etc/nginx` that the namespace sees at `/etc/nginx`.
    fn conf_dir(&self) -> std::path::PathBuf {
        self.tree.path().join("nginx")
    }

    /// Runs a shell command in the namespaces.
    fn sh(&self, script: &str) -> Output {
        run(Command::new("nsenter").args([
            "-t",
            &self.pid().to_string(),
            "--net",
            "--mount",
            "--",
            "sh",
            "-c",
            script,
        ]))
    }

    /// [`Self::sh`], which must succeed.
    fn ok(&self, script: &str) -> String {
        let out = self.sh(script);
        assert!(
            out.status.success(),
            "{script}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts nginx (its default `/etc/nginx/nginx.conf`) with the file limits `soft:hard`
    /// and waits for its workers; returns the master's pid.
    fn start_nginx(&self, soft: u64, hard: u64) -> u32 {
        self.ok(&format!("prlimit --nofile={soft}:{hard} /usr/sbin/nginx"));
        let deadline = Instant::now() + Duration::from_secs(20);
        // Ready: the pid file, a socket on port 80, and as many workers for 0.6 s.
        let mut seen = (0, 0);
        loop {
            let pid = self.sh("cat /run/nginx.pid");
            let listening = self.sh("ss -ltnH | grep -c ':80 '");
            let master = String::from_utf8_lossy(&pid.stdout)
                .trim()
                .parse::<u32>()
                .ok();
            if let Some(m) = master
                && String::from_utf8_lossy(&listening.stdout).trim() != "0"
            {
                let n = workers_of(m);
                seen = if n > 0 && n == seen.0 {
                    (n, seen.1 + 1)
                } else {
                    (n, 0)
                };
                if seen.1 >= 3 {
                    return m;
                }
            }
            assert!(Instant::now() < deadline, "nginx did not start");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// `nginx-gen check ARGS` in the namespaces.
    fn check(&self, args: &[&str]) -> Output {
        run(Command::new("nsenter")
            .args([
                "-t",
                &self.pid().to_string(),
                "--net",
                "--mount",
                "--",
                BIN,
                "check",
            ])
            .args(args))
    }
}

impl Drop for Ns {
    fn drop(&mut self) {
        // Stop the nginx started here (its pid file is this namespace's), then the holder.
        let out = self.sh("test -f /run/nginx.pid && cat /run/nginx.pid");
        if let Ok(master) = String::from_utf8_lossy(&out.stdout).trim().parse::<u32>() {
            let _ = Command::new("kill")
                .args(["-QUIT", &master.to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while Path::new(&format!("/proc/{master}")).exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = self.holder.kill();
        let _ = self.holder.wait();
    }
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

/// The worker processes of a master.
fn workers_of(master: u32) -> usize {
    let mut n = 0;
    for e in fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let stat = fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        let cmdline = fs::read(e.path().join("cmdline")).unwrap_or_default();
        if ppid == Some(master) && String::from_utf8_lossy(&cmdline).contains("worker process") {
            n += 1;
        }
    }
    n
}

/// This process's hard file limit: the most nginx can be given here.
fn hard_limit() -> u64 {
    let limits = fs::read_to_string("/proc/self/limits").unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    line.split_whitespace().nth(4).unwrap().parse().unwrap()
}

/// The CPUs this process (and so nginx) may use, as generate detects them.
fn cpus() -> u32 {
    nginx_gen::host::vcpu().unwrap().0
}

/// The inputs of the plan the tests check against (the site `check.example`).
fn inputs() -> Vec<String> {
    [
        "--no-detect",
        "--vcpu",
        &cpus().to_string(),
        "--ram",
        "4G",
        "--nginx-version",
        "1.22.1",
        "--openssl-version",
        "3.0.11",
        "--server-name",
        "check.example",
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

fn with(args: &[&str]) -> Vec<String> {
    inputs()
        .into_iter()
        .chain(args.iter().map(ToString::to_string))
        .collect()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `[check] subject` headings of a text report.
fn subjects_of_text(report: &str) -> BTreeSet<String> {
    report
        .lines()
        .filter(|l| l.starts_with('['))
        .map(ToOwned::to_owned)
        .collect()
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn subjects_of_json(doc: &serde_json::Value) -> BTreeSet<String> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "[{}] {}",
                f["check"].as_str().unwrap(),
                f["subject"].as_str().unwrap()
            )
        })
        .collect()
}

/// The finding of `check` whose subject contains `subject`.
fn finding<'a>(doc: &'a serde_json::Value, check: &str, subject: &str) -> &'a serde_json::Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == check && f["subject"].as_str().unwrap().contains(subject))
        .unwrap_or_else(|| panic!("no [{check}] {subject} in {doc:#}"))
}

/// (a) Debian's stock configuration, started with systemd's default soft limit: drift in
/// `worker_connections` (768), the master's soft file limit and the listen backlog (511);
/// (d) the JSON report parses and lists what the text lists.
#[test]
fn a_stock_debian_nginx_drifts_from_the_plan() {
    let ns = Ns::new();
    let stock = fs::read_to_string(ns.conf_dir().join("nginx.conf")).unwrap();
    assert!(
        stock.contains("worker_connections 768;"),
        "this host's /etc/nginx/nginx.conf is not Debian's stock one"
    );
    let hard = hard_limit();
    let master = ns.start_nginx(1024, hard);

    let out = ns.check(&with(&[]).iter().map(String::as_str).collect::<Vec<_>>());
    let report = text(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("check: inputs from the flags"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for expected in [
        "[config] events block: worker_connections\n    planned: 4096\n    found:   768\n"
            .to_owned(),
        format!("[limits] nginx master (pid {master}): Max open files"),
        format!("found:   soft 1024, hard {hard}"),
        "[backlog] listen 0.0.0.0:80: backlog\n    planned: 4096\n    found:   511\n".to_owned(),
        // Debian's default site, not a catch-all, answers names no site has.
        "[probe] catch-all on 127.0.0.1:80\n".to_owned(),
        "[config] server check.example\n".to_owned(),
    ] {
        assert!(report.contains(&expected), "{expected}\n{report}");
    }
    assert!(report.contains("differences from the plan"), "{report}");

    let json = ns.check(
        &with(&["--format", "json"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(json.status.code(), Some(1));
    let doc = json_of(&json);
    assert_eq!(doc["matches"], false);
    assert_eq!(doc["inputs_from"], "the flags");
    assert_eq!(subjects_of_json(&doc), subjects_of_text(&report));
    let wc = finding(&doc, "config", "worker_connections");
    assert_eq!(
        (wc["planned"].as_str(), wc["found"].as_str()),
        (Some("4096"), Some("768"))
    );
    assert!(
        wc["reason"].as_str().unwrap().contains("Connection slots"),
        "{wc}"
    );
    assert!(
        wc["fix"]
            .as_str()
            .unwrap()
            .contains("worker_connections 4096;"),
        "{wc}"
    );
    for f in doc["findings"].as_array().unwrap() {
        for key in ["check", "subject", "planned", "found", "reason", "fix"] {
            assert!(
                f[key].as_str().is_some_and(|s| !s.is_empty()),
                "{key} of {f}"
            );
        }
    }
}

/// The plan's sysctl.d file applied in the namespace (every key of it is a network one).
fn apply_sysctls(ns: &Ns, file: &str) {
    for line in file
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('='))
    {
        let (key, value) = line.split_once('=').unwrap();
        let (key, value) = (key.trim(), value.trim());
        assert!(
            key.starts_with("net."),
            "{key} is not network-namespaced: the test cannot set it"
        );
        ns.ok(&format!("sysctl -q -w {key}='{value}'"));
    }
}

/// Installs in the namespace the tree nginx-gen generates for `args` (Debian's default site
/// removed: the plan's catch-all is the default server), applies its sysctls and starts
/// nginx with its file limit, as far as this machine's hard limit allows. Returns the
/// limit given and the findings that remain: the master's limit when the planned one is above
/// what a container may set.
fn start_generated(ns: &Ns, args: &[String]) -> (u64, BTreeSet<String>) {
    let out_dir = tempfile::tempdir().unwrap();
    let generated_run = run(Command::new(BIN)
        .args(args)
        .arg("--out")
        .arg(out_dir.path()));
    assert!(
        generated_run.status.success(),
        "{}",
        String::from_utf8_lossy(&generated_run.stderr)
    );
    let conf = ns.conf_dir();
    for e in fs::read_dir(conf.join("sites-enabled")).unwrap() {
        fs::remove_file(e.unwrap().path()).unwrap();
    }
    let generated = out_dir.path().join("etc/nginx");
    fs::copy(generated.join("nginx.conf"), conf.join("nginx.conf")).unwrap();
    fs::copy(
        generated.join("conf.d/check.example.conf"),
        conf.join("conf.d/check.example.conf"),
    )
    .unwrap();
    let sysctl = fs::read_to_string(out_dir.path().join("etc/sysctl.d/99-nginx-gen.conf")).unwrap();
    apply_sysctls(ns, &sysctl);
    let drop_in = fs::read_to_string(
        out_dir
            .path()
            .join("etc/systemd/system/nginx.service.d/nginx-gen.conf"),
    )
    .unwrap();
    let planned: u64 = drop_in
        .lines()
        .find_map(|l| l.strip_prefix("LimitNOFILE="))
        .unwrap()
        .parse()
        .unwrap();
    // A container's hard limit cannot be raised from inside it (no CAP_SYS_RESOURCE in the
    // initial user namespace): the one difference this machine may be unable to remove.
    let limit = planned.min(hard_limit());
    let master = ns.start_nginx(limit, limit);
    let mut expected = BTreeSet::new();
    if limit < planned {
        expected.insert(format!(
            "[limits] nginx master (pid {master}): Max open files"
        ));
    }
    (limit, expected)
}

/// (b) The tree nginx-gen generates, started with the planned limits (as far as this
/// machine's hard limit allows) and the planned sysctls: nothing differs but that limit;
/// `net.core.somaxconn` raised above the plan (the guide's 65535) is no drift; (c) lowered,
/// it is named; (d) JSON agrees.
#[test]
fn the_generated_tree_matches_until_a_sysctl_changes() {
    let ns = Ns::new();
    let conf = ns.conf_dir();
    let (limit, expected) = start_generated(&ns, &inputs());
    let args = inputs();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ns.check(&args);
    let report = text(&out);
    if !expected.is_empty() {
        assert!(
            report.contains(&format!("found:   soft {limit}, hard {limit}")),
            "{report}"
        );
    }
    assert_eq!(subjects_of_text(&report), expected, "{report}");
    assert_eq!(
        out.status.code(),
        Some(i32::from(!expected.is_empty())),
        "{report}"
    );
    if expected.is_empty() {
        assert!(report.starts_with("the host matches the plan"), "{report}");
    }

    // A floor: the guide's higher somaxconn meets the plan.
    ns.ok("sysctl -q -w net.core.somaxconn=65535");
    let raised = text(&ns.check(&args));
    assert_eq!(subjects_of_text(&raised), expected, "{raised}");

    // (c) The kernel caps every listen queue at somaxconn: lowered, it is drift.
    ns.ok("sysctl -q -w net.core.somaxconn=128");
    let json = ns.check(&[args.as_slice(), &["--format", "json"]].concat());
    assert_eq!(json.status.code(), Some(1));
    let doc = json_of(&json);
    assert_eq!(doc["matches"], false);
    let mut drifted = expected.clone();
    drifted.insert("[sysctl] net.core.somaxconn".into());
    // The sockets keep the backlog they were opened with; the next start would not.
    drifted.insert("[backlog] listen 0.0.0.0:80: backlog".into());
    drifted.insert("[backlog] listen [::]:80: backlog".into());
    assert_eq!(subjects_of_json(&doc), drifted, "{doc:#}");
    let s = finding(&doc, "sysctl", "net.core.somaxconn");
    assert_eq!(
        (s["planned"].as_str(), s["found"].as_str()),
        (Some("at least 4096"), Some("128"))
    );
    assert!(
        s["fix"]
            .as_str()
            .unwrap()
            .starts_with("sysctl -w net.core.somaxconn='4096'"),
        "{s}"
    );
    let b = finding(&doc, "backlog", "0.0.0.0:80");
    assert_eq!(
        b["found"],
        "4096 now; net.core.somaxconn 128 caps it at the next start of nginx"
    );
    let again = ns.check(&args);
    assert_eq!(subjects_of_text(&text(&again)), drifted);

    // nginx -T reads the files as they are now: one changed after the last (re)load is named.
    let site = fs::File::options()
        .write(true)
        .open(conf.join("conf.d/check.example.conf"))
        .unwrap();
    site.set_modified(std::time::SystemTime::now() + Duration::from_mins(1))
        .unwrap();
    let stale = text(&ns.check(&args));
    drifted.insert("[config] loaded configuration".into());
    assert_eq!(subjects_of_text(&stale), drifted, "{stale}");
    assert!(
        stale.contains("/etc/nginx/conf.d/check.example.conf changed"),
        "{stale}"
    );
}

/// Upstream failures nginx itself logs (a proxy to an application that is not running)
/// are counted from the error log the running configuration names.
#[test]
fn upstream_failures_in_the_error_log_are_findings() {
    let ns = Ns::new();
    let args = with(&["--workload", "proxy", "--upstream", "127.0.0.1:9"]);
    let (_, expected) = start_generated(&ns, &args);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let before = ns.check(&args);
    assert_eq!(
        subjects_of_text(&text(&before)),
        expected,
        "{}",
        text(&before)
    );
    for _ in 0..3 {
        let status = ns.ok(
            "curl -s -o /dev/null -w '%{http_code}' -H 'Host: check.example' http://127.0.0.1/",
        );
        assert_eq!(status, "502");
    }
    let out = ns.check(&[args.as_slice(), &["--format", "json"]].concat());
    assert_eq!(out.status.code(), Some(1));
    let doc = json_of(&out);
    let f = finding(
        &doc,
        "error-log",
        "/var/log/nginx/error.log: \"connect() failed\"",
    );
    // Three requests, and the first check's own probe of the site (read after it).
    let found = f["found"].as_str().unwrap();
    assert!(found.starts_with("4, last at 20"), "{f}");
    assert!(f["fix"].as_str().unwrap().contains("application"), "{f}");
}

/// Without a running nginx every check that needs it is one finding, not a panic.
#[test]
fn no_running_nginx_is_a_finding() {
    let ns = Ns::new();
    let args = inputs();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ns.check(&[args.as_slice(), &["--format", "json"]].concat());
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json_of(&out);
    let f = finding(&doc, "nginx", "nginx master");
    assert!(
        f["found"].as_str().unwrap().contains("/run/nginx.pid"),
        "{f}"
    );
}

/// (e) Bad input or usage: exit 2, nothing on stdout.
#[test]
fn bad_input_exits_2() {
    let root = tempfile::tempdir().unwrap();
    let lib = root.path().join("var/lib/nginx-gen");
    fs::create_dir_all(&lib).unwrap();
    fs::write(
        lib.join("manifest.json"),
        "{\"command\": \"nginx-gen --vcpu\", \"files\": []}",
    )
    .unwrap();
    let root_arg = root.path().to_str().unwrap();
    for args in [
        vec!["--no-detect", "--vcpu", "0"],
        vec!["--format", "yaml"],
        vec!["--out", "/tmp"],
        vec!["--install-root", "/nonexistent/root"],
        // No input flag: the manifest's command, which does not parse.
        vec!["--install-root", root_arg],
    ] {
        let out = run(Command::new(BIN).arg("check").args(&args));
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// With no input flag, the inputs are the manifest's command (and stderr says so).
#[test]
fn inputs_come_from_the_manifest() {
    let root = tempfile::tempdir().unwrap();
    let lib = root.path().join("var/lib/nginx-gen");
    fs::create_dir_all(&lib).unwrap();
    let command = format!("nginx-gen {}", with(&["--workload", "proxy"]).join(" "));
    let manifest = serde_json::json!({"command": command, "files": [], "backup": "x"});
    fs::write(lib.join("manifest.json"), manifest.to_string()).unwrap();
    let out = run(Command::new(BIN)
        .args(["check", "--format", "json", "--install-root"])
        .arg(root.path()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("check: inputs from the command in"),
        "{stderr}"
    );
    let doc = json_of(&out);
    assert!(
        doc["inputs_from"]
            .as_str()
            .unwrap()
            .ends_with("var/lib/nginx-gen/manifest.json")
    );
    assert!(
        doc["command"]
            .as_str()
            .unwrap()
            .contains("--workload proxy"),
        "{doc:#}"
    );
}
