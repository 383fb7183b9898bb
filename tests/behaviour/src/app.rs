//! The upstream application the generated trees proxy to: a real HTTP/1.1 keep-alive server
//! on a TCP port, one thread per connection.
//!
//! - any path: `200` with a JSON echo of the request (method, path, headers, body length)
//!   and the identifying header `X-Behaviour-App: echo`;
//! - `/slow…`: the same echo after [`SLOW`];
//! - `/stream`: five chunks 200 ms apart, `X-Accel-Buffering: no`;
//! - `/ws` with `Upgrade: websocket`: a WebSocket echo (tungstenite);
//! - `/idle…` on a connection idle for [`IDLE_TIMEOUT`] or longer: no answer, the connection
//!   closed, as an application server closes an idle connection while a request for it is
//!   on its way (the other paths are answered after any pause, as before);
//!
//! It counts the TCP connections it accepted, the requests it answered, the requests that
//! carried `Connection: close`, and keeps every path it saw, so a behaviour can tell what
//! reached it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The header every answer of the app carries.
pub const APP_HEADER: &str = "x-behaviour-app";

/// Chunks `/stream` sends, and the pause before each after the first.
pub const STREAM_CHUNKS: usize = 5;
pub const STREAM_PAUSE: Duration = Duration::from_millis(200);

/// What the app has seen since the last [`App::reset`].
#[derive(Debug, Default)]
pub struct Stats {
    accepted: AtomicUsize,
    requests: AtomicUsize,
    close_requested: AtomicUsize,
    /// `/idle…` requests that arrived after [`IDLE_TIMEOUT`] and were not answered.
    lost: AtomicUsize,
    paths: Mutex<Vec<String>>,
}

/// The idle timeout of application servers, the shortest in common use (gunicorn's
/// `keepalive`, 2 s; Node.js and uvicorn close after 5 s): a request for `/idle…` that
/// arrives on a connection idle this long is lost.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a request for a path starting with `/slow` waits before its answer.
pub const SLOW: Duration = Duration::from_millis(600);

/// A running app; it lives as long as the process.
#[derive(Debug, Clone)]
pub struct App {
    pub addr: SocketAddr,
    stats: Arc<Stats>,
}

/// One parsed request head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    pub path: String,
    /// `HTTP/1.1`.
    pub version: String,
    /// Lower-case names; repeated headers joined with ", " like a proxy would.
    pub headers: BTreeMap<String, String>,
}

impl Head {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

impl App {
    /// Binds `addr` and serves in background threads.
    pub fn start(addr: &str) -> std::io::Result<Self> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let stats = Arc::new(Stats::default());
        let s = Arc::clone(&stats);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                s.accepted.fetch_add(1, Ordering::SeqCst);
                let s = Arc::clone(&s);
                std::thread::spawn(move || {
                    let _ = serve(stream, &s);
                });
            }
        });
        Ok(Self { addr, stats })
    }

    /// Forgets what was seen (between trees).
    pub fn reset(&self) {
        self.stats.accepted.store(0, Ordering::SeqCst);
        self.stats.requests.store(0, Ordering::SeqCst);
        self.stats.close_requested.store(0, Ordering::SeqCst);
        self.stats.lost.store(0, Ordering::SeqCst);
        self.stats.paths.lock().expect("no poisoned lock").clear();
    }

    /// `/idle…` requests lost: they came on a connection idle [`IDLE_TIMEOUT`] or longer.
    pub fn lost(&self) -> usize {
        self.stats.lost.load(Ordering::SeqCst)
    }

    /// TCP connections accepted.
    pub fn accepted(&self) -> usize {
        self.stats.accepted.load(Ordering::SeqCst)
    }

    /// Requests answered.
    pub fn requests(&self) -> usize {
        self.stats.requests.load(Ordering::SeqCst)
    }

    /// Requests that carried `Connection: close`.
    pub fn close_requested(&self) -> usize {
        self.stats.close_requested.load(Ordering::SeqCst)
    }

    /// How many requests for exactly `path` (query included) reached the app.
    pub fn count(&self, path: &str) -> usize {
        self.stats
            .paths
            .lock()
            .expect("no poisoned lock")
            .iter()
            .filter(|p| *p == path)
            .count()
    }

    /// Whether a request for `path` (query included) reached the app.
    pub fn saw(&self, path: &str) -> bool {
        self.stats
            .paths
            .lock()
            .expect("no poisoned lock")
            .iter()
            .any(|p| p == path || p.split('?').next() == Some(path))
    }
}

