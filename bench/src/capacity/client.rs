//! The capacity mode's client: thousands of HTTP/1.1 keep-alive connections (plain or TLS)
//! opened on non-blocking sockets, a window of them in flight per thread, driven by
//! `poll(2)`. Each connection is bound to one of several loopback source addresses
//! (127.0.0.2, 127.0.0.3, …), so ephemeral ports never run out, sends one request, reads
//! the whole answer and stays open. Established connections can then be probed (still
//! open?), asked again (keep-alive refresh) or made to fetch a large file read slowly.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpStream};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use openssl::ssl::{
    ErrorCode, HandshakeError, MidHandshakeSslStream, SslConnector, SslMethod, SslStream,
    SslVerifyMode,
};
use rustix::event::{PollFd, PollFlags, poll};
use rustix::net::{AddressFamily, SocketFlags, SocketType, sockopt};

/// Loopback source addresses the connections are spread over (127.0.0.2 …).
const SOURCES: usize = 32;
/// Receive buffer of every client socket (the kernel doubles it): small, so that slow
/// readers do not let the kernel queue megabytes on either side.
const RCVBUF: usize = 8 * 1024;
/// Connections in flight per thread while opening.
const WINDOW: usize = 128;
/// How long one connection may take to connect, shake hands and be answered.
const TIMEOUT: Duration = Duration::from_secs(5);
/// The largest response head accepted.
const MAX_HEAD: usize = 64 * 1024;

/// Where to connect and how.
#[derive(Clone)]
pub struct Target {
    pub addr: SocketAddrV4,
    /// `Some` for TLS (certificate not verified: the test certificate is self-signed).
    pub tls: Option<SslConnector>,
    /// Host header and SNI.
    pub host: String,
    /// The network namespace the sockets are created in (`/run/netns/NAME`).
    pub netns: Option<String>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("addr", &self.addr)
            .field("tls", &self.tls.is_some())
            .field("host", &self.host)
            .field("netns", &self.netns)
            .finish()
    }
}

impl Target {
    pub fn new(
        addr: SocketAddrV4,
        tls: bool,
        host: &str,
        netns: Option<&str>,
    ) -> Result<Self, String> {
        let tls = if tls {
            let mut b =
                SslConnector::builder(SslMethod::tls_client()).map_err(|e| e.to_string())?;
            b.set_verify(SslVerifyMode::NONE);
            Some(b.build())
        } else {
            None
        };
        Ok(Self {
            addr,
            tls,
            host: host.to_string(),
            netns: netns.map(|n| format!("/run/netns/{n}")),
        })
    }

    /// `GET path` on a keep-alive connection.
    pub fn request(&self, path: &str) -> Vec<u8> {
        format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: nginx-gen-bench-capacity\r\n\r\n",
            self.host
        )
        .into_bytes()
    }
}

/// A plain or TLS stream.
#[derive(Debug)]
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<SslStream<TcpStream>>),
}

impl Stream {
    fn tcp(&self) -> &TcpStream {
        match self {
            Self::Plain(s) => s,
            Self::Tls(s) => s.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Self::Plain(s) => s.read(buf),
            Self::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Plain(s) => s.write(buf),
            Self::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Plain(s) => s.flush(),
            Self::Tls(s) => s.flush(),
        }
    }
}

/// An established, answered connection.
#[derive(Debug)]
pub struct Conn {
    pub stream: Stream,
    /// When its last answer was complete (for the keep-alive refresh).
    pub answered: Instant,
}

/// Outcomes counted by kind: `ok`, and every failure under a short label.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub ok: u32,
    pub failed: BTreeMap<String, u32>,
}

