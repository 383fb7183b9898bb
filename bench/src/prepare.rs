//! Before the run: the preflight checks, and the temporary directory with the site, the
//! wrk script and the certificate; the facts nginx-gen is given (from the host module, as
//! the CLI would detect them); the site precompressed with the command nginx-gen prints.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;

use nginx_gen::host;

use crate::handshake;
use crate::opts::Opts;
use crate::proc;
use crate::site;
use crate::variants::{self, Env, Family};

const LUA: &str = include_str!("../wrk/report.lua");

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    Some(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// Root, and every tool the run calls.
pub fn preflight() -> Result<(), String> {
    let uid = command_output("id", &["-u"]).unwrap_or_default();
    if uid.trim() != "0" {
        return Err("run as root: nginx binds ports, switches to www-data and namespaces need CAP_NET_ADMIN".into());
    }
    for tool in [
        proc::NGINX,
        "wrk",
        "taskset",
        "prlimit",
        "openssl",
        "ip",
        "curl",
        "h2load",
        handshake::PYTHON,
    ] {
        if command_output("sh", &["-c", &format!("command -v {tool}")])
            .is_none_or(|s| s.trim().is_empty())
        {
            return Err(format!("{tool} not found (scripts/setup.sh installs it)"));
        }
    }
    Ok(())
}

/// nginx and OpenSSL (`major.minor`) versions of the nginx under test, from its `nginx -V`,
/// so nginx-gen writes for the binary under test.
fn versions() -> Result<(String, String), String> {
    match host::nginx_versions(proc::NGINX) {
        Some((Some(nginx), Some(ssl))) => {
            Ok((nginx.to_string(), format!("{}.{}", ssl.major, ssl.minor)))
        }
        _ => Err(format!(
            "`{} -V` names no nginx and OpenSSL version",
            proc::NGINX
        )),
    }
}

/// The memory nginx-gen plans for: what the CLI would detect, in whole GiB.
fn ram_gib() -> Result<String, String> {
    let (size, _) = host::ram().ok_or("cannot read the memory size (/proc/meminfo)")?;
    Ok(format!("{}G", (size.as_mib() / 1024).max(1)))
}

/// What the modes share.
#[derive(Debug)]
pub struct Prepared {
    pub tmp: PathBuf,
    pub env: Env,
    /// wrk's Lua script (`wrk/report.lua`).
    pub script: PathBuf,
    /// The precompress command nginx-gen printed for the site.
    pub precompress: String,
}

impl Prepared {
    /// The same, with the instances' directories in `dir` under the run's temporary
    /// directory (a stage of the search, a loss measured again).
    pub fn under(&self, dir: &str) -> Result<Self, String> {
        let tmp = self.tmp.join(dir);
        fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        Ok(Self {
            tmp,
            env: self.env.clone(),
            script: self.script.clone(),
            precompress: self.precompress.clone(),
        })
    }
}

/// Creates the temporary directory (registered for cleanup unless `--keep`) and everything
/// in it, and precompresses the site.
pub fn prepare(opts: &Opts) -> Result<Prepared, String> {
    let tmp = std::env::temp_dir().join(format!("nginx-gen-bench.{}", std::process::id()));
    fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    // www-data workers must reach the site and the temp directories.
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    proc::register_tmp(if opts.keep { None } else { Some(tmp.clone()) });
    if opts.keep {
        eprintln!("keeping {}", tmp.display());
    }
    let site_dir = tmp.join("site");
    site::write(&site_dir).map_err(|e| format!("site: {e}"))?;
    let script = tmp.join("report.lua");
    fs::write(&script, LUA).map_err(|e| e.to_string())?;
    // The handshake scenarios' client, next to it (run.rs finds it there).
    fs::write(
        script.with_file_name(handshake::SCRIPT_NAME),
        handshake::SCRIPT,
    )
    .map_err(|e| e.to_string())?;
    // The TLS scenario's certificate (the sites answer to bench.test).
    let nginx_gen_testsupport::Certificate { cert, key } =
        nginx_gen_testsupport::self_signed(&tmp, "bench.test")?;
    // nginxconfig.io's ssl_dhparam: the RFC 7919 group (its setup runs `openssl dhparam`).
    let dh = cert.with_file_name("dhparam.pem");
    let st = Command::new("openssl")
        .args([
            "genpkey",
            "-genparam",
            "-algorithm",
            "DH",
            "-pkeyopt",
            "group:ffdhe2048",
            "-out",
        ])
        .arg(&dh)
        .status()
        .map_err(|e| format!("openssl: {e}"))?;
    if !st.success() {
        return Err("openssl genpkey -genparam (the DH group) failed".into());
    }
    let (nginx_version, openssl_version) = versions()?;
    let workers = host::parse_cpu_list(&opts.nginx_cpus)
        .ok_or(format!("--nginx-cpus: not a CPU list: {}", opts.nginx_cpus))?
        .len();
    let env = Env {
        site: site_dir,
        addr: "127.0.0.1".into(),
        cert,
        key,
        upstream: String::new(),
        workers,
        ram: ram_gib()?,
        nginx_version,
        openssl_version,
    };
    // Precompress with the exact command nginx-gen prints for this site.
    let plan = nginx_gen_core::Plan::new(&variants::gen_inputs(&env, Family::Static, opts.port)?);
    let precompress = plan
        .precompress
        .clone()
        .ok_or("nginx-gen printed no precompress command")?;
    let st = Command::new("sh")
        .args(["-c", &precompress])
        .status()
        .map_err(|e| e.to_string())?;
    if !st.success() {
        return Err(format!("precompress command failed: {precompress}"));
    }
    Ok(Prepared {
        tmp,
        env,
        script,
        precompress,
    })
}