/// Reads one request head; `Ok(None)` at a clean end of the connection.
pub fn read_head(r: &mut impl BufRead) -> std::io::Result<Option<Head>> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(std::io::Error::other(format!("bad request line {line:?}")));
    };
    let version = parts.next().unwrap_or("HTTP/1.0").to_string();
    let (method, path) = (method.to_string(), path.to_string());
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Err(std::io::Error::other("connection closed inside the head"));
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            return Err(std::io::Error::other(format!("bad header line {l:?}")));
        };
        let name = name.trim().to_ascii_lowercase();
        let value = value.trim().to_string();
        headers
            .entry(name)
            .and_modify(|v| {
                v.push_str(", ");
                v.push_str(&value);
            })
            .or_insert(value);
    }
    Ok(Some(Head {
        method,
        path,
        version,
        headers,
    }))
}

/// Reads and discards the body the head announces; returns its length.
pub fn read_body(r: &mut impl BufRead, head: &Head) -> std::io::Result<u64> {
    if head
        .header("transfer-encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
    {
        let mut total = 0;
        let mut line = String::new();
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let size_text = line.trim().split(';').next().unwrap_or("");
            let size = u64::from_str_radix(size_text, 16)
                .map_err(|_| std::io::Error::other(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                // Trailers, then the empty line.
                loop {
                    line.clear();
                    if r.read_line(&mut line)? == 0 || line.trim().is_empty() {
                        return Ok(total);
                    }
                }
            }
            std::io::copy(&mut r.take(size), &mut std::io::sink())?;
            total += size;
            line.clear();
            r.read_line(&mut line)?;
        }
    }
    let len: u64 = head
        .header("content-length")
        .map_or(Ok(0), str::parse)
        .map_err(|_| std::io::Error::other("bad content-length"))?;
    let copied = std::io::copy(&mut r.take(len), &mut std::io::sink())?;
    if copied == len {
        Ok(len)
    } else {
        Err(std::io::Error::other("body shorter than content-length"))
    }
}

/// The JSON the app answers with.
pub fn echo_json(head: &Head, body_length: u64) -> String {
    serde_json::json!({
        "method": head.method,
        "path": head.path,
        "headers": head.headers,
        "body_length": body_length,
    })
    .to_string()
}

fn serve(stream: TcpStream, stats: &Stats) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_mins(2)))?;
    // The answer is written in pieces: without this, Nagle's algorithm and the peer's
    // delayed ACK hold each answer about 40 ms (paced rate tests need the real latency).
    stream.set_nodelay(true)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let mut idle_since = Instant::now();
    while let Some(head) = read_head(&mut reader)? {
        if head.path.starts_with("/idle") && idle_since.elapsed() >= IDLE_TIMEOUT {
            stats.lost.fetch_add(1, Ordering::SeqCst);
            return Ok(());
        }
        stats.requests.fetch_add(1, Ordering::SeqCst);
        stats
            .paths
            .lock()
            .expect("no poisoned lock")
            .push(head.path.clone());
        let close = head.header("connection").is_some_and(|c| {
            c.to_ascii_lowercase()
                .split(',')
                .any(|t| t.trim() == "close")
        });
        if close {
            stats.close_requested.fetch_add(1, Ordering::SeqCst);
        }
        let upgrade = head
            .header("upgrade")
            .is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
        // As RFC 6455 servers do: an upgrade needs HTTP/1.1 and `Connection: upgrade` too.
        let connection_upgrade = head.header("connection").is_some_and(|c| {
            c.to_ascii_lowercase()
                .split(',')
                .any(|t| t.trim() == "upgrade")
        });
        if upgrade && head.path.starts_with("/ws") {
            if connection_upgrade && head.version == "HTTP/1.1" {
                return websocket(reader, writer, &head);
            }
            read_body(&mut reader, &head)?;
            writer.write_all(b"HTTP/1.1 400 Bad Request\r\nX-Behaviour-App: echo\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")?;
            return writer.flush();
        }
        let body_length = read_body(&mut reader, &head)?;
        if head.path.starts_with("/slow") {
            // A slow page: concurrent misses must wait for one response (`proxy_cache_lock`).
            std::thread::sleep(SLOW);
        }
        if head.path.starts_with("/stream") {
            stream_chunks(&mut writer)?;
        } else {
            let body = echo_json(&head, body_length);
            write!(
                writer,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Behaviour-App: echo\r\nContent-Length: {}\r\n{}\r\n{body}",
                body.len(),
                if close { "Connection: close\r\n" } else { "" }
            )?;
        }
        writer.flush()?;
        if close {
            break;
        }
        idle_since = Instant::now();
    }
    Ok(())
}

