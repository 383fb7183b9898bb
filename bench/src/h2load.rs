//! Running h2load (Debian's `nghttp2-client`) for the HTTP/2 scenario and reading its
//! output: the totals from its summary, the latency percentiles from its per-request log
//! (`--log-file`; the summary has only min, max, mean and sd).
//!
//! The run is a fixed number of requests per connection, not a duration: a connection that
//! reaches nginx's `keepalive_requests` (1000 in every variant) gets a GOAWAY, and h2load
//! 1.52 does not reconnect, so a timed run would stop loading after 1000 requests per
//! connection. [`requests_per_connection`] keeps below that.

use std::path::Path;

use crate::proc::Launch;
use crate::wrk::WrkResult;

/// Requests per connection stay below nginx's default `keepalive_requests` (1000).
const MAX_PER_CONNECTION: u32 = 900;

/// About this many requests per second of `--seconds`: roughly a second of work for one
/// nginx worker serving the 30 KB page over HTTP/2.
const REQUESTS_PER_SECOND: u32 = 12_000;

/// Requests per connection for a run of about `seconds` with `conns` connections, at least
/// 10 and at most [`MAX_PER_CONNECTION`].
pub fn requests_per_connection(conns: u32, seconds: u32) -> u32 {
    (REQUESTS_PER_SECOND.saturating_mul(seconds) / conns.max(1)).clamp(10, MAX_PER_CONNECTION)
}

/// The totals of h2load's summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub total: u64,
    pub done: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub errored: u64,
    pub timeout: u64,
    pub status_4xx: u64,
    pub status_5xx: u64,
    /// Bytes received (`traffic: … (N) total`).
    pub bytes: u64,
    /// Requests per second as h2load computes them (requests done ÷ its own clock).
    pub rps: f64,
    /// `finished in …`, in µs (two decimals: coarse).
    pub finished_us: u64,
    /// The negotiated protocol (`Application protocol: h2`).
    pub protocol: String,
}

fn number(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

/// `1.00s`, `97.72ms`, `850us` → µs.
fn duration_us(s: &str) -> Option<u64> {
    let s = s.trim();
    let (v, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 1e3)
    } else if let Some(v) = s.strip_suffix("us") {
        (v, 1.0)
    } else {
        (s.strip_suffix('s')?, 1e6)
    };
    let v: f64 = v.parse().ok()?;
    Some((v * scale).round() as u64)
}

/// `N word, M word, …` → the number before `word`.
fn count(line: &str, word: &str) -> Option<u64> {
    line.split(',').find_map(|part| {
        let mut it = part.split_whitespace().rev();
        let w = it.next()?;
        let n = it.next()?;
        (w == word).then(|| number(n)).flatten()
    })
}

/// Parses h2load's summary (stdout).
pub fn parse(stdout: &str) -> Option<Summary> {
    let mut s = Summary::default();
    let mut seen = 0;
    for line in stdout.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("finished in ") {
            // finished in 1.00s, 4000.00 req/s, 500.26KB/s
            let mut parts = rest.split(',');
            s.finished_us = duration_us(parts.next()?)?;
            s.rps = parts.next()?.trim().strip_suffix(" req/s")?.parse().ok()?;
            seen += 1;
        } else if let Some(rest) = line.strip_prefix("requests: ") {
            s.total = count(rest, "total")?;
            s.done = count(rest, "done")?;
            s.succeeded = count(rest, "succeeded")?;
            s.failed = count(rest, "failed")?;
            s.errored = count(rest, "errored")?;
            s.timeout = count(rest, "timeout")?;
            seen += 1;
        } else if let Some(rest) = line.strip_prefix("status codes: ") {
            s.status_4xx = count(rest, "4xx")?;
            s.status_5xx = count(rest, "5xx")?;
            seen += 1;
        } else if let Some(rest) = line.strip_prefix("traffic: ") {
            // traffic: 500.26KB (512264) total, 406.25KB (416000) headers …
            let open = rest.find('(')?;
            let close = rest[open..].find(')')? + open;
            s.bytes = number(&rest[open + 1..close])?;
            seen += 1;
        } else if let Some(p) = line.strip_prefix("Application protocol: ") {
            s.protocol = p.trim().to_string();
        }
    }
    (seen == 4).then_some(s)
}

