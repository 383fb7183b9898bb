//! Running wrk (Debian's package) and reading the line its Lua `done` hook prints (the TLS
//! handshake client, `bench/tls/handshake.py`, prints the same line).

use std::path::Path;

use crate::proc::Launch;

/// One wrk run's totals.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WrkResult {
    pub requests: u64,
    pub duration_us: u64,
    pub bytes: u64,
    /// connect + read + write + timeout errors.
    pub socket_errors: u64,
    /// Responses with a status above 399 (wrk's `errors.status`).
    pub bad_status: u64,
    pub p50_us: u64,
    pub p99_us: u64,
    /// Connections that resumed a TLS session (the handshake client only).
    pub resumed: u64,
    /// Connections that negotiated TLS 1.3 (the handshake client only).
    pub tls13: u64,
}

impl WrkResult {
    pub fn rps(&self) -> f64 {
        if self.duration_us == 0 {
            0.0
        } else {
            self.requests as f64 * 1e6 / self.duration_us as f64
        }
    }
    pub fn mb_per_s(&self) -> f64 {
        if self.duration_us == 0 {
            0.0
        } else {
            self.bytes as f64 / self.duration_us as f64
        }
    }
    pub fn errors(&self) -> u64 {
        self.socket_errors + self.bad_status
    }
}

/// Parses the `NGB key=value …` line of `wrk/report.lua`.
pub fn parse(stdout: &str) -> Option<WrkResult> {
    let line = stdout.lines().find(|l| l.starts_with("NGB "))?;
    let mut r = WrkResult::default();
    let mut seen = 0;
    for kv in line.split_whitespace().skip(1) {
        let (k, v) = kv.split_once('=')?;
        let v: u64 = v.parse().ok()?;
        seen += 1;
        match k {
            "requests" => r.requests = v,
            "duration_us" => r.duration_us = v,
            "bytes" => r.bytes = v,
            "connect" | "read" | "write" | "timeout" => r.socket_errors += v,
            "status" => r.bad_status = v,
            "p50" => r.p50_us = v,
            "p99" => r.p99_us = v,
            "resumed" => r.resumed = v,
            "tls13" => r.tls13 = v,
            _ => seen -= 1,
        }
    }
    (seen >= 10).then_some(r)
}

/// One load run: `wrk -t1 -cN -dSs` against `url` with `headers`.
pub fn run(
    launch: &Launch,
    script: &Path,
    url: &str,
    connections: u32,
    seconds: u32,
    headers: &[&str],
) -> Result<WrkResult, String> {
    let mut cmd = launch.command("wrk");
    cmd.args([
        "-t1",
        &format!("-c{connections}"),
        &format!("-d{seconds}s"),
        "--timeout",
        "4s",
        "-s",
    ])
    .arg(script);
    for h in headers {
        cmd.args(["-H", h]);
    }
    cmd.arg(url);
    let out = cmd.output().map_err(|e| format!("wrk: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "wrk failed ({}): {}{}",
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    parse(&stdout).ok_or_else(|| format!("wrk printed no result line:\n{stdout}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_lua_line() {
        let out = "Running 1s test @ http://127.0.0.1:1/\n  1 threads and 50 connections\n\
                   NGB requests=1000 duration_us=1000000 bytes=31000000 connect=0 read=2 write=0 status=3 timeout=1 p50=900 p99=4000 max=9000\n";
        let r = parse(out).expect("line");
        assert_eq!(r.requests, 1000);
        assert_eq!(r.socket_errors, 3);
        assert_eq!(r.bad_status, 3);
        assert_eq!(r.errors(), 6);
        assert!((r.rps() - 1000.0).abs() < 1e-9);
        assert!((r.mb_per_s() - 31.0).abs() < 1e-9);
        assert_eq!(r.p99_us, 4000);
        assert_eq!(r.resumed, 0);
        assert!(parse("no line").is_none());
        assert!(parse("NGB requests=x").is_none());
        // The handshake client's line, as printed by bench/tls/handshake.py.
        let r = parse(
            "NGB requests=625 duration_us=1001431 bytes=1084375 connect=0 read=0 write=0 status=0 timeout=0 p50=1187 p99=6059 max=6866 resumed=624\n",
        )
        .expect("line");
        assert_eq!((r.requests, r.resumed, r.errors()), (625, 624, 0));
    }
}
