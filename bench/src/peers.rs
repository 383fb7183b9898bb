//! The peer generators' output as baselines: nginxconfig.io with its defaults and h5bp's
//! server-configs-nginx, each reconstructed value by value in `bench/peers/` (every file's
//! header names the source commit and file of each value and what was adapted to run here).
//!
//! A template is written per file of the peer's layout: the main `nginx.conf`, the site file
//! where the peer's main file includes it, and the snippets the site includes. Lines marked
//! `#[tls] ` (or `#[static,tls] `, …) are kept only for those servers: the generators write
//! them only when the site has that feature (HTTPS, a document root, a reverse proxy).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::proc;
use crate::variants::{Env, Family, SYSTEMD_NOFILE, Written, fill};

/// A peer generator whose output is a baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// nginxconfig.io with its defaults and presets.
    NginxconfigIo,
    /// h5bp's server-configs-nginx with its default includes and example site.
    H5bp,
}

struct Layout {
    main: &'static str,
    /// The site file per family (static, tls, proxy) and where the main file includes it.
    sites: [&'static str; 3],
    site_path: &'static str,
    /// Snippets the site includes, by their path relative to the configuration directory.
    snippets: &'static [(&'static str, &'static str)],
}

const NGINXCONFIG: Layout = Layout {
    main: include_str!("../peers/nginxconfig-io/nginx.conf"),
    sites: [
        include_str!("../peers/nginxconfig-io/static.conf"),
        include_str!("../peers/nginxconfig-io/tls.conf"),
        include_str!("../peers/nginxconfig-io/proxy.conf"),
    ],
    site_path: "sites-enabled/bench.test.conf",
    snippets: &[
        (
            "nginxconfig.io/security.conf",
            include_str!("../peers/nginxconfig-io/nginxconfig.io/security.conf"),
        ),
        (
            "nginxconfig.io/general.conf",
            include_str!("../peers/nginxconfig-io/nginxconfig.io/general.conf"),
        ),
        (
            "nginxconfig.io/proxy.conf",
            include_str!("../peers/nginxconfig-io/nginxconfig.io/proxy.conf"),
        ),
        (
            "nginxconfig.io/letsencrypt.conf",
            include_str!("../peers/nginxconfig-io/nginxconfig.io/letsencrypt.conf"),
        ),
    ],
};

const H5BP: Layout = Layout {
    main: include_str!("../peers/h5bp/nginx.conf"),
    sites: [
        include_str!("../peers/h5bp/static.conf"),
        include_str!("../peers/h5bp/tls.conf"),
        include_str!("../peers/h5bp/proxy.conf"),
    ],
    site_path: "conf.d/bench.test.conf",
    snippets: &[
        (
            "h5bp/basic.conf",
            include_str!("../peers/h5bp/h5bp/basic.conf"),
        ),
        ("h5bp/tls.conf", include_str!("../peers/h5bp/h5bp/tls.conf")),
    ],
};

impl Peer {
    pub const ALL: [Self; 2] = [Self::NginxconfigIo, Self::H5bp];

    /// The variant's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Self::NginxconfigIo => "nginxconfig",
            Self::H5bp => "h5bp",
        }
    }

    fn layout(self) -> &'static Layout {
        match self {
            Self::NginxconfigIo => &NGINXCONFIG,
            Self::H5bp => &H5BP,
        }
    }
}

