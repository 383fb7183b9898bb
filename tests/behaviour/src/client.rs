//! The real clients: curl for HTTP/1.1, HTTP/2 and TLS; `openssl s_client` for TLS versions
//! and as the TLS pipe under the WebSocket client; wrk for load.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// One curl request.
#[derive(Debug, Clone, Default)]
pub struct Req {
    pub url: String,
    pub args: Vec<String>,
}

/// What curl got.
#[derive(Debug, Clone, Default)]
pub struct Resp {
    /// curl's exit code (0 success, 7 refused, 35 TLS handshake, 52 empty reply, …).
    pub exit: i32,
    pub status: u16,
    /// `1.1`, `2`.
    pub version: String,
    /// The last header block, names lower-case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub stderr: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of the header `name` (lower case), in order: [`Resp::header`] gives the
    /// first only.
    pub fn header_values(&self, name: &str) -> Vec<&str> {
        (self.headers.iter())
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// One line for a failure message.
    pub fn summary(&self) -> String {
        if self.exit == 0 {
            let mut h: Vec<String> = self
                .headers
                .iter()
                .filter(|(n, _)| {
                    [
                        "location",
                        "content-type",
                        "content-encoding",
                        "vary",
                        crate::app::APP_HEADER,
                    ]
                    .contains(&n.as_str())
                })
                .map(|(n, v)| format!("{n}: {v}"))
                .collect();
            let body = self.text();
            let body: String = body.chars().take(120).collect();
            h.push(format!("body {body:?}"));
            format!("HTTP/{} {} ({})", self.version, self.status, h.join("; "))
        } else {
            format!(
                "curl exit {} ({})",
                self.exit,
                self.stderr.lines().last().unwrap_or("").trim()
            )
        }
    }
}

impl Req {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            args: Vec::new(),
        }
    }

    #[must_use]
    pub fn arg(mut self, a: impl Into<String>) -> Self {
        self.args.push(a.into());
        self
    }

    #[must_use]
    pub fn header(self, h: &str) -> Self {
        self.arg("-H").arg(h)
    }

    /// `--resolve host:port:addr` (addr `127.0.0.1` or `[::1]`).
    #[must_use]
    pub fn resolve(self, host: &str, port: u16, addr: &str) -> Self {
        self.arg("--resolve").arg(format!("{host}:{port}:{addr}"))
    }

    /// Runs curl; `scratch` is a directory for the header and body files.
    pub fn send(&self, scratch: &Path) -> Resp {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let hfile = scratch.join(format!("curl-{n}.h"));
        let bfile = scratch.join(format!("curl-{n}.b"));
        let out = Command::new("curl")
            .args(["-sS", "--max-time", "15", "-D"])
            .arg(&hfile)
            .arg("-o")
            .arg(&bfile)
            .args(["-w", "%{http_version}"])
            .args(&self.args)
            .arg(&self.url)
            .output();
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                return Resp {
                    exit: -1,
                    stderr: format!("cannot run curl: {e}"),
                    ..Resp::default()
                };
            }
        };
        let head = std::fs::read_to_string(&hfile).unwrap_or_default();
        let body = std::fs::read(&bfile).unwrap_or_default();
        let _ = std::fs::remove_file(&hfile);
        let _ = std::fs::remove_file(&bfile);
        let (status, headers) = parse_head(&head);
        Resp {
            exit: out.status.code().unwrap_or(-1),
            status,
            version: String::from_utf8_lossy(&out.stdout).trim().to_string(),
            headers,
            body,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Parses curl's `-D` dump: the status and headers of the last block (after redirects or
/// `100 Continue`).
pub fn parse_head(dump: &str) -> (u16, Vec<(String, String)>) {
    let mut status = 0;
    let mut headers = Vec::new();
    for line in dump.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with("HTTP/") {
            status = line
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            headers.clear();
        } else if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    (status, headers)
}

/// Result of an `openssl s_client` handshake attempt.
#[derive(Debug, Clone)]
pub struct Handshake {
    pub ok: bool,
    /// `TLSv1.3` …, when it succeeded.
    pub protocol: Option<String>,
    /// The suite agreed on (`TLS_AES_128_GCM_SHA256`, `ECDHE-ECDSA-AES128-GCM-SHA256`, …).
    pub suite: Option<String>,
    pub output: String,
}

impl Handshake {
    /// The server refused with an alert (`protocol_version`, `handshake_failure`, …) rather than
    /// the client refusing to offer the version.
    pub fn server_refused(&self) -> bool {
        !self.ok && self.output.contains("alert") && !self.output.contains("no protocols available")
    }

    pub fn last_error(&self) -> String {
        self.output
            .lines()
            .find(|l| l.contains("error") || l.contains("alert"))
            .unwrap_or_else(|| self.output.lines().last().unwrap_or(""))
            .trim()
            .to_string()
    }
}

/// `openssl s_client` to 127.0.0.1:`port` with SNI `sni` (or none), ended by `timeout`
/// after `seconds` so that a hung connection fails; `mode` are the flags that come first.
fn s_client(seconds: u32, mode: &[&str], port: u16, sni: Option<&str>) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.arg(seconds.to_string())
        .args(["openssl", "s_client"])
        .args(mode)
        .arg("-connect")
        .arg(format!("127.0.0.1:{port}"));
    match sni {
        Some(name) => cmd.args(["-servername", name]),
        None => cmd.arg("-noservername"),
    };
    cmd
}

