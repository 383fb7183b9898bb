//! The load patterns: which page, which headers, which connection counts, which load tool.

use crate::site;
use crate::variants::Family;

/// One load pattern.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub id: &'static str,
    pub what: &'static str,
    pub family: Family,
    pub path: &'static str,
    pub headers: &'static [&'static str],
    /// Connection counts of the default run.
    pub conns: &'static [u32],
}

/// The scenario ids, in run order (what `--only` accepts).
pub const IDS: [&str; 12] = [
    "html",
    "js",
    "gzip-html",
    "gzip-js",
    "gzip-img",
    "newconn",
    "tls",
    "proxy",
    "h2",
    "tls-full",
    "tls-resume",
    "proxy-slow",
];

/// What loads a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `wrk -t1 -cN`, HTTP/1.1 keep-alive (or what the headers ask for).
    Wrk,
    /// `h2load -cN -m STREAMS`: HTTP/2 over TLS, N connections with this many streams each.
    H2load { streams: u32 },
    /// `bench/tls/handshake.py`: N connections in flight, each new, each a TLS handshake and
    /// one request; `resume` offers the previous session. wrk and h2load cannot make full
    /// handshakes only: both resume on reconnect whenever the server allows it.
    Handshake { resume: bool },
}

/// Streams per connection in the HTTP/2 scenario.
pub const H2_STREAMS: u32 = 10;

impl Scenario {
    /// The load tool of this scenario (by id, so `Scenario` keeps its fields).
    pub fn tool(&self) -> Tool {
        match self.id {
            "h2" => Tool::H2load {
                streams: H2_STREAMS,
            },
            "tls-full" => Tool::Handshake { resume: false },
            "tls-resume" => Tool::Handshake { resume: true },
            _ => Tool::Wrk,
        }
    }

    /// Only variants whose TLS server negotiates HTTP/2 (ALPN `h2`) take part.
    pub fn needs_h2(&self) -> bool {
        matches!(self.tool(), Tool::H2load { .. })
    }

    /// Whether the run uses `https://` (the TLS server).
    pub fn tls(&self) -> bool {
        self.family == Family::Tls
    }

    /// Seconds per wrk run of this scenario at `conns` connections, given `--seconds` (the
    /// smoke test's `quick` runs keep it): at least [`TLS_RUN_FLOOR`] with TLS,
    /// [`SLOW_RUN_FLOOR`] through the slow upstream, [`CROWD_RUN_FLOOR`] from [`CROWD`]
    /// connections. The other load tools run a fixed amount of work: `asked`.
    pub fn run_seconds(&self, asked: u32, conns: u32, quick: bool) -> u32 {
        if quick || self.tool() != Tool::Wrk {
            return asked;
        }
        let floors = [
            (self.tls(), TLS_RUN_FLOOR),
            (self.path == site::SLOW, SLOW_RUN_FLOOR),
            (conns >= CROWD, CROWD_RUN_FLOOR),
        ];
        floors
            .into_iter()
            .filter_map(|(applies, floor)| applies.then_some(floor))
            .fold(asked, u32::max)
    }

    /// `--seconds` for a stage that loads its variants at once (the recheck of a loss, the
    /// search's confirmation), given `asked`: a handshake run lasts at least
    /// [`HANDSHAKE_TOGETHER_FLOOR`] there, outside the smoke test's `quick` runs.
    pub fn together_seconds(&self, asked: u32, quick: bool) -> u32 {
        match self.tool() {
            Tool::Handshake { .. } if !quick => asked.max(HANDSHAKE_TOGETHER_FLOOR),
            _ => asked,
        }
    }
}

/// Seconds a handshake run lasts at least when its instances are loaded at once. A run of
/// one second, with four to six instances sharing nginx's CPU, gives each a few dozen
/// handshakes, too few for CPU per request to resolve a few per cent: the recheck's A/A
/// control spread ±12 % so, and in the search on `c9f4c9d` (2026-12-07) both handshake
/// cells stayed unclear after 40 such rounds.
pub const HANDSHAKE_TOGETHER_FLOOR: u32 = 8;