fn stream_chunks(w: &mut TcpStream) -> std::io::Result<()> {
    w.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Behaviour-App: echo\r\nX-Accel-Buffering: no\r\nTransfer-Encoding: chunked\r\n\r\n",
    )?;
    for i in 0..STREAM_CHUNKS {
        if i > 0 {
            std::thread::sleep(STREAM_PAUSE);
        }
        let chunk = format!("chunk {i}\n");
        write!(w, "{:x}\r\n{chunk}\r\n", chunk.len())?;
        w.flush()?;
    }
    w.write_all(b"0\r\n\r\n")?;
    w.flush()
}

fn websocket(
    reader: BufReader<TcpStream>,
    mut writer: TcpStream,
    head: &Head,
) -> std::io::Result<()> {
    let key = head
        .header("sec-websocket-key")
        .ok_or_else(|| std::io::Error::other("upgrade without Sec-WebSocket-Key"))?;
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    write!(
        writer,
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Behaviour-App: echo\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    )?;
    writer.flush()?;
    let leftover = reader.buffer().to_vec();
    let stream = reader.into_inner();
    let mut ws = tungstenite::WebSocket::from_partially_read(
        stream,
        leftover,
        tungstenite::protocol::Role::Server,
        None,
    );
    loop {
        match ws.read() {
            Ok(m @ (tungstenite::Message::Text(_) | tungstenite::Message::Binary(_))) => {
                ws.send(m).map_err(std::io::Error::other)?;
            }
            Ok(tungstenite::Message::Close(_)) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(addr: SocketAddr, raw: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(raw.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn parses_heads_with_repeated_headers() {
        let raw = "GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 1.2.3.4\r\nx-forwarded-for: 5.6.7.8\r\n\r\n";
        let head = read_head(&mut raw.as_bytes()).unwrap().unwrap();
        assert_eq!(head.method, "GET");
        assert_eq!(head.path, "/a?b=1");
        assert_eq!(head.header("x-forwarded-for"), Some("1.2.3.4, 5.6.7.8"));
        assert_eq!(head.header("host"), Some("x"));
        assert!(read_head(&mut "".as_bytes()).unwrap().is_none());
        assert!(read_head(&mut "GET\r\n\r\n".as_bytes()).is_err());
    }

    #[test]
    fn reads_chunked_and_sized_bodies() {
        let head = |h: &str, v: &str| Head {
            method: "POST".into(),
            path: "/".into(),
            version: "HTTP/1.1".into(),
            headers: [(h.to_string(), v.to_string())].into(),
        };
        let mut chunked = "5\r\nhello\r\n3;x=y\r\nabc\r\n0\r\n\r\nNEXT".as_bytes();
        assert_eq!(
            read_body(&mut chunked, &head("transfer-encoding", "chunked")).unwrap(),
            8
        );
        assert_eq!(chunked, b"NEXT");
        let mut sized = "0123456789rest".as_bytes();
        assert_eq!(
            read_body(&mut sized, &head("content-length", "10")).unwrap(),
            10
        );
        assert_eq!(sized, b"rest");
        assert!(read_body(&mut "short".as_bytes(), &head("content-length", "10")).is_err());
    }

    #[test]
    fn echoes_keeps_alive_and_counts() {
        let app = App::start("127.0.0.1:0").unwrap();
        let mut s = TcpStream::connect(app.addr).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        for i in 0..3 {
            write!(
                s,
                "POST /p{i} HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbody"
            )
            .unwrap();
            let head = read_head(&mut r).unwrap().unwrap();
            assert_eq!(
                head.method, "HTTP/1.1",
                "status line parsed as a head: {head:?}"
            );
            assert_eq!(head.header(APP_HEADER), Some("echo"));
            let len: usize = head.header("content-length").unwrap().parse().unwrap();
            let mut body = vec![0; len];
            r.read_exact(&mut body).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(v["path"], format!("/p{i}"));
            assert_eq!(v["body_length"], 4);
            assert_eq!(v["headers"]["host"], "h");
        }
        drop((s, r));
        assert_eq!(app.accepted(), 1, "three requests on one connection");
        assert_eq!(app.requests(), 3);
        assert!(app.saw("/p2"));
        assert!(!app.saw("/p3"));
        let out = get(
            app.addr,
            "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        );
        assert!(out.contains("Connection: close"), "{out}");
        assert_eq!(app.close_requested(), 1);
        assert_eq!(app.accepted(), 2);
        app.reset();
        assert_eq!(
            (app.accepted(), app.requests(), app.close_requested()),
            (0, 0, 0)
        );
        assert!(!app.saw("/p2"));
    }

    #[test]
    fn loses_an_idle_request_after_its_timeout() {
        let app = App::start("127.0.0.1:0").unwrap();
        let mut s = TcpStream::connect(app.addr).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut ask = |path: &str| {
            write!(s, "GET {path} HTTP/1.1\r\nHost: h\r\n\r\n").unwrap();
            let head = read_head(&mut r).unwrap();
            if let Some(h) = &head {
                let len: usize = h.header("content-length").unwrap().parse().unwrap();
                r.read_exact(&mut vec![0; len]).unwrap();
            }
            head.is_some()
        };
        assert!(ask("/idle-1"), "a fresh connection is answered");
        std::thread::sleep(IDLE_TIMEOUT / 2);
        assert!(ask("/idle-2"), "within the timeout");
        std::thread::sleep(IDLE_TIMEOUT + Duration::from_millis(200));
        assert!(!ask("/idle-3"), "after the timeout: closed, unanswered");
        assert_eq!((app.requests(), app.lost()), (2, 1));
    }

    #[test]
    fn streams_chunks_apart() {
        let app = App::start("127.0.0.1:0").unwrap();
        let start = std::time::Instant::now();
        let mut s = TcpStream::connect(app.addr).unwrap();
        s.write_all(b"GET /stream HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut first = [0; 64];
        let n = s.read(&mut first).unwrap();
        let ttfb = start.elapsed();
        let mut rest = String::new();
        s.read_to_string(&mut rest).unwrap();
        let all = format!("{}{rest}", String::from_utf8_lossy(&first[..n]));
        assert!(ttfb < STREAM_PAUSE, "{ttfb:?}");
        assert!(start.elapsed() >= STREAM_PAUSE * 4, "{:?}", start.elapsed());
        assert!(all.contains("X-Accel-Buffering: no"), "{all}");
        assert!(all.contains("chunk 4\n"), "{all}");
    }

    #[test]
    fn websocket_echoes_in_order() {
        let app = App::start("127.0.0.1:0").unwrap();
        let stream = TcpStream::connect(app.addr).unwrap();
        let (mut ws, resp) =
            tungstenite::client::client(format!("ws://{}/ws", app.addr), stream).unwrap();
        assert_eq!(resp.status(), 101);
        for i in 0..50 {
            ws.send(tungstenite::Message::text(format!("m{i}")))
                .unwrap();
            assert_eq!(
                ws.read().unwrap().into_text().unwrap().as_str(),
                format!("m{i}")
            );
        }
        ws.close(None).unwrap();
        // Without `Connection: upgrade` (a proxy that drops it), no upgrade.
        let out = get(
            app.addr,
            "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        );
        assert!(out.starts_with("HTTP/1.1 400"), "{out}");
    }
}
