//! Running (tree, nginx) jobs: the parent splits them over worker processes, each started
//! by `unshare --mount --net --pid --fork` in namespaces of its own; a worker brings up
//! loopback (IPv4 and IPv6), starts the app, and for every job generates the tree with the
//! real CLI, mounts it over `/etc/nginx` (tmpfs over `/var/www`, `/var/log/nginx`, `/run`,
//! `/var/lib/nginx` and the document root), starts nginx, runs the job's behaviours and stops
//! nginx. The host's `/etc/nginx` is never written: every mount lives and dies with the
//! worker's mount namespace.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nginx_gen_testsupport::run as sh;
use serde::{Deserialize, Serialize};

use crate::app::App;
use crate::behaviours::{self, Ctx, PlanNumbers, TOKEN, TOKEN_CONTENT};
use crate::grid::{self, APP_ADDR, Nginx, Special, Tree};

/// One (tree, nginx) to start and the behaviours to run on it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Job {
    pub nginx: String,
    pub tree: String,
    pub behaviours: Vec<String>,
}

/// One trial's outcome.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Outcome {
    pub name: String,
    pub ok: bool,
    pub message: String,
    pub secs: f64,
}

/// `behaviour::label::tree`.
pub fn trial_name(behaviour: &str, nginx: &str, tree: &str) -> String {
    format!("{behaviour}::{nginx}::{tree}")
}

/// Environment variables between the parent and its workers.
pub const WORKER_ENV: &str = "NGINX_GEN_BEHAVIOUR_WORKER";

/// The nginx-gen binary: `NGINX_GEN_BIN`, else the workspace's release build.
pub fn cli_bin() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("NGINX_GEN_BIN") {
        return Ok(p.into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    let bin = target.join("release/nginx-gen");
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "no nginx-gen binary at {} (cargo build --release -p nginx-gen, or set NGINX_GEN_BIN)",
            bin.display()
        ))
    }
}

/// Splits `jobs` over `workers` processes in fresh namespaces and collects the outcomes.
pub fn run_jobs(jobs: &[Job], workers: usize, work: &Path) -> Result<Vec<Outcome>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let workers = workers.clamp(1, jobs.len().max(1));
    let mut shards: Vec<Vec<Job>> = vec![Vec::new(); workers];
    for (i, job) in jobs.iter().enumerate() {
        shards[i % workers].push(job.clone());
    }
    let mut children = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        let dir = work.join(format!("worker-{i}"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let jobs_file = dir.join("jobs.json");
        std::fs::write(
            &jobs_file,
            serde_json::to_vec(shard).expect("jobs serialize"),
        )
        .map_err(|e| e.to_string())?;
        let child = Command::new("unshare")
            .args([
                "--mount",
                "--net",
                "--pid",
                "--fork",
                "--mount-proc",
                "--kill-child",
                "--",
            ])
            .arg(&exe)
            .env(WORKER_ENV, &dir)
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run unshare (util-linux): {e}"))?;
        children.push((dir, child));
    }
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for (dir, mut child) in children {
        let status = child.wait().map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(dir.join("outcomes.jsonl")).unwrap_or_default();
        for line in text.lines() {
            outcomes.push(serde_json::from_str::<Outcome>(line).map_err(|e| e.to_string())?);
        }
        if !status.success() {
            errors.push(format!("worker {} ended with {status}", dir.display()));
        }
    }
    if outcomes.is_empty() && !errors.is_empty() {
        return Err(errors.join("; "));
    }
    for e in errors {
        eprintln!("behaviour: {e}");
    }
    Ok(outcomes)
}