/// Seconds a TLS wrk run lasts at least. It starts with a handshake storm (every connection
/// at once), and the requests queued behind it are the run's slowest: in a run of 2 s they
/// were its p99, so the keep-alive cell's p99 measured the handshakes (which `tls-full` and
/// `tls-resume` measure on their own). At 200 connections on loopback, 6 rounds
/// (2026-12-07): in 2-s runs every variant offering TLS 1.3 had a p99 of 18–33 ms and every
/// one offering TLS 1.2 alone 6–12 ms; in 8-s runs all of them 7–12 ms.
pub const TLS_RUN_FLOOR: u32 = 8;

/// Seconds a wrk run through the slow upstream lasts at least. nginx works only about 6 %
/// of a CPU there (966 req/s at ~60 µs each), so a 2-s run measures ~120 ms of it: an A/A
/// control of two identical instances came out at 1.050× (1.004..1.097) in 60 rounds of
/// 2 s, and 40 rounds of 4 s decided its cell (0.981×, control 1.009×, 2026-12-05).
pub const SLOW_RUN_FLOOR: u32 = 4;

/// Connections from which a wrk run lasts at least [`CROWD_RUN_FLOOR`].
pub const CROWD: u32 = 1000;

/// Seconds a wrk run at [`CROWD`] connections or more lasts at least. Every nginx starts
/// afresh each round, and the first request of each connection waits behind the others'
/// connects: in a run of 1 s at 1000 connections those are 5 % of the requests, so the
/// p99 was the run's start. The proxy at 1000 connections against nginxconfig.io
/// (2026-12-07, 3 rounds): nginx-gen 1.83× its rate, p99 1.48× in runs of 1 s
/// (140 against 94 ms; p50 50 against 86 ms), p99 0.95× in runs of 4 s.
pub const CROWD_RUN_FLOOR: u32 = 4;

pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            id: "html",
            what: "HTML page (30 KB), keep-alive",
            family: Family::Static,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200, 1000],
        },
        Scenario {
            id: "js",
            what: "JS asset (150 KB), keep-alive",
            family: Family::Static,
            path: site::JS,
            headers: &[],
            conns: &[50, 1000],
        },
        Scenario {
            id: "gzip-html",
            what: "HTML page, Accept-Encoding: gzip",
            family: Family::Static,
            path: site::HTML,
            headers: &["Accept-Encoding: gzip"],
            conns: &[50, 1000],
        },
        Scenario {
            id: "gzip-js",
            what: "JS asset, Accept-Encoding: gzip",
            family: Family::Static,
            path: site::JS,
            headers: &["Accept-Encoding: gzip"],
            conns: &[200],
        },
        Scenario {
            id: "gzip-img",
            what: "Image (1.5 KB), Accept-Encoding: gzip (as every browser asks)",
            family: Family::Static,
            path: site::ICON,
            headers: &["Accept-Encoding: gzip"],
            conns: &[50],
        },
        Scenario {
            id: "newconn",
            what: "HTML page, new connection per request",
            family: Family::Static,
            path: site::HTML,
            headers: &["Connection: close"],
            conns: &[50, 200],
        },
        Scenario {
            id: "tls",
            what: "HTML page over TLS (self-signed ECDSA), keep-alive",
            family: Family::Tls,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200],
        },
        Scenario {
            id: "proxy",
            what: "HTML page through a reverse proxy to a local nginx",
            family: Family::Proxy,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200, 1000],
        },
        Scenario {
            id: "h2",
            what: "HTML page over HTTP/2 and TLS (h2load, 10 streams per connection)",
            family: Family::Tls,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200],
        },
        Scenario {
            id: "tls-full",
            what: "TLS handshakes, full: a new connection per request, no session offered (1.5 KB image)",
            family: Family::Tls,
            path: site::ICON,
            headers: &[],
            conns: &[8],
        },
        Scenario {
            id: "tls-resume",
            what: "TLS handshakes, resumed: a new connection per request offering the previous session (1.5 KB image)",
            family: Family::Tls,
            path: site::ICON,
            headers: &[],
            conns: &[8],
        },
        Scenario {
            id: "proxy-slow",
            what: "HTML page through a reverse proxy to an application that answers after 50 ms",
            family: Family::Proxy,
            path: site::SLOW,
            headers: &[],
            conns: &[50, 1000],
        },
    ]
}

