//! Probes of a running nginx: the liveness checks `apply` and `rollback` run after a
//! reload, and that a `check` can run any time. Each literal server name must answer over
//! plain HTTP ([`probe_http`]) and, when the plan serves TLS, over HTTPS ([`probe_https`]:
//! a handshake with the name as SNI through `openssl s_client`, the certificate not
//! checked); the catch-all default server must close a request for a name no site has
//! and refuse its TLS handshake ([`probe_catch_all`]). [`probes`] says what to probe, and
//! where, for a plan.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::Duration;

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

#[cfg(test)]
mod tests {
    use super::{CatchAll, NO_SITE_NAME, probe_catch_all, probe_http};

    /// A server that answers `reply` to one request (with `Host: host`) and closes.
    fn server_for(host: &'static str, reply: &'static [u8]) -> std::net::SocketAddr {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let n = s.read(&mut buf).unwrap();
            let request = String::from_utf8_lossy(&buf[..n]).into_owned();
            assert!(
                request.contains(&format!("\r\nHost: {host}\r\n")),
                "{request}"
            );
            let _ = s.write_all(reply);
        });
        addr
    }

    /// [`server_for`] `a.example`.
    fn server(reply: &'static [u8]) -> std::net::SocketAddr {
        server_for("a.example", reply)
    }

    #[test]
    fn the_catch_all_probe_wants_no_status_line() {
        let t = std::time::Duration::from_secs(5);
        let closes = server_for(NO_SITE_NAME, b"");
        let done = probe_catch_all(closes, None, t).unwrap();
        assert!(
            done.contains("closed without a status line (444)"),
            "{done}"
        );
        // Another site answers names no site has: the catch-all is not the default.
        let answers = server_for(NO_SITE_NAME, b"HTTP/1.1 200 OK\r\n\r\n");
        let e = probe_catch_all(answers, None, t).unwrap_err();
        assert!(e.contains("not the default server"), "{e}");
        // Nothing listening is no catch-all either.
        let refused = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = refused.local_addr().unwrap();
        drop(refused);
        assert!(probe_catch_all(addr, None, t).is_err());
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
}