impl Tally {
    pub fn fail(&mut self, why: impl Into<String>) {
        *self.failed.entry(why.into()).or_default() += 1;
    }
    pub fn failures(&self) -> u32 {
        self.failed.values().sum()
    }
    pub fn add(&mut self, other: &Self) {
        self.ok += other.ok;
        for (k, v) in &other.failed {
            *self.failed.entry(k.clone()).or_default() += v;
        }
    }
    /// `none`, or `label ×N, …`.
    pub fn describe(&self) -> String {
        if self.failed.is_empty() {
            "none".into()
        } else {
            self.failed
                .iter()
                .map(|(k, v)| format!("{k} ×{v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
    /// Failures the harness itself caused (it ran out of files or ports): the run is void.
    pub fn harness_failure(&self) -> Option<&str> {
        self.failed
            .keys()
            .find(|k| k.starts_with("harness"))
            .map(String::as_str)
    }
}

/// An HTTP/1.1 response read incrementally: its status, then its body by Content-Length.
#[derive(Debug, Default)]
pub struct Response {
    head: Vec<u8>,
    pub status: Option<u16>,
    remaining: u64,
}

/// What [`Response::feed`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Progress {
    More,
    Done(u16),
}

impl Response {
    /// Takes the next bytes of the response.
    pub fn feed(&mut self, data: &[u8]) -> Result<Progress, String> {
        let body = if self.status.is_some() {
            data.len() as u64
        } else {
            self.head.extend_from_slice(data);
            let Some(end) = self.head.windows(4).position(|w| w == b"\r\n\r\n") else {
                return if self.head.len() > MAX_HEAD {
                    Err("response head too long".into())
                } else {
                    Ok(Progress::More)
                };
            };
            let head = String::from_utf8_lossy(&self.head[..end]).to_string();
            let mut lines = head.split("\r\n");
            let status = lines
                .next()
                .and_then(|l| {
                    l.strip_prefix("HTTP/1.1 ")
                        .or_else(|| l.strip_prefix("HTTP/1.0 "))
                })
                .and_then(|l| l.get(..3)?.parse::<u16>().ok())
                .ok_or_else(|| format!("not an HTTP response: {:?}", head.lines().next()))?;
            let mut length = None;
            for l in lines {
                let Some((name, value)) = l.split_once(':') else {
                    continue;
                };
                if name.trim().eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<u64>().ok();
                } else if name.trim().eq_ignore_ascii_case("transfer-encoding") {
                    return Err("chunked responses are not read by this client".into());
                }
            }
            self.status = Some(status);
            self.remaining = length.unwrap_or(0);
            let after = (self.head.len() - end - 4) as u64;
            self.head.clear();
            after
        };
        self.remaining = self.remaining.saturating_sub(body);
        match (self.remaining, self.status) {
            (0, Some(s)) => Ok(Progress::Done(s)),
            _ => Ok(Progress::More),
        }
    }
}

/// A short label for an I/O failure; `harness: …` when this process is at fault.
fn label(stage: &str, e: &io::Error) -> String {
    match (e.raw_os_error(), e.kind()) {
        (Some(24 | 23), _) => "harness: too many open files".into(),
        (Some(99), _) => "harness: no free source port".into(),
        (_, io::ErrorKind::ConnectionRefused) => format!("{stage}: refused"),
        (_, io::ErrorKind::ConnectionReset) => format!("{stage}: reset"),
        (_, io::ErrorKind::BrokenPipe) => format!("{stage}: closed by nginx"),
        (_, io::ErrorKind::TimedOut) => format!("{stage}: timed out"),
        _ => format!("{stage}: {}", e.kind()),
    }
}

fn would_block(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
}

/// One connection on its way to an answer.
enum Step {
    Connecting(TcpStream),
    Handshaking(MidHandshakeSslStream<TcpStream>),
    Sending(Stream, usize),
    Receiving(Stream, Response),
}

impl Step {
    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            Self::Connecting(s) => s.as_fd(),
            Self::Handshaking(m) => m.get_ref().as_fd(),
            Self::Sending(s, _) | Self::Receiving(s, _) => s.tcp().as_fd(),
        }
    }
    /// What the step waits for.
    fn interest(&self) -> PollFlags {
        match self {
            Self::Connecting(_) | Self::Sending(..) => PollFlags::OUT,
            Self::Handshaking(m) if m.error().code() == ErrorCode::WANT_WRITE => PollFlags::OUT,
            Self::Handshaking(_) | Self::Receiving(..) => PollFlags::IN,
        }
    }
    fn name(&self) -> &'static str {
        match self {
            Self::Connecting(_) => "connect",
            Self::Handshaking(_) => "TLS handshake",
            Self::Sending(..) => "request",
            Self::Receiving(..) => "answer",
        }
    }
}

enum Advanced {
    Wait(Step),
    Done(Stream),
}