/// The request durations (µs) of h2load's `--log-file`: one line per request,
/// `start (µs since the epoch) TAB status TAB duration (µs)`.
pub fn log_durations(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| number(l.split('\t').nth(2)?))
        .collect()
}

/// The `p`th percentile (nearest rank) of sorted values; 0 for none.
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The summary and the log as one run's figures, in the shape of a wrk run.
pub fn result(s: &Summary, mut durations: Vec<u64>) -> WrkResult {
    durations.sort_unstable();
    // h2load's req/s is requests done ÷ its clock: the clock to the µs.
    let duration_us = if s.rps > 0.0 {
        (s.done as f64 * 1e6 / s.rps).round() as u64
    } else {
        s.finished_us
    };
    WrkResult {
        // As wrk counts: every response, whatever its status.
        requests: s.done,
        duration_us,
        bytes: s.bytes,
        // Reset streams and network errors, timeouts, and requests never done.
        socket_errors: s.errored + s.timeout + s.total.saturating_sub(s.done),
        bad_status: s.status_4xx + s.status_5xx,
        p50_us: percentile(&durations, 50.0),
        p99_us: percentile(&durations, 99.0),
        ..WrkResult::default()
    }
}

/// One HTTP/2 run: `h2load -t1 -cN -m STREAMS -n N×per` against `https://bench.test:PORT`,
/// connecting to `addr` (the SNI and `:authority` name the site).
#[allow(
    clippy::too_many_arguments,
    reason = "one run's parameters, named at the call"
)]
pub fn run(
    launch: &Launch,
    addr: &str,
    port: u16,
    path: &str,
    conns: u32,
    streams: u32,
    seconds: u32,
    log: &Path,
) -> Result<WrkResult, String> {
    let requests = conns * requests_per_connection(conns, seconds);
    let out = launch
        .command("h2load")
        .args([
            "-t1",
            &format!("-c{conns}"),
            &format!("-m{streams}"),
            &format!("-n{requests}"),
            "--connect-to",
            &format!("{addr}:{port}"),
            "--log-file",
        ])
        .arg(log)
        .arg(format!("https://bench.test:{port}{path}"))
        .output()
        .map_err(|e| format!("h2load: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "h2load failed ({}): {stdout}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let summary = parse(&stdout).ok_or_else(|| format!("h2load printed no summary:\n{stdout}"))?;
    if summary.protocol != "h2" {
        return Err(format!(
            "h2load negotiated `{}`, not h2:\n{stdout}",
            summary.protocol
        ));
    }
    let log_text = std::fs::read_to_string(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let _ = std::fs::remove_file(log);
    Ok(result(&summary, log_durations(&log_text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// h2load 1.52 against nginx 1.22 on this machine (`-t1 -c4 -m4 -n4000`, a 40 KB page),
    /// as captured.
    const OUTPUT: &str = "starting benchmark...
spawning thread #0: 4 total client(s). 4000 total requests
TLS Protocol: TLSv1.3
Cipher: TLS_AES_128_GCM_SHA256
Server Temp Key: X25519 253 bits
Application protocol: h2
progress: 10% done
progress: 100% done

finished in 760.50ms, 5259.71 req/s, 204.11MB/s
requests: 4000 total, 4000 started, 4000 done, 4000 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 4000 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 155.22MB (162764264) total, 429.69KB (440000) headers (space savings 38.89%), 154.60MB (162108000) data
                     min         max         mean         sd        +/- sd
time for request:       96us     32.36ms      2.78ms      2.96ms    86.88%
time for connect:     5.93ms      8.88ms      7.85ms      1.32ms    75.00%
time to 1st byte:    20.01ms     20.36ms     20.17ms       158us    75.00%
req/s           :    1315.56     1336.59     1324.75       10.78    75.00%
";

    /// A timed run (`-c4 -m4 -D 1`) whose connections reached nginx's `keepalive_requests`:
    /// the streams after the GOAWAY failed, and h2load did not reconnect. As captured.
    const GOAWAY: &str = "TLS Protocol: TLSv1.2
Cipher: ECDHE-ECDSA-AES128-GCM-SHA256
Server Temp Key: X25519 253 bits
Application protocol: h2
Process Request Failure:2
Process Request Failure:5
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 1.00s, 4000.00 req/s, 500.26KB/s
requests: 4005 total, 4012 started, 4005 done, 4000 succeeded, 5 failed, 5 errored, 0 timeout
status codes: 4000 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 500.26KB (512264) total, 406.25KB (416000) headers (space savings 39.88%), 23.44KB (24000) data
";

    /// Three requests for a missing page (`-c1 -n3`): HTTP failures, not errors; h2load's
    /// req/s counts them (done, not succeeded). As captured.
    const NOT_FOUND: &str = "Application protocol: h2
finished in 8.68ms, 345.50 req/s, 80.08KB/s
requests: 3 total, 3 started, 3 done, 0 succeeded, 3 failed, 0 errored, 0 timeout
status codes: 0 2xx, 0 3xx, 3 4xx, 0 5xx
traffic: 712B (712) total, 150B (150) headers (space savings 49.49%), 459B (459) data
";

    #[test]
    fn parses_the_summary() {
        let s = parse(OUTPUT).expect("summary");
        assert_eq!(
            (s.total, s.done, s.succeeded, s.failed, s.errored, s.timeout),
            (4000, 4000, 4000, 0, 0, 0)
        );
        assert_eq!((s.status_4xx, s.status_5xx), (0, 0));
        assert_eq!(s.bytes, 162_764_264);
        assert_eq!(s.finished_us, 760_500);
        assert!((s.rps - 5_259.71).abs() < 1e-9);
        assert_eq!(s.protocol, "h2");
        let g = parse(GOAWAY).expect("summary");
        assert_eq!(
            (g.total, g.succeeded, g.failed, g.errored),
            (4005, 4000, 5, 5)
        );
        assert_eq!((g.finished_us, g.bytes), (1_000_000, 512_264));
        // Without the four summary lines there is no result.
        assert!(parse("finished in 1.00s, 4000.00 req/s, 1MB/s\n").is_none());
        assert!(parse("").is_none());
    }

    #[test]
    fn durations_and_units() {
        assert_eq!(duration_us("1.00s"), Some(1_000_000));
        assert_eq!(duration_us("97.72ms"), Some(97_720));
        assert_eq!(duration_us("850us"), Some(850));
        assert_eq!(duration_us("fast"), None);
        let log = "1796105228371117\t200\t510\n1796105228371117\t200\t546\nbroken line\n";
        assert_eq!(log_durations(log), vec![510, 546]);
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), 50);
        assert_eq!(percentile(&v, 99.0), 99);
        assert_eq!(percentile(&[7], 99.0), 7);
        assert_eq!(percentile(&[], 50.0), 0);
    }

    #[test]
    fn a_run_in_wrks_shape() {
        let s = parse(OUTPUT).expect("summary");
        let r = result(&s, (1..=1000).rev().collect());
        assert_eq!(r.requests, 4000);
        // 4000 requests at 5,259.71 req/s: h2load's own clock (760.50ms has two decimals).
        assert_eq!(r.duration_us, 760_498);
        assert!((r.rps() - 5_259.71).abs() < 0.01);
        assert_eq!((r.bad_status, r.socket_errors), (0, 0));
        assert_eq!((r.p50_us, r.p99_us), (500, 990));
        assert_eq!(r.bytes, 162_764_264);
        // Reset streams are errors; a 404 is a bad status.
        let r = result(&parse(GOAWAY).expect("summary"), Vec::new());
        assert_eq!(
            (r.requests, r.socket_errors, r.bad_status, r.p99_us),
            (4005, 5, 0, 0)
        );
        assert_eq!(r.duration_us, 1_001_250);
        let r = result(&parse(NOT_FOUND).expect("summary"), vec![300, 200, 100]);
        assert_eq!((r.requests, r.socket_errors, r.bad_status), (3, 0, 3));
        assert_eq!((r.duration_us, r.p50_us), (8_683, 200));
    }

    #[test]
    fn runs_are_about_a_second_and_below_keepalive_requests() {
        assert_eq!(requests_per_connection(50, 1), 240);
        assert_eq!(requests_per_connection(200, 1), 60);
        assert_eq!(requests_per_connection(10, 3), 900);
        assert_eq!(requests_per_connection(5000, 1), 10);
        assert_eq!(requests_per_connection(0, 1), 900);
    }
}
