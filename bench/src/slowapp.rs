//! The slow application of the `proxy-slow` scenario: an HTTP/1.1 server that answers every
//! request with the site's HTML page after a fixed delay ([`DELAY`], 50 ms), one thread per
//! connection, keep-alive unless the request asks to close.
//!
//! The upstream nginx (not under test) proxies `/slow/` to it over a keep-alive pool, so the
//! nginx under test waits 50 ms for every response: its upstream keep-alive pool and its
//! buffers now hold connections and responses for that long, as in front of a real
//! application. The harness starts it as a child of its own binary
//! (`nginx-gen-bench --slow-upstream ADDR:PORT FILE MS`, an internal mode, not an option),
//! pinned and niced like the upstream, and stops it by PID.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, ExitCode, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crate::proc::{self, Launch};

/// How long the application takes to answer.
pub const DELAY: Duration = Duration::from_millis(50);

/// The first argument that runs the binary as the slow application.
pub const MODE: &str = "--slow-upstream";

/// Its listen queue, and the upstream nginx's (`listen … backlog=`): Rust's default (128)
/// drops SYNs when ~1000 pooled connections are opened at once, and each dropped SYN waits
/// 1 s for its retransmission, a delay of the harness's making.
pub const BACKLOG: i32 = 4096;

/// What the harness prints on stdout once the port is bound.
const READY: &str = "ready";

/// True when the request head asks to close after the response: `Connection: close`, or
/// HTTP/1.0 without `Connection: keep-alive` (nginx's default `proxy_http_version 1.0`).
pub fn wants_close(head: &str) -> bool {
    let mut lines = head.lines();
    let http10 = lines
        .next()
        .is_some_and(|l| l.trim_end().ends_with("HTTP/1.0"));
    let connection = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("connection"))
        .map(|(_, v)| v.trim().to_ascii_lowercase());
    match connection.as_deref() {
        Some("close") => true,
        Some("keep-alive") => false,
        _ => http10,
    }
}

/// The whole response to a request, keep-alive or closing.
pub fn response(body: &[u8], close: bool) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n{}\r\n",
        body.len(),
        if close { "Connection: close\r\n" } else { "" }
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// Reads one request head (up to the empty line); `None` at a clean end of the connection.
fn read_head(r: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        if line == "\r\n" || line == "\n" {
            return Ok(Some(head));
        }
        head.push_str(&line);
    }
}

fn connection(stream: TcpStream, replies: &[Vec<u8>; 2], delay: Duration) -> io::Result<()> {
    stream.set_nodelay(true)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(head) = read_head(&mut reader)? {
        // GET only: a body would have to be read here.
        let close = wants_close(&head);
        thread::sleep(delay);
        writer.write_all(&replies[usize::from(close)])?;
        if close {
            break;
        }
    }
    Ok(())
}

/// A listener on `addr` with a [`BACKLOG`]-deep accept queue.
pub fn listen(addr: &str) -> io::Result<TcpListener> {
    let listener = TcpListener::bind(addr)?;
    // listen(2) again on the listening socket sets the deeper queue (Linux).
    rustix::net::listen(&listener, BACKLOG)?;
    Ok(listener)
}

/// Serves `body` on `listener` forever, one thread per connection.
pub fn serve(listener: &TcpListener, body: &[u8], delay: Duration) {
    let replies = Arc::new([response(body, false), response(body, true)]);
    for stream in listener.incoming().flatten() {
        let replies = Arc::clone(&replies);
        let _ = thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || connection(stream, &replies, delay));
    }
}

/// The internal mode: `nginx-gen-bench --slow-upstream ADDR:PORT FILE MS`. `None` when the
/// binary was started for anything else.
pub fn child_main() -> Option<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some(MODE) {
        return None;
    }
    let run = || -> Result<(), String> {
        let [_, addr, file, ms] = args.as_slice() else {
            return Err(format!("usage: {MODE} ADDR:PORT FILE MS"));
        };
        let body = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        let ms: u64 = ms.parse().map_err(|_| format!("{ms}: not milliseconds"))?;
        let listener = listen(addr).map_err(|e| format!("{addr}: {e}"))?;
        println!("{READY}");
        io::stdout().flush().map_err(|e| e.to_string())?;
        serve(&listener, &body, Duration::from_millis(ms));
        Ok(())
    };
    Some(match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nginx-gen-bench {MODE}: {e}");
            ExitCode::FAILURE
        }
    })
}

