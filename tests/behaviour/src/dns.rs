//! The application by name, looked up again (`--upstream-resolve`): a tree whose
//! upstream is `app.test`, asked of a DNS server written here (a few lines of RFC 1035 over
//! UDP, on an address of the test's own namespace), on nginx 1.27.3 and later, where nginx
//! can (`server … resolve`).

use std::net::{Ipv4Addr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use crate::behaviours::{Behaviour, Ctx, expect};
use crate::grid::{APP_PORT, Special, Tree};

/// The tree.
pub const TREE: &str = "proxy-upstream-resolve";
/// The application's name.
pub const NAME: &str = "app.test";
/// The DNS server the tree is generated with (`--resolver`).
pub const SERVER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 153);

/// The tree: the proxy workload, its application by name, looked up again.
pub fn trees() -> Vec<Tree> {
    vec![
        Tree::new(TREE, "proxy", "dns.test")
            .special(Special::UpstreamResolve)
            .extra(&["--upstream-resolve", "--resolver", "127.0.0.153"]),
    ]
}

/// A DNS server that answers `A` queries for [`NAME`] with the address in `answer` and
/// every other query with no record; before it starts, nothing answers on its address.
struct Stub {
    answer: Arc<AtomicU32>,
    stop: Arc<AtomicU32>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Stub {
    fn start(answer: Ipv4Addr) -> Result<Self, String> {
        let socket =
            UdpSocket::bind((SERVER, 53)).map_err(|e| format!("DNS stub on {SERVER}:53: {e}"))?;
        socket
            .set_read_timeout(Some(Duration::from_millis(100)))
            .map_err(|e| e.to_string())?;
        let answer = Arc::new(AtomicU32::new(answer.into()));
        let stop = Arc::new(AtomicU32::new(0));
        let (a, s) = (Arc::clone(&answer), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            let mut buf = [0u8; 512];
            while s.load(Ordering::Relaxed) == 0 {
                if let Ok((n, peer)) = socket.recv_from(&mut buf) {
                    let addr = Ipv4Addr::from(a.load(Ordering::Relaxed));
                    if let Some(reply) = reply(&buf[..n], addr) {
                        let _ = socket.send_to(&reply, peer);
                    }
                }
            }
        });
        Ok(Self {
            answer,
            stop,
            thread: Some(thread),
        })
    }

    fn answer(&self, addr: Ipv4Addr) {
        self.answer.store(addr.into(), Ordering::Relaxed);
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(1, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The answer to one query: the header with the query's id and recursion flag, the
/// question, and an `A` record for [`NAME`] (TTL 1 s) when it asks for one.
fn reply(query: &[u8], addr: Ipv4Addr) -> Option<Vec<u8>> {
    if query.len() < 12 || query[4..6] != [0, 1] {
        return None;
    }
    // The question: labels up to the root, then type and class.
    let mut end = 12;
    let mut labels = Vec::new();
    loop {
        let len = usize::from(*query.get(end)?);
        end += 1;
        if len == 0 {
            break;
        }
        labels.push(String::from_utf8_lossy(query.get(end..end + len)?).to_ascii_lowercase());
        end += len;
    }
    let qtype = query.get(end..end + 2)?;
    let question = &query[12..end + 4];
    let ours = labels.join(".") == NAME && qtype == [0, 1];
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(&query[0..2]);
    // A response, the query's RD bit, recursion available, no error.
    out.extend_from_slice(&[0x80 | (query[2] & 0x01), 0x80]);
    out.extend_from_slice(&[0, 1, 0, u8::from(ours), 0, 0, 0, 0]);
    out.extend_from_slice(question);
    if ours {
        // The name by a pointer to the question, A, IN, TTL 1 s, four bytes.
        out.extend_from_slice(&[0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4]);
        out.extend_from_slice(&addr.octets());
    }
    Some(out)
}

/// The first status of `GET /` within `limit` that `done` accepts, polling twice a second.
fn wait_for(ctx: &Ctx, limit: Duration, done: impl Fn(u16) -> bool) -> Result<u16, u16> {
    let start = Instant::now();
    let mut last = 0;
    while start.elapsed() < limit {
        last = ctx.send(&ctx.site("/")).status;
        if done(last) {
            return Ok(last);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    Err(last)
}

/// nginx starts while the application's name does not resolve yet (without `resolve` it
/// refuses to start: host not found in upstream) and answers 502; once the DNS server
/// answers with the application's address the requests reach it, and when the name moves
/// to another address (a container that restarted) nginx follows within seconds, without
/// a reload: an address with nothing listening gives 502 again.
fn upstream_name_followed(ctx: &Ctx) -> Result<(), String> {
    let first = ctx.send(&ctx.site("/")).status;
    expect(first == 502, || {
        format!("before the name resolves: status {first}, want 502")
    })?;
    let app = Ipv4Addr::LOCALHOST;
    let stub = Stub::start(app)?;
    let seen = wait_for(ctx, Duration::from_mins(1), |s| s == 200);
    expect(seen.is_ok(), || {
        format!("{NAME} → {app}: no 200 within 60 s (last status {seen:?})")
    })?;
    let moved = Ipv4Addr::new(127, 0, 0, 2);
    stub.answer(moved);
    let start = Instant::now();
    let gone = wait_for(ctx, Duration::from_secs(30), |s| s == 502);
    let secs = start.elapsed().as_secs_f64();
    expect(gone.is_ok(), || {
        format!(
            "{NAME} moved to {moved} (port {APP_PORT} closed there): no 502 within 30 s (last {gone:?})"
        )
    })?;
    // The resolver's `valid=10s` bounds how long nginx keeps the old address.
    expect(secs <= 15.0, || {
        format!("{NAME} moved: nginx followed after {secs:.1} s, want at most 15 s (valid=10s)")
    })
}

/// The behaviours of this module.
pub fn all() -> Vec<Behaviour> {
    vec![Behaviour {
        name: "upstream_name_followed",
        applies: |t| t.special == Special::UpstreamResolve,
        run: upstream_name_followed,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dig app.test A` as the bytes a resolver sends (id 0x1234, RD).
    fn query(name: &str, qtype: u8) -> Vec<u8> {
        let mut q = vec![0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0];
        for label in name.split('.') {
            q.push(u8::try_from(label.len()).unwrap());
            q.extend_from_slice(label.as_bytes());
        }
        q.extend_from_slice(&[0, 0, qtype, 0, 1]);
        q
    }

    #[test]
    fn answers_its_name_only() {
        let q = query("App.Test", 1);
        let r = reply(&q, Ipv4Addr::LOCALHOST).unwrap();
        assert_eq!(&r[0..2], &[0x12, 0x34]);
        assert_eq!(r[2] & 0x80, 0x80, "a response");
        assert_eq!(&r[6..8], &[0, 1], "one answer");
        assert_eq!(&r[r.len() - 4..], &[127, 0, 0, 1]);
        // AAAA and other names: no record, no error.
        for q in [query("app.test", 28), query("other.test", 1)] {
            let r = reply(&q, Ipv4Addr::LOCALHOST).unwrap();
            assert_eq!(&r[6..8], &[0, 0]);
            assert_eq!(r[3] & 0x0f, 0);
            assert_eq!(r.len(), q.len());
        }
        assert_eq!(reply(&q[..10], Ipv4Addr::LOCALHOST), None);
    }
}
