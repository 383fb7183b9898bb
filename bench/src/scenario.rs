//! The load patterns: which page, which headers, which connection counts.

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
pub const IDS: [&str; 7] = [
    "html",
    "js",
    "gzip-html",
    "gzip-js",
    "newconn",
    "tls",
    "proxy",
];

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
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_name_every_scenario_in_order() {
        let ids: Vec<&str> = super::scenarios().iter().map(|s| s.id).collect();
        assert_eq!(ids, super::IDS);
    }
}