/// The running application (a child process, stopped by PID).
#[derive(Debug)]
pub struct SlowApp {
    child: Option<Child>,
}

impl SlowApp {
    /// Starts this binary in the slow mode on `addr` (inside `launch`'s namespace, on its
    /// CPUs) serving `body`, and waits until it has bound the port.
    pub fn start(launch: &Launch, addr: &str, body: &Path) -> Result<Self, String> {
        let exe = std::env::current_exe().map_err(|e| format!("the harness binary: {e}"))?;
        let mut child = launch
            .command(&exe.to_string_lossy())
            .args([MODE, addr])
            .arg(body)
            .arg(DELAY.as_millis().to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("slow application: {e}"))?;
        proc::track(child.id());
        let mut first = [0u8; READY.len()];
        let ready = child.stdout.take().is_some_and(|mut out| {
            out.read_exact(&mut first).is_ok() && first == *READY.as_bytes()
        });
        let app = Self { child: Some(child) };
        if ready {
            Ok(app)
        } else {
            Err(format!("slow application on {addr} did not start"))
        }
    }

    /// Stops it by PID and reaps it; a second call does nothing.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            proc::stop(child.id());
            let _ = child.wait();
        }
    }
}

impl Drop for SlowApp {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn close_or_keep_alive() {
        assert!(!wants_close("GET / HTTP/1.1\r\nHost: x\r\n"));
        assert!(wants_close("GET / HTTP/1.1\r\nConnection: close\r\n"));
        assert!(wants_close("GET / HTTP/1.1\r\nconnection:  Close \r\n"));
        // nginx's proxy_http_version 1.0 sends no Connection header: it closes.
        assert!(wants_close("GET / HTTP/1.0\r\nHost: backend\r\n"));
        assert!(!wants_close("GET / HTTP/1.0\r\nConnection: keep-alive\r\n"));
    }

    #[test]
    fn responses_carry_length_and_close() {
        let r = String::from_utf8(response(b"hello", false)).expect("text");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n") && r.ends_with("\r\n\r\nhello"));
        assert!(r.contains("Content-Length: 5\r\n") && !r.contains("Connection"));
        let r = String::from_utf8(response(b"", true)).expect("text");
        assert!(r.contains("Content-Length: 0\r\nConnection: close\r\n\r\n"));
    }

    /// A burst of connections well past Rust's default queue (128) completes its handshakes
    /// before the application accepts any: no SYN waits for a retransmission.
    #[test]
    fn the_accept_queue_holds_a_burst() {
        let listener = listen("127.0.0.1:0").expect("listen");
        let addr = listener.local_addr().expect("addr");
        let burst = 300;
        let clients: Vec<TcpStream> = (0..burst)
            .map(|i| {
                TcpStream::connect_timeout(&addr, Duration::from_millis(500))
                    .unwrap_or_else(|e| panic!("connection {i} of {burst} waited: {e}"))
            })
            .collect();
        listener.set_nonblocking(true).expect("nonblocking");
        let queued = std::iter::from_fn(|| listener.accept().ok()).count();
        assert_eq!(queued, burst, "connections queued before the first accept");
        drop(clients);
    }

    #[test]
    fn answers_after_the_delay_and_keeps_the_connection() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        thread::spawn(move || serve(&listener, b"page", Duration::from_millis(30)));
        let mut s = TcpStream::connect(addr).expect("connect");
        let mut reader = BufReader::new(s.try_clone().expect("clone"));
        for _ in 0..2 {
            let start = Instant::now();
            s.write_all(b"GET /slow/ HTTP/1.1\r\nHost: x\r\n\r\n")
                .expect("request");
            let head = read_head(&mut reader).expect("read").expect("head");
            assert!(head.contains("Content-Length: 4"), "{head}");
            let mut body = [0u8; 4];
            reader.read_exact(&mut body).expect("body");
            assert_eq!(&body, b"page");
            assert!(start.elapsed() >= Duration::from_millis(30));
        }
        s.write_all(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
            .expect("request");
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).expect("closed");
        assert!(rest.ends_with(b"page"));
    }
}
