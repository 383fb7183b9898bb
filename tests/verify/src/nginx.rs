//! Writing generated trees to disk and checking them with a real `nginx -t`, in parallel.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use nginx_gen_core::File;

/// A real nginx binary.
#[derive(Debug, Clone)]
pub struct Nginx {
    /// The binary.
    pub bin: PathBuf,
    /// `-p` prefix, so a build from source never touches the Debian install.
    pub prefix: Option<PathBuf>,
}

/// Warnings `nginx -t` prints that come from the checking machine, not from the generated
/// configuration: the self-signed test certificate has no OCSP responder and no issuer.
const ENVIRONMENTAL_WARNINGS: &[&str] = &["\"ssl_stapling\" ignored"];

/// Warnings caused by a generator finding reported to core and not fixed yet
/// (docs/verification.md): tolerated and reported, unless `NGINX_GEN_VERIFY_STRICT=1`.
pub const PENDING_WARNINGS: &[(&str, &str)] = &[];

fn strict() -> bool {
    std::env::var("NGINX_GEN_VERIFY_STRICT").is_ok_and(|v| v == "1")
}

impl Nginx {
    /// Debian's nginx, `/usr/sbin/nginx` unless `NGINX_GEN_NGINX_1_22` names another.
    pub fn debian() -> Self {
        let bin = std::env::var_os("NGINX_GEN_NGINX_1_22")
            .map_or_else(|| PathBuf::from("/usr/sbin/nginx"), PathBuf::from);
        Self { bin, prefix: None }
    }

    /// A build of `scripts/build-nginx.sh` named by the environment variable `var`
    /// (`NGINX_GEN_NGINX_1_26`, `NGINX_GEN_NGINX_1_30`, `NGINX_GEN_NGINX_1_30_OPENSSL_3_5`,
    /// `NGINX_GEN_NGINX_1_26_OPENSSL_3_5`; set by `scripts/stages/50-verify.sh`), if set.
    /// It runs with `-p` its own prefix, where its `modules/` are.
    pub fn built(var: &str) -> Option<Self> {
        let bin = PathBuf::from(std::env::var_os(var)?);
        let prefix = bin.parent().and_then(Path::parent).map(Path::to_path_buf);
        Some(Self { bin, prefix })
    }

    /// The OpenSSL the binary was built with (`nginx -V`: `built with OpenSSL 3.5.7 …`).
    pub fn openssl(&self) -> Result<String, String> {
        let out = Command::new(&self.bin)
            .arg("-V")
            .output()
            .map_err(|e| format!("{}: {e}", self.bin.display()))?;
        let text = String::from_utf8_lossy(&out.stderr);
        text.lines()
            .find_map(|l| l.strip_prefix("built with OpenSSL "))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_owned)
            .ok_or_else(|| format!("{}: no OpenSSL version in {text:?}", self.bin.display()))
    }

    /// `nginx -v`, e.g. `nginx/1.26.3`.
    pub fn version(&self) -> Result<String, String> {
        let out = Command::new(&self.bin)
            .arg("-v")
            .output()
            .map_err(|e| format!("{}: {e}", self.bin.display()))?;
        let text = String::from_utf8_lossy(&out.stderr);
        text.split_whitespace()
            .find(|w| w.starts_with("nginx/"))
            .map(str::to_owned)
            .ok_or_else(|| format!("{}: no version in {text:?}", self.bin.display()))
    }

    /// Runs `nginx -t` on `conf`. `Err` holds nginx's output when the test fails or warns
    /// about the configuration; `Ok` holds the warnings of pending findings, if any.
    pub fn test(&self, conf: &Path) -> Result<Vec<String>, String> {
        let mut cmd = Command::new(&self.bin);
        if let Some(prefix) = &self.prefix {
            cmd.arg("-p").arg(prefix);
        }
        cmd.args(["-e", "stderr", "-t", "-c"]).arg(conf);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.bin.display()))?;
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            return Err(text);
        }
        let mut pending = Vec::new();
        for line in text.lines().filter(|l| {
            ["[warn]", "[emerg]", "[alert]", "[crit]"]
                .iter()
                .any(|level| l.contains(level))
        }) {
            if ENVIRONMENTAL_WARNINGS.iter().any(|w| line.contains(w)) {
                continue;
            }
            match PENDING_WARNINGS.iter().find(|(w, _)| line.contains(w)) {
                Some((_, finding)) if !strict() => pending.push(format!("{finding}: {line}")),
                _ => return Err(text),
            }
        }
        Ok(pending)
    }
}

/// Writes `files` under `dir` (`dir/etc/nginx/nginx.conf` …); returns the nginx.conf path.
pub fn write_tree(dir: &Path, files: &[File]) -> std::io::Result<PathBuf> {
    for f in files {
        let path = dir.join(f.path.trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().expect("files have a directory"))?;
        std::fs::File::create(&path)?.write_all(f.contents.as_bytes())?;
    }
    Ok(dir.join("etc/nginx/nginx.conf"))
}

/// How many checks run at once: `NGINX_GEN_VERIFY_JOBS`, else the CPUs (at most 4).
pub fn jobs() -> usize {
    std::env::var("NGINX_GEN_VERIFY_JOBS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(2, std::num::NonZero::get)
                .min(4)
        })
        .max(1)
}

/// Runs `check` on every item on `jobs` threads; returns `(index, error)` of each failure.
pub fn parallel<T: Sync>(
    items: &[T],
    jobs: usize,
    check: impl Fn(&T) -> Result<(), String> + Sync,
) -> Vec<(usize, String)> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if let Err(e) = check(item) {
                        failures.lock().expect("no poisoned lock").push((i, e));
                    }
                }
            });
        }
    });
    let mut f = failures.into_inner().expect("no poisoned lock");
    f.sort_by_key(|(i, _)| *i);
    f
}