/// The scenario with this id (tests name scenarios by id, never by position).
#[cfg(test)]
pub fn by_id(id: &str) -> Scenario {
    scenarios()
        .into_iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no scenario {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_every_scenario_in_order() {
        let ids: Vec<&str> = scenarios().iter().map(|s| s.id).collect();
        assert_eq!(ids, IDS);
    }

    #[test]
    fn tools_per_scenario() {
        let tool = |id: &str| by_id(id).tool();
        assert_eq!(tool("html"), Tool::Wrk);
        assert_eq!(tool("tls"), Tool::Wrk);
        assert_eq!(tool("h2"), Tool::H2load { streams: 10 });
        assert_eq!(tool("tls-full"), Tool::Handshake { resume: false });
        assert_eq!(tool("tls-resume"), Tool::Handshake { resume: true });
        assert_eq!(tool("proxy-slow"), Tool::Wrk);
        // The TLS load tools run against the TLS server; only h2 needs HTTP/2.
        for s in scenarios() {
            if s.tool() != Tool::Wrk {
                assert!(s.tls(), "{}", s.id);
            }
            assert_eq!(s.needs_h2(), s.id == "h2");
        }
    }

    #[test]
    fn run_lengths_have_floors_outside_the_smoke_test() {
        let secs = |id: &str, asked, quick| by_id(id).run_seconds(asked, 50, quick);
        assert_eq!(secs("html", 1, false), 1);
        assert_eq!(secs("tls", 1, false), 8);
        assert_eq!(secs("tls", 10, false), 10);
        assert_eq!(secs("proxy-slow", 1, false), 4);
        assert_eq!(secs("proxy-slow", 6, false), 6);
        // Handshakes and HTTP/2 keep what was asked; the smoke test keeps its 1 s.
        assert_eq!(secs("tls-full", 1, false), 1);
        assert_eq!(secs("h2", 1, false), 1);
        assert_eq!(secs("proxy-slow", 1, true), 1);
        assert_eq!(secs("tls", 1, true), 1);
    }

    #[test]
    fn runs_at_a_crowd_last_longer() {
        let secs = |id: &str, conns| by_id(id).run_seconds(1, conns, false);
        assert_eq!(secs("proxy", CROWD - 1), 1);
        assert_eq!(secs("proxy", CROWD), CROWD_RUN_FLOOR);
        assert_eq!(secs("html", 5000), CROWD_RUN_FLOOR);
        // The longest floor that applies; the smoke test and the other tools keep theirs.
        assert_eq!(secs("tls", CROWD), TLS_RUN_FLOOR.max(CROWD_RUN_FLOOR));
        assert_eq!(by_id("proxy").run_seconds(9, CROWD, false), 9);
        assert_eq!(by_id("proxy").run_seconds(1, CROWD, true), 1);
        assert_eq!(secs("h2", CROWD), 1);
    }

    #[test]
    fn handshakes_loaded_together_run_longer() {
        let secs = |id: &str, asked, quick| by_id(id).together_seconds(asked, quick);
        assert_eq!(secs("tls-full", 1, false), HANDSHAKE_TOGETHER_FLOOR);
        assert_eq!(secs("tls-resume", 1, false), HANDSHAKE_TOGETHER_FLOOR);
        assert_eq!(secs("tls-resume", 12, false), 12);
        // wrk's and h2load's runs keep theirs (run_seconds adds the TLS floor); the smoke
        // test keeps its 1 s.
        assert_eq!(secs("tls", 1, false), 1);
        assert_eq!(secs("h2", 1, false), 1);
        assert_eq!(secs("tls-full", 1, true), 1);
    }
}