/// A finished process's stdout and stderr, as one text.
fn all_output(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `openssl s_client -brief` with `version_flag` (`-tls1`, `-tls1_2`, …) and SNI `sni`.
/// The client's security level is lowered so that a refusal is the server's.
pub fn handshake(port: u16, sni: Option<&str>, version_flag: &str) -> Handshake {
    let mut cmd = s_client(20, &["-brief", version_flag], port, sni);
    if matches!(version_flag, "-tls1" | "-tls1_1") {
        cmd.args(["-cipher", "DEFAULT@SECLEVEL=0"]);
    }
    brief(&mut cmd)
}

/// `openssl s_client -brief` with `version_flag`, offering the suites `suites` in that
/// order: `-ciphersuites` for TLS 1.3, `-cipher` for TLS 1.2.
pub fn handshake_offering(
    port: u16,
    sni: Option<&str>,
    version_flag: &str,
    suites: &str,
) -> Handshake {
    let list_flag = if version_flag == "-tls1_3" {
        "-ciphersuites"
    } else {
        "-cipher"
    };
    brief(
        s_client(20, &["-brief", version_flag, list_flag, suites], port, sni).stdin(Stdio::null()),
    )
}

/// Runs an `s_client -brief` command and reads its protocol and suite lines.
fn brief(cmd: &mut Command) -> Handshake {
    let out = cmd.stdin(Stdio::null()).output().map_or_else(
        |e| (false, format!("cannot run openssl: {e}")),
        |o| (o.status.success(), all_output(&o)),
    );
    let line = |prefix: &str| {
        out.1
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(|p| p.trim().to_string())
    };
    let (protocol, suite) = (line("Protocol version:"), line("Ciphersuite:"));
    Handshake {
        ok: out.0 && protocol.is_some(),
        protocol,
        suite,
        output: out.1,
    }
}

/// One HTTP/1.0 request over `openssl s_client` with `version_flag`, resuming the session in
/// `resume` if given and saving the session the server offers to `save`.
pub fn tls_session(
    port: u16,
    sni: Option<&str>,
    version_flag: &str,
    resume: Option<&Path>,
    save: &Path,
) -> TlsSession {
    let mut cmd = s_client(20, &["-msg", "-ign_eof", version_flag], port, sni);
    cmd.arg("-sess_out").arg(save);
    if let Some(session) = resume {
        cmd.arg("-sess_in").arg(session);
    }
    let host = sni.unwrap_or("127.0.0.1");
    let request = format!("GET /tls-session HTTP/1.0\r\nHost: {host}\r\n\r\n");
    let output = (|| {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(request.as_bytes())?;
        child.wait_with_output()
    })()
    .map_or_else(|e| format!("cannot run openssl: {e}"), |o| all_output(&o));
    TlsSession {
        reused: output.lines().find_map(|l| {
            let version = l.strip_prefix("Reused, ")?.split(',').next()?;
            Some(version.to_string())
        }),
        tickets: output
            .lines()
            .filter(|l| l.starts_with("<<< ") && l.ends_with("NewSessionTicket"))
            .count(),
        status: output
            .lines()
            .find_map(|l| l.strip_prefix("HTTP/1.1 ")?.split(' ').next()?.parse().ok()),
        output,
    }
}

/// What one [`tls_session`] connection saw.
#[derive(Debug, Clone)]
pub struct TlsSession {
    /// The protocol of a resumed session (`TLSv1.3` …); `None` for a full handshake.
    pub reused: Option<String>,
    /// How many session tickets the server sent.
    pub tickets: usize,
    /// The HTTP status of the answer, if one came.
    pub status: Option<u16>,
    pub output: String,
}

/// A TLS connection through `openssl s_client -quiet` as a byte stream, for the WebSocket
/// client over HTTPS.
#[derive(Debug)]
pub struct SClient {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
}

impl SClient {
    pub fn connect(port: u16, sni: Option<&str>) -> std::io::Result<Self> {
        // `timeout`: a connection that hangs ends after 60 s, so the read fails.
        let mut child = s_client(60, &["-quiet", "-alpn", "http/1.1"], port, sni)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        Ok(Self {
            child,
            stdin,
            stdout,
        })
    }
}

impl Read for SClient {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stdout.read(buf)
    }
}

impl Write for SClient {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stdin.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.stdin.flush()
    }
}

impl Drop for SClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What wrk reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load {
    pub requests: u64,
    pub non_2xx: u64,
    pub socket_errors: String,
}

