//! Rate and connection limits per client address (`--rate-limit`), sized from the plan:
//! the zones from the planned clients, the rate and burst from the connections one client
//! of the workload opens.

use crate::inputs::{Inputs, Workload};
use crate::rules::formula::{Formula, Term};

/// What one client of a workload does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientProfile {
    /// Connections one client opens: browsers open 6 per host name, API clients a
    /// small pool.
    pub connections: u32,
    /// Requests per second each of them sends at most while a page or a batch loads.
    pub requests_per_connection: u32,
    /// Requests one client has in flight at once, counted by `limit_conn`: one on each
    /// connection, or, where a page's assets reach the application, the page's requests
    /// at once over one HTTP/2 connection.
    pub in_flight: u32,
}

impl ClientProfile {
    /// The profile of `workload`.
    pub const fn of(workload: Workload) -> Self {
        match workload {
            // A page and its assets over 6 connections. Static sites do not count the
            // assets (`$limit_client`), so there the rate is generous for pages alone.
            Workload::Static => Self {
                connections: 6,
                requests_per_connection: 5,
                in_flight: 6,
            },
            // Every request reaches the application, the page's scripts, styles and
            // images too (a Next.js page asks for dozens of chunks at once), or, mixed, a
            // missing asset (a bundle the application serves) falls back to it and counts
            // there: a page's rate, and over HTTP/2 its requests in flight together (at
            // 6 × 2 r/s and 24 at once, 40 parallel chunk requests of one page got 16 × 429).
            Workload::Mixed | Workload::Proxy => Self {
                connections: 6,
                requests_per_connection: 5,
                in_flight: PAGE_IN_FLIGHT,
            },
            // Pages from PHP, whose assets are files on disk: fewer, slower requests.
            Workload::Php => Self {
                connections: 6,
                requests_per_connection: 2,
                in_flight: 6,
            },
            // A client library's pool.
            Workload::Api => Self {
                connections: 2,
                requests_per_connection: 5,
                in_flight: 2,
            },
        }
    }
}

/// Requests a browser has in flight at once while a page loads its assets from the
/// application over one HTTP/2 connection (the HTTP Archive's median page asks for about
/// 20 scripts and 70 resources in all, not all of them at once or from one host).
pub const PAGE_IN_FLIGHT: u32 = 32;
/// Bytes of one `limit_req` state on a 64-bit nginx (the module's docs: 128 bytes).
pub const REQ_STATE_BYTES: u64 = 128;
/// Bytes of one `limit_conn` state on a 64-bit nginx (64 bytes).
pub const CONN_STATE_BYTES: u64 = 64;
/// Seconds of the client's rate that may arrive at once (a page and, where they are
/// counted, its assets).
pub const BURST_SECONDS: u32 = 2;
/// Clients that may share one address (an office or a carrier NAT) before the
/// connection limit bites.
pub const CLIENTS_PER_ADDRESS: u32 = 4;
/// The stricter rate of the paths the user names (sign-in, an API): a person signs in,
/// a script calls an expensive endpoint, about once a second.
pub const PATH_RATE: u32 = 1;
/// Requests to those paths at once.
pub const PATH_BURST: u32 = 5;
/// Seconds a slow client may stay silent while sending its request or reading the
/// response (nginx's default: 60).
pub const CLIENT_TIMEOUT_SECONDS: u32 = 10;

/// The limits and how they were computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    /// `limit_req_zone` size in MiB.
    pub req_zone_mib: u64,
    /// `limit_conn_zone` size in MiB.
    pub conn_zone_mib: u64,
    /// Requests per second per address.
    pub rate: u64,
    /// Requests beyond the rate served at once.
    pub burst: u64,
    /// Connections per address.
    pub conn: u64,
    /// The formulas: zone with rate, connection zone, burst, connections, the zone alone.
    pub formulas: [Formula; 5],
}

fn num(n: impl Into<u64>) -> Term {
    Term::num(n.into())
}

impl RateLimits {
    /// The limits for `inputs` at `clients` planned concurrent connections.
    pub fn compute(inputs: &Inputs, clients: u32) -> Self {
        let p = ClientProfile::of(inputs.workload);
        let addresses = num(clients)
            .label("clients")
            .over(num(p.connections).label("connections each"))
            .ceil();
        let mib = || Term::size(crate::size::ByteSize::mib(1));
        let zone = |state: u64| {
            addresses
                .clone()
                .times(num(state).label("bytes per state"))
                .over(mib())
                .ceil()
                .times(mib())
                .at_least(mib())
        };
        let (req_zone, conn_zone) = (zone(REQ_STATE_BYTES), zone(CONN_STATE_BYTES));
        let rate = num(p.connections)
            .label("connections each")
            .times(num(p.requests_per_connection).label("requests a second each"));
        let burst = rate.clone().times(num(BURST_SECONDS).label("s"));
        let in_flight = if p.in_flight == p.connections {
            num(p.connections).label("connections each")
        } else {
            num(p.in_flight).label("requests in flight each")
        };
        let conn = in_flight.times(num(CLIENTS_PER_ADDRESS).label("clients per address"));
        Self {
            req_zone_mib: req_zone.value() >> 20,
            conn_zone_mib: conn_zone.value() >> 20,
            rate: rate.value(),
            burst: burst.value(),
            conn: conn.value(),
            formulas: [
                Formula::equals_mib(&req_zone).and(&Formula::equals(&rate)),
                Formula::equals_mib(&conn_zone),
                Formula::equals(&burst),
                Formula::equals(&conn),
                Formula::equals_mib(&req_zone),
            ],
        }
    }
}