/// Keeps the lines meant for `family`: a line starting `#[a,b] ` is kept, without the
/// marker, when `family` is one of the listed ones, and dropped otherwise.
pub fn select(template: &str, family: Family) -> String {
    let mut out = String::with_capacity(template.len());
    for line in template.lines() {
        let kept = match line
            .strip_prefix("#[")
            .and_then(|rest| rest.split_once("] "))
        {
            Some((families, body)) => families
                .split(',')
                .any(|f| f.trim() == family.name())
                .then_some(body),
            None => Some(line),
        };
        if let Some(l) = kept {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// Caps `worker_rlimit_nofile` at `hard`, the hard file limit nginx is started with: a
/// worker cannot raise its limit above it (systemd's unit would allow 524,288; a container
/// may allow less), and a failed `setrlimit` would leave the workers at 1024.
pub fn cap_rlimit(text: &str, hard: u64) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let value = line
            .trim_start()
            .strip_prefix("worker_rlimit_nofile ")
            .and_then(|v| v.trim_end_matches(';').trim().parse::<u64>().ok());
        match value {
            Some(n) if n > hard => {
                let _ = writeln!(
                    out,
                    "worker_rlimit_nofile {hard}; # nginx-gen-bench: {n} capped at this machine's hard file limit"
                );
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Writes `peer`'s configuration for `family` under `prefix`: the main file, the site file
/// and every snippet, placeholders filled as for the guide's template.
pub fn write(
    peer: Peer,
    family: Family,
    env: &Env,
    prefix: &Path,
    port: u16,
) -> Result<Written, String> {
    let p = prefix.to_string_lossy().to_string();
    let layout = peer.layout();
    let site = match family {
        Family::Static => layout.sites[0],
        Family::Tls => layout.sites[1],
        Family::Proxy => layout.sites[2],
    };
    let render = |template: &str| fill(&select(template, family), &p, env, port);
    let main = cap_rlimit(
        &render(layout.main),
        SYSTEMD_NOFILE.1.min(proc::hard_nofile()),
    );
    let site = render(site);
    let conf = prefix.join("nginx.conf");
    // A snippet is written where the site includes it, as the generators write only the
    // files a site uses (nginxconfig.io's proxy.conf only for a proxy, …).
    let used: Vec<(&str, String)> = layout
        .snippets
        .iter()
        .filter(|(path, _)| site.contains(&format!("include {path};")))
        .map(|(path, t)| (*path, render(t)))
        .collect();
    let files = [("nginx.conf", main), (layout.site_path, site)]
        .into_iter()
        .chain(used);
    for (path, text) in files {
        let target = prefix.join(path);
        if let Some(dir) = target.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        fs::write(&target, text).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    // Neither sets LimitNOFILE: Debian's unit, as for stock.
    Ok(Written {
        conf,
        nofile: SYSTEMD_NOFILE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_lines_are_kept_only_for_their_family() {
        let t = "a;\n#[tls] b;\n#[static,tls]     c;\n#[proxy] d;\n# plain comment\n";
        assert_eq!(select(t, Family::Tls), "a;\nb;\n    c;\n# plain comment\n");
        assert_eq!(select(t, Family::Static), "a;\n    c;\n# plain comment\n");
        assert_eq!(select(t, Family::Proxy), "a;\nd;\n# plain comment\n");
    }

    #[test]
    fn rlimit_is_capped_only_above_the_hard_limit() {
        let t = "user www-data;\nworker_rlimit_nofile 65535;\n";
        assert_eq!(
            cap_rlimit(t, 20_000),
            "user www-data;\nworker_rlimit_nofile 20000; # nginx-gen-bench: 65535 capped at this machine's hard file limit\n"
        );
        assert_eq!(cap_rlimit(t, 524_288), t);
    }

    fn env() -> Env {
        Env {
            site: "/srv/site".into(),
            addr: "127.0.0.1".into(),
            cert: "/tmp/x/cert.pem".into(),
            key: "/tmp/x/key.pem".into(),
            upstream: "127.0.0.1:9000".into(),
            workers: 1,
            ram: "8G".into(),
            nginx_version: "1.22.1".into(),
            openssl_version: "3.0".into(),
        }
    }

    /// Every file of every peer and family, written: no placeholder or marker left, the
    /// family's features where they belong.
    #[test]
    fn every_layout_is_filled_completely() {
        let dir = tempfile::tempdir().expect("temp dir");
        for peer in Peer::ALL {
            for family in Family::ALL {
                let prefix = dir
                    .path()
                    .join(format!("{}-{}", peer.name(), family.name()));
                let w = write(peer, family, &env(), &prefix, 28_000).expect("written");
                assert_eq!(w.conf, prefix.join("nginx.conf"));
                let layout = peer.layout();
                let mut all = String::new();
                for path in std::iter::once("nginx.conf")
                    .chain(std::iter::once(layout.site_path))
                    .chain(layout.snippets.iter().map(|(p, _)| *p))
                {
                    all += &fs::read_to_string(prefix.join(path)).unwrap_or_default();
                }
                assert!(
                    !all.contains("{{") && !all.contains("#["),
                    "{peer:?} {family:?}"
                );
                assert!(all.contains("listen 127.0.0.1:28000"));
                assert!(all.contains(&format!("pid {}/nginx.pid;", prefix.display())));
                assert_eq!(
                    all.contains("ssl_certificate /tmp/x/cert.pem;"),
                    family == Family::Tls
                );
                assert_eq!(all.contains("http2"), family == Family::Tls);
                assert_eq!(
                    all.contains("proxy_pass http://127.0.0.1:9000;"),
                    family == Family::Proxy
                );
                assert!(!all.contains("/etc/nginx/sites-enabled") && !all.contains("/var/log/"));
            }
        }
    }

    #[test]
    fn nginxconfig_writes_its_features_per_family() {
        let dir = tempfile::tempdir().expect("temp dir");
        let read = |family: Family, path: &str| {
            let prefix = dir.path().join(family.name());
            write(Peer::NginxconfigIo, family, &env(), &prefix, 28_000).expect("written");
            fs::read_to_string(prefix.join(path)).expect("file")
        };
        let tls = read(Family::Tls, "nginxconfig.io/security.conf");
        assert!(tls.contains("Strict-Transport-Security"));
        assert!(!read(Family::Static, "nginxconfig.io/security.conf").contains("Strict-Transport"));
        assert!(read(Family::Static, "nginxconfig.io/general.conf").contains("expires 7d;"));
        assert!(!read(Family::Proxy, "nginxconfig.io/general.conf").contains("expires"));
        let main = read(Family::Tls, "nginx.conf");
        assert!(main.contains("ssl_dhparam /tmp/x/dhparam.pem;"));
        assert!(main.contains("resolver 127.0.0.1 valid=60s;"));
        let tls_site = read(Family::Tls, "sites-enabled/bench.test.conf");
        assert!(tls_site.contains("listen 127.0.0.1:28001;"), "{tls_site}");
        assert!(
            read(Family::Proxy, "nginx.conf").contains("map $http_upgrade $connection_upgrade")
        );
        // Snippets only where the site includes them.
        let exists =
            |family: Family, path: &str| dir.path().join(family.name()).join(path).exists();
        assert!(exists(Family::Proxy, "nginxconfig.io/proxy.conf"));
        assert!(!exists(Family::Static, "nginxconfig.io/proxy.conf"));
        assert!(exists(Family::Tls, "nginxconfig.io/letsencrypt.conf"));
        assert!(!exists(Family::Static, "nginxconfig.io/letsencrypt.conf"));
        assert!(exists(Family::Static, "nginxconfig.io/general.conf"));
    }
}