fn handshake(
    r: Result<SslStream<TcpStream>, HandshakeError<TcpStream>>,
) -> Result<Advanced, String> {
    match r {
        Ok(s) => Ok(Advanced::Wait(Step::Sending(Stream::Tls(Box::new(s)), 0))),
        Err(HandshakeError::WouldBlock(m)) => Ok(Advanced::Wait(Step::Handshaking(m))),
        Err(HandshakeError::Failure(m)) => Err(match (m.error().io_error(), m.error().code()) {
            (Some(e), _) => label("TLS handshake", e),
            (None, ErrorCode::SYSCALL | ErrorCode::ZERO_RETURN) => {
                "TLS handshake: closed by nginx".into()
            }
            (None, ErrorCode::SSL) => "TLS handshake: protocol error".into(),
            (None, code) => format!("TLS handshake: OpenSSL error {}", code.as_raw()),
        }),
        Err(HandshakeError::SetupFailure(e)) => Err(format!("harness: TLS setup: {e}")),
    }
}

/// Moves a connection on as far as it goes without blocking.
fn advance(mut step: Step, t: &Target, req: &[u8]) -> Result<Advanced, String> {
    let mut buf = [0u8; 16 * 1024];
    loop {
        step = match step {
            Step::Connecting(s) => {
                match sockopt::socket_error(&s) {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) | Err(e) => return Err(label("connect", &e.into())),
                }
                if s.peer_addr().is_err() {
                    return Ok(Advanced::Wait(Step::Connecting(s)));
                }
                match &t.tls {
                    None => Step::Sending(Stream::Plain(s), 0),
                    Some(c) => {
                        let config = c.configure().map_err(|e| format!("harness: TLS: {e}"))?;
                        match handshake(config.connect(&t.host, s))? {
                            Advanced::Wait(next) => next,
                            done @ Advanced::Done(_) => return Ok(done),
                        }
                    }
                }
            }
            Step::Handshaking(m) => match handshake(m.handshake())? {
                Advanced::Wait(next @ Step::Handshaking(_)) => {
                    return Ok(Advanced::Wait(next));
                }
                Advanced::Wait(next) => next,
                done @ Advanced::Done(_) => return Ok(done),
            },
            Step::Sending(mut s, n) => match s.write(&req[n..]) {
                Ok(k) if n + k == req.len() => Step::Receiving(s, Response::default()),
                Ok(k) => Step::Sending(s, n + k),
                Err(e) if would_block(&e) => return Ok(Advanced::Wait(Step::Sending(s, n))),
                Err(e) => return Err(label("request", &e)),
            },
            Step::Receiving(mut s, mut r) => match s.read(&mut buf) {
                Ok(0) => return Err("answer: closed by nginx".into()),
                Ok(k) => match r.feed(&buf[..k])? {
                    Progress::Done(200) => return Ok(Advanced::Done(s)),
                    Progress::Done(code) => return Err(format!("answer: HTTP {code}")),
                    Progress::More => Step::Receiving(s, r),
                },
                Err(e) if would_block(&e) => return Ok(Advanced::Wait(Step::Receiving(s, r))),
                Err(e) => return Err(label("answer", &e)),
            },
        };
    }
}