/// Parses wrk's summary.
pub fn parse_wrk(out: &str) -> Option<Load> {
    let requests = out.lines().find_map(|l| {
        let l = l.trim();
        l.contains(" requests in ")
            .then(|| l.split_whitespace().next()?.parse().ok())
            .flatten()
    })?;
    let non_2xx = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("Non-2xx or 3xx responses:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let socket_errors = out
        .lines()
        .find(|l| l.trim().starts_with("Socket errors:"))
        .map(|l| l.trim().to_string())
        .unwrap_or_default();
    Some(Load {
        requests,
        non_2xx,
        socket_errors,
    })
}

/// `wrk -t2 -cCONNS -dSECS -H 'Host: …' URL`.
pub fn wrk(url: &str, host: &str, conns: usize, secs: u32) -> Result<Load, String> {
    let out = Command::new("wrk")
        .arg("-t2")
        .arg(format!("-c{conns}"))
        .arg(format!("-d{secs}s"))
        .arg("-H")
        .arg(format!("Host: {host}"))
        .arg(url)
        .output()
        .map_err(|e| format!("cannot run wrk (scripts/setup.sh installs it): {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    parse_wrk(&text).ok_or_else(|| {
        format!(
            "wrk gave no summary: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Time to the first body byte and to the end, of `curl -N` reading `url` (chunked stream).
pub fn time_stream(args: &[String], url: &str) -> Result<(Duration, Duration, String), String> {
    let start = Instant::now();
    let mut child = Command::new("curl")
        .args(["-sS", "-N", "--max-time", "15"])
        .args(args)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run curl: {e}"))?;
    let mut out = child.stdout.take().expect("piped");
    let mut buf = [0u8; 4096];
    let mut all = Vec::new();
    let mut first = None;
    loop {
        let n = out.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        first.get_or_insert_with(|| start.elapsed());
        all.extend_from_slice(&buf[..n]);
    }
    let total = start.elapsed();
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        return Err(format!("curl failed ({status}): {}", err.trim()));
    }
    let first = first.ok_or("empty body")?;
    Ok((first, total, String::from_utf8_lossy(&all).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_of_the_last_block() {
        let dump = "HTTP/1.1 100 Continue\r\n\r\nHTTP/2 413 \r\nserver: nginx\r\nContent-Type: text/html\r\n\r\n";
        let (status, headers) = parse_head(dump);
        assert_eq!(status, 413);
        assert_eq!(
            headers,
            vec![
                ("server".to_string(), "nginx".to_string()),
                ("content-type".to_string(), "text/html".to_string())
            ]
        );
        assert_eq!(parse_head(""), (0, vec![]));
    }

    #[test]
    fn wrk_summary() {
        let out = "Running 2s test @ http://127.0.0.1/ka\n  2 threads and 50 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency     1.20ms  500.00us  10.00ms   90.00%\n  41234 requests in 2.00s, 10.00MB read\n  Socket errors: connect 0, read 3, write 0, timeout 0\n  Non-2xx or 3xx responses: 12\nRequests/sec:  20617.00\n";
        assert_eq!(
            parse_wrk(out),
            Some(Load {
                requests: 41234,
                non_2xx: 12,
                socket_errors: "Socket errors: connect 0, read 3, write 0, timeout 0".into()
            })
        );
        assert_eq!(parse_wrk("unable to connect"), None);
    }

    #[test]
    fn refusal_is_told_apart_from_a_client_that_offers_nothing() {
        let hs = |ok, output: &str| Handshake {
            ok,
            protocol: None,
            suite: None,
            output: output.into(),
        };
        assert!(hs(false, "tlsv1 alert protocol version:…:SSL alert number 70").server_refused());
        assert!(!hs(false, "no protocols available").server_refused());
        assert!(!hs(true, "alert").server_refused());
    }

    #[test]
    fn curl_reports_a_refused_connection() {
        let dir = tempfile::tempdir().unwrap();
        // A port nothing listens on: bind, note the port, close.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let r = Req::new(format!("http://127.0.0.1:{port}/")).send(dir.path());
        assert_eq!(r.exit, 7, "{r:?}");
        assert!(r.summary().starts_with("curl exit 7"), "{}", r.summary());
    }

    #[test]
    fn curl_against_the_app() {
        let dir = tempfile::tempdir().unwrap();
        let app = crate::app::App::start("127.0.0.1:0").unwrap();
        let r = Req::new(format!("http://{}/x?y=1", app.addr))
            .header("X-Test: 1")
            .send(dir.path());
        assert_eq!(
            (r.exit, r.status, r.version.as_str()),
            (0, 200, "1.1"),
            "{r:?}"
        );
        assert_eq!(r.header(crate::app::APP_HEADER), Some("echo"));
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["headers"]["x-test"], "1");
        assert_eq!(v["path"], "/x?y=1");
        let (first, total, body) =
            time_stream(&[], &format!("http://{}/stream", app.addr)).unwrap();
        assert!(first < Duration::from_millis(150), "{first:?}");
        assert!(total >= Duration::from_millis(700), "{total:?}");
        assert!(body.ends_with("chunk 4\n"), "{body}");
    }
}
