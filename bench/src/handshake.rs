//! The TLS handshake scenarios' load: `bench/tls/handshake.py` (Debian's Python and its
//! OpenSSL), N processes each opening one connection after another, each connection a TLS
//! handshake and one small request. Full handshakes offer no session; resumed ones offer the
//! previous connection's. It prints wrk's result line, so [`crate::wrk::parse`] reads it.
//!
//! Why not wrk or h2load: both keep the TLS session when they reconnect (wrk's `SSL_clear`
//! after `SSL_shutdown`, h2load's reconnection) and resume it whenever the server allows, so
//! "a new connection per request" with them is a mix of full and resumed handshakes that
//! depends on the configuration under test. `openssl s_time -new/-reuse` separates the two
//! but sends no SNI, which a server rejecting unknown names (nginx-gen's
//! `ssl_reject_handshake`) refuses.

use std::path::Path;

use crate::proc::Launch;
use crate::wrk::{self, WrkResult};

/// The script's file name (written next to wrk's Lua script).
pub const SCRIPT_NAME: &str = "handshake.py";
/// The script, embedded.
pub const SCRIPT: &str = include_str!("../tls/handshake.py");
/// Debian's interpreter, not whatever `python3` is first on the PATH.
pub const PYTHON: &str = "/usr/bin/python3";

/// The arguments of one run.
pub fn args(
    script: &Path,
    addr: &str,
    port: u16,
    path: &str,
    conns: u32,
    seconds: u32,
    resume: bool,
) -> Vec<String> {
    let mut a = vec![
        script.to_string_lossy().to_string(),
        "--addr".into(),
        addr.into(),
        "--port".into(),
        port.to_string(),
        "--sni".into(),
        "bench.test".into(),
        "--path".into(),
        path.into(),
        "--conns".into(),
        conns.to_string(),
        "--seconds".into(),
        seconds.to_string(),
    ];
    if resume {
        a.push("--resume".into());
    }
    a
}

/// One run against the TLS server on `addr:port`.
#[allow(
    clippy::too_many_arguments,
    reason = "one run's parameters, named at the call"
)]
pub fn run(
    launch: &Launch,
    script: &Path,
    addr: &str,
    port: u16,
    path: &str,
    conns: u32,
    seconds: u32,
    resume: bool,
) -> Result<WrkResult, String> {
    let out = launch
        .command(PYTHON)
        .args(args(script, addr, port, path, conns, seconds, resume))
        .output()
        .map_err(|e| format!("{PYTHON}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "handshake client failed ({}): {stdout}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    wrk::parse(&stdout).ok_or_else(|| format!("handshake client printed no result line:\n{stdout}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = args(Path::new("/t/h.py"), "10.0.0.1", 443, "/i.png", 8, 2, true);
        assert_eq!(
            a.join(" "),
            "/t/h.py --addr 10.0.0.1 --port 443 --sni bench.test --path /i.png --conns 8 --seconds 2 --resume"
        );
        let a = args(Path::new("h.py"), "127.0.0.1", 1, "/", 1, 1, false);
        assert!(!a.contains(&"--resume".to_string()));
    }

    #[test]
    fn the_script_prints_wrks_line() {
        // The keys the harness reads are the ones the script prints.
        for key in [
            "NGB requests=",
            "duration_us=",
            "bytes=",
            "connect=",
            "read=",
            "write=0",
            "status=",
            "timeout=",
            "p50=",
            "p99=",
            "max=",
            "resumed=",
            "tls13=",
        ] {
            assert!(SCRIPT.contains(key), "{key}");
        }
        assert!(SCRIPT.starts_with("#!/usr/bin/python3\n"));
    }

    /// The real interpreter runs the script: a run of no time prints a line of zeros.
    #[test]
    fn the_script_runs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let script = dir.path().join(SCRIPT_NAME);
        std::fs::write(&script, SCRIPT).expect("script");
        let out = std::process::Command::new(PYTHON)
            .args(args(&script, "127.0.0.1", 9, "/", 2, 0, true))
            .output()
            .unwrap_or_else(|e| panic!("{PYTHON} (Debian's python3, scripts/setup.sh): {e}"));
        assert!(out.status.success(), "{out:?}");
        let r = wrk::parse(&String::from_utf8_lossy(&out.stdout)).expect("line");
        assert_eq!(
            (r.requests, r.errors(), r.resumed, r.tls13, r.p99_us),
            (0, 0, 0, 0, 0)
        );
    }
}