/// A new non-blocking socket bound to source address number `index`, connecting.
fn start(index: usize, t: &Target) -> io::Result<TcpStream> {
    let fd = rustix::net::socket_with(
        AddressFamily::INET,
        SocketType::STREAM,
        SocketFlags::NONBLOCK | SocketFlags::CLOEXEC,
        None,
    )?;
    sockopt::set_socket_recv_buffer_size(&fd, RCVBUF)?;
    let src = Ipv4Addr::new(127, 0, 0, 2 + (index % SOURCES) as u8);
    rustix::net::bind(&fd, &SocketAddrV4::new(src, 0))?;
    match rustix::net::connect(&fd, &t.addr) {
        Ok(()) | Err(rustix::io::Errno::INPROGRESS) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(TcpStream::from(fd))
}

/// Drives `steps` (started lazily, at most `window` at a time) to their answers.
fn drive(
    mut next: impl FnMut() -> Option<Result<Step, String>>,
    window: usize,
    t: &Target,
    req: &[u8],
) -> (Vec<Conn>, Tally) {
    let mut done = Vec::new();
    let mut tally = Tally::default();
    let mut flight: Vec<(Step, Instant)> = Vec::with_capacity(window.min(1024));
    let mut exhausted = false;
    loop {
        while !exhausted && flight.len() < window {
            match next() {
                None => exhausted = true,
                Some(Err(why)) => tally.fail(why),
                Some(Ok(step)) => match advance(step, t, req) {
                    Ok(Advanced::Wait(s)) => flight.push((s, Instant::now())),
                    Ok(Advanced::Done(stream)) => {
                        tally.ok += 1;
                        done.push(Conn {
                            stream,
                            answered: Instant::now(),
                        });
                    }
                    Err(why) => tally.fail(why),
                },
            }
        }
        if flight.is_empty() {
            return (done, tally);
        }
        let ready: Vec<bool> = {
            let mut fds: Vec<PollFd> = flight
                .iter()
                .map(|(s, _)| PollFd::from_borrowed_fd(s.fd(), s.interest()))
                .collect();
            let timeout = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: 50_000_000,
            };
            let _ = poll(&mut fds, Some(&timeout));
            fds.iter().map(|f| !f.revents().is_empty()).collect()
        };
        let mut kept = Vec::with_capacity(flight.len());
        for ((step, since), ready) in flight.drain(..).zip(ready) {
            if !ready {
                if since.elapsed() > TIMEOUT {
                    tally.fail(format!("{}: timed out", step.name()));
                } else {
                    kept.push((step, since));
                }
                continue;
            }
            match advance(step, t, req) {
                Ok(Advanced::Wait(s)) => kept.push((s, since)),
                Ok(Advanced::Done(stream)) => {
                    tally.ok += 1;
                    done.push(Conn {
                        stream,
                        answered: Instant::now(),
                    });
                }
                Err(why) => tally.fail(why),
            }
        }
        flight = kept;
    }
}

/// Enters the target's network namespace (this thread only).
fn enter(netns: Option<&str>) -> Result<(), String> {
    let Some(path) = netns else { return Ok(()) };
    let f = File::open(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    rustix::thread::move_into_link_name_space(
        f.as_fd(),
        Some(rustix::thread::LinkNameSpaceType::Network),
    )
    .map_err(|e| format!("setns {path}: {e}"))
}

/// Opens connections `first..first + count`, each answered once (`GET path`), on `threads`
/// threads. Returns the open connections and the outcome of every attempt.
pub fn open(
    t: &Target,
    path: &str,
    first: usize,
    count: usize,
    threads: usize,
) -> Result<(Vec<Conn>, Tally), String> {
    let req = t.request(path);
    let threads = threads.clamp(1, count.max(1));
    let results: Vec<Result<(Vec<Conn>, Tally), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let req = &req;
                scope.spawn(move || {
                    enter(t.netns.as_deref())?;
                    let mut indices = (first + k..first + count).step_by(threads);
                    let next = || {
                        let i = indices.next()?;
                        Some(
                            start(i, t)
                                .map(Step::Connecting)
                                .map_err(|e| label("connect", &e)),
                        )
                    };
                    Ok(drive(next, WINDOW, t, req))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a client thread panicked".into()))
            })
            .collect()
    });
    let mut conns = Vec::with_capacity(count);
    let mut tally = Tally::default();
    for r in results {
        let (c, t) = r?;
        conns.extend(c);
        tally.add(&t);
    }
    Ok((conns, tally))
}

/// Checks that every connection is still open: a connection idle for longer than
/// `refresh_after` is asked again (a keep-alive client before nginx's timeout would close
/// it), the others are probed with a non-blocking read. Keeps the open ones; also returns
/// how many were asked again.
pub fn check(
    conns: Vec<Conn>,
    t: &Target,
    path: &str,
    refresh_after: Duration,
) -> (Vec<Conn>, Tally, usize) {
    let mut tally = Tally::default();
    let mut open = Vec::with_capacity(conns.len());
    let mut stale = Vec::new();
    for mut c in conns {
        if c.answered.elapsed() > refresh_after {
            stale.push(c.stream);
            continue;
        }
        match c.stream.read(&mut [0u8; 1]) {
            Err(e) if would_block(&e) => {
                tally.ok += 1;
                open.push(c);
            }
            // A byte arrived on an idle connection: it is open (the byte is lost, which
            // only matters to a connection that is not asked again).
            Ok(1..) => {
                tally.ok += 1;
                open.push(c);
            }
            Ok(0) => tally.fail("closed by nginx"),
            Err(e) => tally.fail(label("probe", &e)),
        }
    }
    let req = t.request(path);
    let asked_again = stale.len();
    let mut stale = stale.into_iter();
    let (again, asked) = drive(
        || stale.next().map(|s| Ok(Step::Sending(s, 0))),
        usize::MAX,
        t,
        &req,
    );
    tally.add(&asked);
    open.extend(again);
    (open, tally, asked_again)
}