/// The worker's side: runs inside its namespaces, reads `DIR/jobs.json`, appends each
/// outcome to `DIR/outcomes.jsonl` as soon as it is known.
pub fn worker_main(dir: &Path) -> Result<(), String> {
    let jobs: Vec<Job> =
        serde_json::from_slice(&std::fs::read(dir.join("jobs.json")).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let out_path = dir.join("outcomes.jsonl");
    let mut w = Worker::new(dir)?;
    for job in &jobs {
        let outcomes = w.run_job(job);
        let mut text = String::new();
        for o in &outcomes {
            text.push_str(&serde_json::to_string(o).expect("outcome serializes"));
            text.push('\n');
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&out_path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Mount points a job replaces with a fresh tmpfs.
const TMPFS: &[&str] = &["/var/www", "/var/log/nginx", "/run", "/var/lib/nginx"];

#[derive(Debug)]
struct Worker {
    dir: PathBuf,
    app: App,
    cli: PathBuf,
    nginx: Vec<Nginx>,
    cert: PathBuf,
    key: PathBuf,
    mounted: Vec<String>,
}

impl Worker {
    fn new(dir: &Path) -> Result<Self, String> {
        sh("ip", &["link", "set", "lo", "up"])?;
        // An address that is not loopback, for the status server's refusal.
        sh(
            "ip",
            &[
                "addr",
                "add",
                &format!("{}/32", grid::OTHER_ADDR),
                "dev",
                "lo",
            ],
        )?;
        // An address of Cloudflare's shipped ranges, as its edge (clientaddr.rs).
        let cdn = format!("{}/32", crate::clientaddr::CDN_ADDR);
        sh("ip", &["addr", "add", &cdn, "dev", "lo"])?;
        // The second LB address needs no address of its own: 127.0.0.0/8 is local on lo.
        let nginx = grid::nginx_list()?;
        let cli = cli_bin()?;
        let cert = nginx_gen_testsupport::self_signed(dir, "behaviour.test")?;
        // Names resolve to loopback for wrk (curl uses --resolve).
        let hosts = dir.join("hosts");
        let mut text = String::from("127.0.0.1 localhost\n::1 localhost ip6-localhost\n");
        for t in grid::trees() {
            for n in t.names.iter().chain(std::iter::once(&t.host().to_string())) {
                if n.parse::<std::net::IpAddr>().is_err() && n != "_" {
                    let _ = writeln!(text, "127.0.0.1 {n}");
                }
            }
        }
        std::fs::write(&hosts, text).map_err(|e| e.to_string())?;
        sh(
            "mount",
            &["--bind", &hosts.display().to_string(), "/etc/hosts"],
        )?;
        let app = App::start(APP_ADDR).map_err(|e| format!("app on {APP_ADDR}: {e}"))?;
        Ok(Self {
            dir: dir.to_path_buf(),
            app,
            cli,
            nginx,
            cert: cert.cert,
            key: cert.key,
            mounted: Vec::new(),
        })
    }

    fn run_job(&mut self, job: &Job) -> Vec<Outcome> {
        let start = Instant::now();
        let all = behaviours::all();
        let fail_all = |msg: &str, secs: f64| {
            job.behaviours
                .iter()
                .map(|b| Outcome {
                    name: trial_name(b, &job.nginx, &job.tree),
                    ok: false,
                    message: msg.to_string(),
                    secs,
                })
                .collect::<Vec<_>>()
        };
        let Some(tree) = grid::trees().into_iter().find(|t| t.id == job.tree) else {
            return fail_all("unknown tree", 0.0);
        };
        let Some(nginx) = self.nginx.iter().find(|n| n.label == job.nginx).cloned() else {
            return fail_all("unknown nginx label", 0.0);
        };
        let running = match self.start(&tree, &nginx) {
            Ok(r) => r,
            Err(e) => return fail_all(&e, start.elapsed().as_secs_f64()),
        };
        let mut outcomes = Vec::new();
        for name in &job.behaviours {
            let Some(b) = all.iter().find(|b| b.name == name) else {
                outcomes.push(Outcome {
                    name: trial_name(name, &job.nginx, &job.tree),
                    ok: false,
                    message: "unknown behaviour".into(),
                    secs: 0.0,
                });
                continue;
            };
            let t0 = Instant::now();
            let ctx = Ctx {
                tree: &tree,
                nginx: &nginx,
                app: &self.app,
                scratch: &running.scratch,
                numbers: running.numbers,
                pid: running.child.id(),
                app_js_gz: running.gz.clone(),
                app_js_br: running.br.clone(),
            };
            let result = catch_panic(|| (b.run)(&ctx));
            let mut message = result.err().unwrap_or_default();
            if !message.is_empty()
                && let Some(log) = error_log_tail()
            {
                let _ = write!(message, "\n  nginx error.log: {log}");
            }
            outcomes.push(Outcome {
                name: trial_name(b.name, &job.nginx, &job.tree),
                ok: message.is_empty(),
                message,
                secs: t0.elapsed().as_secs_f64(),
            });
        }
        drop(running);
        outcomes
    }

    fn remount(&mut self, args: &[&str], target: &str) -> Result<(), String> {
        if self.mounted.iter().any(|m| m == target) {
            sh("umount", &["-l", target])?;
            self.mounted.retain(|m| m != target);
        }
        std::fs::create_dir_all(target).map_err(|e| format!("{target}: {e}"))?;
        let mut a: Vec<&str> = args.to_vec();
        a.push(target);
        sh("mount", &a)?;
        self.mounted.push(target.to_string());
        Ok(())
    }

    fn start(&mut self, tree: &Tree, nginx: &Nginx) -> Result<Running, String> {
        let jobdir = self.dir.join(format!("{}-{}", tree.id, nginx.label));
        let _ = std::fs::remove_dir_all(&jobdir);
        std::fs::create_dir_all(&jobdir).map_err(|e| e.to_string())?;
        let args = tree.args(nginx, &self.cert, &self.key);
        let over = std::env::var_os("NGINX_GEN_BEHAVIOUR_OVERRIDE")
            .map(|d| PathBuf::from(d).join(tree.id))
            .filter(|d| d.join("etc/nginx/nginx.conf").exists());
        let (out, numbers) = if let Some(dir) = over {
            eprintln!(
                "behaviour: {} on {}: using the hand-made tree {}",
                tree.id,
                nginx.label,
                dir.display()
            );
            let numbers = numbers_from_files(&dir);
            (dir, numbers)
        } else {
            let out = jobdir.join("tree");
            let generated = Command::new(&self.cli)
                .args(&args)
                .arg("--out")
                .arg(&out)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", self.cli.display()))?;
            if !generated.status.success() {
                return Err(format!(
                    "nginx-gen rejected the inputs (exit {}): {}",
                    generated.status.code().unwrap_or(-1),
                    String::from_utf8_lossy(&generated.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .trim()
                ));
            }
            (out, self.plan_numbers(&args)?)
        };

        // /etc/nginx: the package's files (mime.types, modules-enabled for Debian's nginx),
        // the generated tree on top, no sites of the host.
        let etc = jobdir.join("etc-nginx");
        sh("cp", &["-a", "/etc/nginx/.", &etc.display().to_string()])?;
        for sub in ["sites-enabled", "conf.d"] {
            let _ = std::fs::remove_dir_all(etc.join(sub));
            std::fs::create_dir_all(etc.join(sub)).map_err(|e| e.to_string())?;
        }
        if !nginx.debian {
            // Debian's modules are built for its 1.22 and refuse to load elsewhere; a build's
            // own brotli modules take their place, as a package of that version would add them.
            let enabled = etc.join("modules-enabled");
            let _ = std::fs::remove_dir_all(&enabled);
            std::fs::create_dir_all(&enabled).map_err(|e| e.to_string())?;
            if let Some(dir) = grid::brotli_modules(false, nginx.prefix.as_deref()) {
                for m in ["filter", "static"] {
                    std::fs::write(
                        enabled.join(format!("50-mod-http-brotli-{m}.conf")),
                        format!(
                            "load_module {}/ngx_http_brotli_{m}_module.so;\n",
                            dir.display()
                        ),
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
        }
        sh(
            "cp",
            &[
                "-a",
                &format!("{}/etc/nginx/.", out.display()),
                &etc.display().to_string(),
            ],
        )?;
        if tree.special == Special::DebianSites {
            std::fs::write(
                etc.join("sites-enabled/other.conf"),
                "server {\n    listen 80;\n    listen [::]:80;\n    server_name other.test;\n    location / { return 200 \"other\"; }\n}\n",
            )
            .map_err(|e| e.to_string())?;
            std::fs::write(etc.join("sites-enabled/default"), DEBIAN_DEFAULT_SITE)
                .map_err(|e| e.to_string())?;
        }

        let etc_s = etc.display().to_string();
        self.remount(&["--bind", &etc_s], "/etc/nginx")?;
        for t in TMPFS {
            self.remount(&["-t", "tmpfs", "-o", "mode=755", "tmpfs"], t)?;
        }
        if !tree.root.starts_with("/var/www/") {
            self.remount(&["-t", "tmpfs", "-o", "mode=755", "tmpfs"], tree.root)?;
        }
        let (gz, br) = write_content(Path::new(tree.root))?;

        let scratch = jobdir.join("scratch");
        std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
        let stderr_path = jobdir.join("nginx.stderr");
        let mut cmd = Command::new(&nginx.bin);
        if let Some(p) = &nginx.prefix {
            cmd.arg("-p").arg(p);
        }
        let child = cmd
            .args([
                "-e",
                "stderr",
                "-c",
                "/etc/nginx/nginx.conf",
                "-g",
                "daemon off;",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr_path).map_err(|e| e.to_string())?)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", nginx.bin.display()))?;
        let mut running = Running {
            child,
            scratch,
            numbers,
            gz,
            br,
            stderr_path,
        };
        running.wait_ready()?;
        self.app.reset();
        Ok(running)
    }

    /// The numbers the probes need, from `nginx-gen --format json`.
    fn plan_numbers(&self, args: &[String]) -> Result<PlanNumbers, String> {
        let out = Command::new(&self.cli)
            .args(args)
            .args(["--format", "json"])
            .output()
            .map_err(|e| e.to_string())?;
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).map_err(|e| format!("--format json: {e}"))?;
        // The number after `prefix` in the value of a setting called `name`.
        let setting = |name: &str, prefix: &str| {
            v["settings"].as_array().and_then(|s| {
                s.iter()
                    .filter(|s| s["name"] == name)
                    .filter_map(|s| s["value"].as_str()?.strip_prefix(prefix))
                    .find_map(|v| v.parse::<usize>().ok())
            })
        };
        let on = |name: &str| {
            v["settings"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["name"] == name && s["value"] == "on"))
        };
        Ok(PlanNumbers {
            workers: setting("worker_processes", "").unwrap_or(1),
            keepalive: setting("keepalive", ""),
            tickets: setting("ssl_conf_command", "NumTickets "),
            server_order: on("ssl_prefer_server_ciphers"),
        })
    }
}

/// [`PlanNumbers`] read from a tree's files (for a hand-made tree).
fn numbers_from_files(dir: &Path) -> PlanNumbers {
    let mut text = std::fs::read_to_string(dir.join("etc/nginx/nginx.conf")).unwrap_or_default();
    if let Ok(entries) = std::fs::read_dir(dir.join("etc/nginx/conf.d")) {
        for e in entries.flatten() {
            text.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
        }
    }
    let number = |key: &str| {
        text.lines().find_map(|l| {
            let rest = l.trim().strip_prefix(key)?.trim().strip_suffix(';')?;
            rest.trim().parse::<usize>().ok()
        })
    };
    PlanNumbers {
        workers: number("worker_processes ").unwrap_or(1),
        keepalive: number("keepalive "),
        tickets: number("ssl_conf_command NumTickets "),
        server_order: text
            .lines()
            .any(|l| l.trim() == "ssl_prefer_server_ciphers on;"),
    }
}

/// Debian 12's stock `sites-available/default`, without its comments.
const DEBIAN_DEFAULT_SITE: &str = "server {\n\tlisten 80 default_server;\n\tlisten [::]:80 default_server;\n\troot /var/www/html;\n\tindex index.html index.htm index.nginx-debian.html;\n\tserver_name _;\n\tlocation / {\n\t\ttry_files $uri $uri/ =404;\n\t}\n}\n";

/// The document root's files and the ACME token; returns the bytes of `app.js.gz` and
/// `app.js.br` (each made from a text of its own, so the body tells which file was sent).
fn write_content(root: &Path) -> Result<(Vec<u8>, Vec<u8>), String> {
    let w = |rel: &str, data: &[u8]| -> Result<(), String> {
        let p = root.join(rel.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().expect("has a parent")).map_err(|e| e.to_string())?;
        std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
    };
    w(
        "/index.html",
        b"<!doctype html><title>site</title><h1>site</h1>\n",
    )?;
    for h in behaviours::HIDDEN {
        w(h, b"SECRET=do-not-serve\n")?;
    }
    w(
        "/.well-known/security.txt",
        b"Contact: mailto:security@example.com\n",
    )?;
    w("/m.mjs", b"export const x = 1;\n")?;
    w("/site.webmanifest", b"{\"name\":\"site\"}\n")?;
    w("/exists.png", crate::behaviours::EXISTS_PNG)?;
    // Stray precompressed copies of an image, which nginx-gen's trees never look for.
    w("/exists.png.gz", b"a stray .gz of exists.png")?;
    w("/exists.png.br", b"a stray .br of exists.png")?;
    let plain = "console.log('served from app.js, uncompressed');\n".repeat(20);
    w("/app.js", plain.as_bytes())?;
    let gz = compress("gzip", &"console.log('from app.js.gz');\n".repeat(20))?;
    w("/app.js.gz", &gz)?;
    let br = compress("brotli", &"console.log('from app.js.br');\n".repeat(20))?;
    w("/app.js.br", &br)?;
    let acme = Path::new("/var/www/_letsencrypt/.well-known/acme-challenge");
    std::fs::create_dir_all(acme).map_err(|e| e.to_string())?;
    std::fs::write(acme.join(TOKEN), TOKEN_CONTENT).map_err(|e| e.to_string())?;
    Ok((gz, br))
}

fn compress(tool: &str, text: &str) -> Result<Vec<u8>, String> {
    use std::io::Write as _;
    let mut child = Command::new(tool)
        .arg("-c")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {tool} (scripts/apt-missing.sh {tool}): {e}"))?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(text.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{tool} failed"))
    }
}

/// Runs a probe; a panic is a failure like any other (every probe bounds its own time:
/// curl `--max-time`, wrk's duration, a watchdog on `openssl s_client`).
fn catch_panic(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err("the probe panicked".into()))
}

#[derive(Debug)]
struct Running {
    child: Child,
    scratch: PathBuf,
    numbers: PlanNumbers,
    gz: Vec<u8>,
    br: Vec<u8>,
    stderr_path: PathBuf,
}

impl Running {
    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                let err = std::fs::read_to_string(&self.stderr_path).unwrap_or_default();
                let log = error_log_tail().unwrap_or_default();
                return Err(format!(
                    "nginx did not start ({status}): {} {log}",
                    err.lines()
                        .filter(|l| l.contains("[emerg]") || l.contains("[alert]"))
                        .collect::<Vec<_>>()
                        .join(" ")
                        .trim()
                ));
            }
            if std::net::TcpStream::connect_timeout(
                &"127.0.0.1:80".parse().expect("address"),
                Duration::from_millis(200),
            )
            .is_ok()
            {
                // The listeners are open; give the workers a moment to start accepting.
                std::thread::sleep(Duration::from_millis(100));
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err("nginx started but nothing listens on 127.0.0.1:80".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The last `[emerg]`/`[alert]`/`[crit]` lines of the tree's error log.
fn error_log_tail() -> Option<String> {
    let text = std::fs::read_to_string("/var/log/nginx/error.log").ok()?;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            ["[emerg]", "[crit]", "[alert]"]
                .iter()
                .any(|k| l.contains(k))
        })
        .collect();
    (!lines.is_empty()).then(|| lines[lines.len().saturating_sub(2)..].join(" | "))
}

impl Drop for Running {
    fn drop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_a_failure() {
        assert_eq!(catch_panic(|| Ok(())), Ok(()));
        assert_eq!(catch_panic(|| Err("x".into())), Err("x".into()));
        assert_eq!(
            catch_panic(|| panic!("boom")),
            Err("the probe panicked".into())
        );
    }

    #[test]
    fn names_and_jobs_round_trip() {
        assert_eq!(
            trial_name("acme_token_over_http", "1.22", "proxy-tls-intermediate"),
            "acme_token_over_http::1.22::proxy-tls-intermediate"
        );
        let job = Job {
            nginx: "1.22".into(),
            tree: "t".into(),
            behaviours: vec!["hsts".into()],
        };
        let text = serde_json::to_string(&job).unwrap();
        assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), job);
    }
}