/// Connections that requested a large file and read it slowly.
#[derive(Debug)]
pub struct Active {
    conns: Vec<(Stream, Response)>,
    /// Requests that could not be sent.
    pub unsent: Tally,
}

impl Active {
    /// Sends `GET path` on each connection.
    pub fn start(conns: Vec<Conn>, t: &Target, path: &str) -> Self {
        let req = t.request(path);
        let mut unsent = Tally::default();
        let mut out = Vec::with_capacity(conns.len());
        for mut c in conns {
            // The request is far smaller than any socket buffer: one write sends it.
            match c.stream.write(&req) {
                Ok(n) if n == req.len() => out.push((c.stream, Response::default())),
                Ok(_) => unsent.fail("request: partial write"),
                Err(e) => unsent.fail(label("request", &e)),
            }
        }
        Self { conns: out, unsent }
    }

    /// Reads at most `bytes` from each connection without blocking.
    pub fn read_some(&mut self, bytes: usize) {
        let mut buf = vec![0u8; bytes];
        for (s, r) in &mut self.conns {
            if let Ok(n @ 1..) = s.read(&mut buf) {
                let _ = r.feed(&buf[..n]);
            }
        }
    }

    /// Answers by status so far: `ok` counts 200s; no answer yet is `no answer yet`.
    pub fn answers(&self) -> Tally {
        let mut t = self.unsent.clone();
        for (_, r) in &self.conns {
            match r.status {
                Some(200) => t.ok += 1,
                Some(code) => t.fail(format!("answer: HTTP {code}")),
                None => t.fail("answer: none yet"),
            }
        }
        t
    }

    /// The connections, to be probed like idle ones (a read takes a byte of the body).
    pub fn into_conns(self) -> Vec<Conn> {
        let now = Instant::now();
        self.conns
            .into_iter()
            .map(|(stream, _)| Conn {
                stream,
                answered: now,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_is_read_by_its_length_in_any_pieces() {
        let text = b"HTTP/1.1 200 OK\r\nServer: nginx\r\ncontent-length: 10\r\n\r\n0123456789";
        for split in [1, 7, 40, 60, text.len()] {
            let mut r = Response::default();
            let mut last = Progress::More;
            for piece in text.chunks(split) {
                last = r.feed(piece).expect("valid");
            }
            assert_eq!(last, Progress::Done(200), "pieces of {split}");
        }
        let mut r = Response::default();
        assert_eq!(
            r.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n12"),
            Ok(Progress::More)
        );
        assert_eq!(r.status, Some(200));
        assert_eq!(r.feed(b"345"), Ok(Progress::Done(200)));
    }

    #[test]
    fn statuses_and_broken_answers() {
        let mut r = Response::default();
        assert_eq!(
            r.feed(b"HTTP/1.1 308 Permanent Redirect\r\nContent-Length: 0\r\n\r\n"),
            Ok(Progress::Done(308))
        );
        assert!(Response::default().feed(b"SSH-2.0-x\r\n\r\n").is_err());
        assert!(
            Response::default()
                .feed(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                .is_err()
        );
        let mut r = Response::default();
        assert!(r.feed(&vec![b'x'; MAX_HEAD + 1]).is_err());
    }

    #[test]
    fn tallies_add_and_name_the_harness() {
        let mut a = Tally {
            ok: 3,
            ..Tally::default()
        };
        a.fail("answer: HTTP 503");
        let mut b = Tally::default();
        b.fail("answer: HTTP 503");
        b.fail("connect: refused");
        a.add(&b);
        assert_eq!(a.failures(), 3);
        assert_eq!(a.describe(), "answer: HTTP 503 ×2, connect: refused ×1");
        assert_eq!(a.harness_failure(), None);
        a.fail(label("connect", &io::Error::from_raw_os_error(24)));
        assert_eq!(a.harness_failure(), Some("harness: too many open files"));
        assert_eq!(Tally::default().describe(), "none");
    }
}
