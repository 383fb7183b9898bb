//! The sampled grid of trees, the nginx binaries under test, and the names of the trials.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The port the test's app listens on; every tree is generated with `--upstream` to it.
pub const APP_ADDR: &str = "127.0.0.1:3000";
/// Its port.
pub const APP_PORT: u16 = 3000;
/// The load balancer's address in the behind-LB trees (`curl --interface`).
pub const LB_ADDR: &str = "127.0.0.2";
/// An address of the namespace that is not loopback (TEST-NET-1, on `lo`): the status
/// server must refuse it.
pub const OTHER_ADDR: &str = "192.0.2.10";
/// The status server's port: the default of `--status-port`.
pub const STATUS_PORT: u16 = 81;
/// A legal 50-character server name.
pub const LONG_NAME: &str = "aaaaaaaaaa.bbbbbbbbbb.cccccccccc.ddddddddd.example";

/// What a tree is for, beyond its inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    None,
    /// `--server-name _`.
    CatchAll,
    /// `--server-name 127.0.0.1 --tls`.
    IpName,
    /// A 50-character name.
    LongName,
    /// `--tls --bootstrap` without a certificate on disk.
    Bootstrap,
    /// Debian layout with an existing site and Debian's stock `default` site enabled.
    DebianSites,
    /// `--max-body-size 2M`.
    BodyLimit,
    /// `--listen 80 --listen [::]:80`.
    DualListen,
    /// The README's proxy+TLS command, no version flags: only on Debian's nginx.
    Readme,
    /// `--cache micro --cache-status`: only the cache's behaviours run on it (the others
    /// read the app's echo of each request, which a cached page repeats).
    Cache,
    /// `--workload php`: Debian's PHP-FPM behind it (`crate::php`).
    Php,
    /// `--workload php --cache micro --cache-status`: only `php_config_valid` and the PHP
    /// cache's behaviours run on it (`crate::phpcache`; the others expect every request to
    /// reach PHP).
    PhpCache,
    /// Probed by its own behaviours only (`clientaddr`).
    Own,
    /// Made for nginx 1.18.0 (Ubuntu 22.04's) instead of the nginx under test, which it
    /// must run on too: only the TLS behaviours run on it (the client picks the suite
    /// there, since nginx before 1.19.4 cannot order TLS 1.3's).
    OldNginx,
    /// The application by name, looked up again (`--upstream-resolve`, `crate::dns`): only
    /// on nginx 1.27.3 and later, which can; only its own behaviour runs on it.
    UpstreamResolve,
}

/// One generated tree: its inputs and what the behaviours need to know about them.
#[derive(Debug, Clone)]
pub struct Tree {
    pub id: &'static str,
    pub workload: &'static str,
    /// `Some(profile)` with `--tls`.
    pub tls: Option<&'static str>,
    pub tls_port: u16,
    pub behind_lb: bool,
    pub names: Vec<String>,
    /// `--brotli`, given only where the nginx under test can load the modules.
    pub brotli: bool,
    pub layout: &'static str,
    /// The layout's default document root (not passed: the default is part of the test).
    pub root: &'static str,
    pub special: Special,
    /// Flags besides those the fields above produce.
    pub extra: Vec<String>,
}

impl Tree {
    pub(crate) fn new(id: &'static str, workload: &'static str, name: &str) -> Self {
        Self {
            id,
            workload,
            tls: None,
            tls_port: 443,
            behind_lb: false,
            names: vec![name.to_string()],
            brotli: false,
            layout: "debian",
            root: "/var/www/html",
            special: Special::None,
            extra: Vec::new(),
        }
    }

    fn tls(mut self, profile: &'static str) -> Self {
        self.tls = Some(profile);
        self
    }

    pub(crate) fn extra(mut self, args: &[&str]) -> Self {
        self.extra.extend(args.iter().map(ToString::to_string));
        self
    }

    pub(crate) fn special(mut self, s: Special) -> Self {
        self.special = s;
        self
    }

    fn lb(mut self) -> Self {
        self.behind_lb = true;
        self.extra(&["--trusted-proxy", &format!("{LB_ADDR}/32")])
    }

    /// The workload has an upstream application.
    pub fn has_app(&self) -> bool {
        !matches!(self.workload, "static" | "php")
    }

    /// The site has an upstream (an application or PHP-FPM), whose fields its log lines
    /// carry.
    pub fn has_upstream(&self) -> bool {
        self.workload != "static"
    }

    /// The workload serves files from the document root.
    pub fn has_files(&self) -> bool {
        matches!(self.workload, "static" | "mixed")
    }

    /// A single-page application (`--spa`): a path that is no file gets `/index.html`.
    pub fn spa(&self) -> bool {
        self.extra.iter().any(|a| a == "--spa")
    }

    /// Every name of the site: its names, then those its extra arguments add.
    pub fn server_names(&self) -> Vec<&str> {
        let given = self
            .extra
            .windows(2)
            .filter(|w| w[0] == "--server-name")
            .map(|w| w[1].as_str());
        self.names.iter().map(String::as_str).chain(given).collect()
    }

    /// The other names redirect to the first (`--canonical`).
    pub fn canonical(&self) -> bool {
        self.extra.iter().any(|a| a == "--canonical")
    }

    /// The value the extra arguments give `flag`, else `default`.
    fn given(&self, flag: &str, default: &'static str) -> &str {
        self.extra
            .iter()
            .position(|a| a == flag)
            .and_then(|at| self.extra.get(at + 1))
            .map_or(default, String::as_str)
    }

    /// What `--hsts` asks for: `host` unless the tree says otherwise.
    pub fn hsts(&self) -> &str {
        self.given("--hsts", "host")
    }

    /// HTTPS is served (a bootstrap tree serves HTTP only).
    pub fn serves_tls(&self) -> bool {
        self.tls.is_some() && self.special != Special::Bootstrap
    }

    /// The name a client uses for the site.
    pub fn host(&self) -> &str {
        match self.special {
            Special::CatchAll => "anything.test",
            _ => &self.names[0],
        }
    }

    /// The access log format given (`--access-log`), else the default, `timing`.
    pub fn access_log(&self) -> &str {
        self.given("--access-log", "timing")
    }

    /// The host is an IP literal: clients send no SNI.
    pub fn host_is_ip(&self) -> bool {
        self.host().parse::<std::net::IpAddr>().is_ok()
    }

    /// The CLI flags for this tree and nginx (without `--out`).
    pub fn args(&self, nginx: &Nginx, cert: &Path, key: &Path) -> Vec<String> {
        let mut a: Vec<String> = Vec::new();
        let push = |a: &mut Vec<String>, s: &[&str]| a.extend(s.iter().map(ToString::to_string));
        if self.special == Special::Readme {
            // The README's command, as a new user types it (plus the test certificate).
            push(&mut a, nginx_gen_testsupport::README_PROXY_TLS);
            push(&mut a, &["--upstream", APP_ADDR]);
            a.extend(["--tls-cert".into(), cert.display().to_string()]);
            a.extend(["--tls-key".into(), key.display().to_string()]);
            return a;
        }
        // Everything is given: the tree is for the nginx under test, not for this host
        // (whose Debian brotli modules and default site belong to another nginx).
        let by_name = format!("{}:{APP_PORT}", crate::dns::NAME);
        let upstream = if self.special == Special::UpstreamResolve {
            &by_name
        } else {
            APP_ADDR
        };
        push(
            &mut a,
            &[
                "--no-detect",
                "--workload",
                self.workload,
                "--upstream",
                upstream,
            ],
        );
        push(&mut a, &["--layout", self.layout]);
        for n in &self.names {
            push(&mut a, &["--server-name", n]);
        }
        if let Some(profile) = self.tls {
            push(&mut a, &["--tls", "--tls-profile", profile]);
            if self.tls_port != 443 {
                a.extend(["--tls-port".into(), self.tls_port.to_string()]);
            }
            if self.special != Special::Bootstrap {
                a.extend(["--tls-cert".into(), cert.display().to_string()]);
                a.extend(["--tls-key".into(), key.display().to_string()]);
            }
        }
        if self.behind_lb {
            a.push("--behind-lb".into());
        }
        if self.brotli && nginx.brotli {
            a.push("--brotli".into());
        }
        a.extend(self.extra.iter().cloned());
        a.extend([
            "--nginx-version".into(),
            self.nginx_version(nginx).to_owned(),
        ]);
        a.extend(["--openssl-version".into(), nginx.openssl.clone()]);
        a
    }

    /// The nginx version the tree is made for: the one under test, but for
    /// [`Special::OldNginx`]. (The README tree passes none and detects Debian's, the one
    /// under test.)
    pub fn nginx_version<'a>(&self, nginx: &'a Nginx) -> &'a str {
        match self.special {
            Special::OldNginx => OLD_NGINX,
            _ => &nginx.version,
        }
    }

    /// Whether `behaviour` runs on this tree.
    pub fn runs(&self, behaviour: &str) -> bool {
        match self.special {
            Special::OldNginx => behaviour.starts_with("tls_"),
            Special::UpstreamResolve => behaviour == "upstream_name_followed",
            Special::Cache => behaviour.starts_with("cache_"),
            Special::PhpCache => {
                behaviour.starts_with("php_cache_") || behaviour == "php_config_valid"
            }
            _ => true,
        }
    }

    /// Whether the tree runs on this nginx at all.
    pub fn runs_on(&self, nginx: &Nginx) -> bool {
        match self.special {
            Special::Readme => nginx.debian,
            Special::UpstreamResolve => at_least(&nginx.version, (1, 27, 3)),
            _ => true,
        }
    }
}

/// The version [`Special::OldNginx`] trees are made for.
const OLD_NGINX: &str = "1.18.0";

/// Whether the version `v` (`1.22.1`) is at least `min`.
pub fn at_least(v: &str, min: (u32, u32, u32)) -> bool {
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next()) >= min
}

/// The sampled grid: every workload, TLS off and both profiles, behind an LB or not, dual
/// stack, three layouts, edge sizes, a non-default TLS port, and the special names.
pub fn trees() -> Vec<Tree> {
    let mut t = Vec::new();
    t.push(Tree::new("static-plain", "static", "static.test").extra(&[
        "--vcpu",
        "2",
        "--ram",
        "4G",
        "--server-name",
        "www.static.test",
        "--canonical",
    ]));
    // JSON log lines for a site without an upstream (no upstream keys).
    let mut s = Tree::new("static-tls-modern-br", "static", "static.test")
        .tls("modern")
        .extra(&["--vcpu", "4", "--ram", "8G", "--access-log", "json"])
        .extra(&["--hsts", "preload"]);
    s.brotli = true;
    t.push(s);
    let mut p = Tree::new("proxy-tls-intermediate", "proxy", "example.com")
        .tls("intermediate")
        .extra(&["--vcpu", "2", "--ram", "4G", "--canonical"]);
    p.names.push("www.example.com".into());
    t.push(p);
    t.push(Tree::new("proxy-plain", "proxy", "proxy.test").extra(&["--vcpu", "4", "--ram", "8G"]));
    t.push(
        Tree::new("api-tls-modern", "api", "api.test")
            .tls("modern")
            .extra(&["--vcpu", "2", "--ram", "2G", "--access-log", "json"])
            .extra(&["--hsts", "subdomains"]),
    );
    t.push(
        Tree::new("api-lb", "api", "api.test")
            .lb()
            .extra(&["--vcpu", "8", "--ram", "16G"])
            .extra(&["--server-name", "www.api.test", "--canonical"]),
    );
    let mut m = Tree::new("mixed-tls-port8443", "mixed", "mixed.test")
        .tls("intermediate")
        .extra(&["--vcpu", "2", "--ram", "4G"]);
    m.tls_port = 8443;
    m.brotli = true;
    t.push(m);
    t.push(Tree::new("mixed-plain", "mixed", "mixed.test").extra(&["--vcpu", "4", "--ram", "8G"]));
    let lb = Tree::new("proxy-tls-lb", "proxy", "example.com")
        .tls("intermediate")
        .lb()
        .extra(&["--vcpu", "2", "--ram", "4G", "--access-log", "json"]);
    t.push(lb);
    let mut tiny = Tree::new("static-tiny-rhel", "static", "tiny.test")
        .extra(&["--vcpu", "1", "--ram", "256M"]);
    tiny.layout = "rhel";
    tiny.root = "/usr/share/nginx/html";
    t.push(tiny);
    let mut huge = Tree::new("proxy-huge-nginx-org-tls", "proxy", "huge.test")
        .tls("intermediate")
        .extra(&["--vcpu", "64", "--ram", "256G"]);
    huge.layout = "nginx-org";
    huge.root = "/usr/share/nginx/html";
    t.push(huge);
    t.push(
        Tree::new("static-spa", "static", "spa.test")
            .extra(&["--spa", "--vcpu", "2", "--ram", "2G"]),
    );
    t.push(Tree::new("catch-all", "static", "_").special(Special::CatchAll));
    let mut ip = Tree::new("ip-name-tls", "proxy", "127.0.0.1")
        .tls("intermediate")
        .special(Special::IpName);
    ip.names.push("::1".into());
    t.push(ip);
    t.push(Tree::new("long-name", "static", LONG_NAME).special(Special::LongName));
    t.push(
        Tree::new("bootstrap", "proxy", "boot.test")
            .tls("intermediate")
            .special(Special::Bootstrap)
            .extra(&["--bootstrap"]),
    );
    t.push(
        Tree::new("debian-sites", "static", "site.test")
            .special(Special::DebianSites)
            .extra(&["--existing-default-server"]),
    );
    // Over TLS with another name: the uploads redirected keep the limit.
    let mut upload = Tree::new("body-limit", "proxy", "upload.test")
        .tls("intermediate")
        .special(Special::BodyLimit)
        .extra(&["--max-body-size", "2M", "--canonical"]);
    upload.names.push("www.upload.test".into());
    t.push(upload);
    t.push(
        Tree::new("dual-listen", "proxy", "dual.test")
            .special(Special::DualListen)
            .extra(&["--listen", "80", "--listen", "[::]:80"]),
    );
    t.push(
        // Behind a balancer, for the key's scheme; the other cache behaviours ask directly.
        Tree::new("proxy-cache", "proxy", "cache.test")
            .special(Special::Cache)
            .lb()
            .extra(&[
                "--vcpu",
                "2",
                "--ram",
                "4G",
                "--cache",
                "micro",
                "--cache-status",
            ]),
    );
    t.push(
        // Behind a balancer, for PHP's view of the scheme; the other behaviours ask directly.
        Tree::new("php", "php", "php.test")
            .special(Special::Php)
            .lb()
            .extra(&["--vcpu", "2", "--ram", "1G"]),
    );
    t.push(
        // Behind a balancer, for the key's scheme; the other cache behaviours ask directly.
        Tree::new("php-cache", "php", "phpcache.test")
            .special(Special::PhpCache)
            .lb()
            .extra(&[
                "--vcpu",
                "2",
                "--ram",
                "1G",
                "--cache",
                "micro",
                "--cache-status",
            ]),
    );
    t.push(
        Tree::new("tls-nginx-1.18", "static", "old.test")
            .tls("intermediate")
            .special(Special::OldNginx)
            .extra(&["--vcpu", "2", "--ram", "2G", "--hsts", "off"]),
    );
    t.push(
        Tree::new("readme", "proxy", "example.com")
            .tls("intermediate")
            .special(Special::Readme),
    );
    t.extend(crate::clientaddr::trees());
    t.extend(crate::dns::trees());
    t
}

/// One nginx binary under test.
#[derive(Debug, Clone)]
pub struct Nginx {
    /// In trial names: `1.22`, `1.26`, `1.30-openssl3.5`.
    pub label: String,
    pub bin: PathBuf,
    /// `-p` for builds from source; Debian's package runs with its own.
    pub prefix: Option<PathBuf>,
    /// `1.22.1`.
    pub version: String,
    /// The OpenSSL it runs with.
    pub openssl: String,
    /// Debian's package: `/etc/nginx/modules-enabled` (brotli) is loadable.
    pub debian: bool,
    /// The brotli modules exist for this binary ([`brotli_modules`]).
    pub brotli: bool,
}

/// Parses `nginx -V`: version, OpenSSL (the one it runs with, else the one it was built
/// with), and whether it is Debian's package (its modules path).
pub fn parse_nginx_v(text: &str) -> Option<(String, String, bool)> {
    let version = text
        .split_whitespace()
        .find_map(|w| w.strip_prefix("nginx/"))?
        .to_string();
    let openssl = text
        .find("running with OpenSSL ")
        .map(|i| &text[i + "running with OpenSSL ".len()..])
        .or_else(|| {
            text.find("built with OpenSSL ")
                .map(|i| &text[i + "built with OpenSSL ".len()..])
        })
        .and_then(|t| t.split_whitespace().next())
        .map(|v| {
            v.trim_end_matches(|c: char| !c.is_ascii_digit())
                .to_string()
        })?;
    let debian = text.contains("--modules-path=/usr/lib/nginx/modules");
    Some((version, openssl, debian))
}

/// `label=path,label=path`.
pub fn parse_nginx_list(spec: &str) -> Result<Vec<(String, PathBuf)>, String> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (label, path) = item
                .split_once('=')
                .ok_or_else(|| format!("{item:?} is not label=path"))?;
            let label = label.trim();
            if label.is_empty() || label.contains("::") {
                return Err(format!("bad label in {item:?}"));
            }
            Ok((label.to_string(), PathBuf::from(path.trim())))
        })
        .collect()
}

/// A label from a version: `1.26.3` → `1.26`.
pub fn short_label(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

impl Nginx {
    /// Runs `nginx -V` on `bin`.
    pub fn probe(label: &str, bin: &Path) -> Result<Self, String> {
        let out = Command::new(bin)
            .arg("-V")
            .output()
            .map_err(|e| format!("nginx {label}: cannot run {}: {e}", bin.display()))?;
        let text = String::from_utf8_lossy(&out.stderr);
        let (version, openssl, debian) = parse_nginx_v(&text)
            .ok_or_else(|| format!("nginx {label}: no version in `{} -V`", bin.display()))?;
        let prefix = (!debian)
            .then(|| bin.parent().and_then(Path::parent).map(Path::to_path_buf))
            .flatten();
        let brotli = brotli_modules(debian, prefix.as_deref()).is_some();
        Ok(Self {
            label: label.to_string(),
            bin: bin.to_path_buf(),
            prefix,
            version,
            openssl,
            debian,
            brotli,
        })
    }
}

/// The directory holding the brotli modules this nginx can load: Debian's package's
/// `/usr/lib/nginx/modules`, a build's `PREFIX/modules` (scripts/build-nginx.sh builds them).
pub fn brotli_modules(debian: bool, prefix: Option<&Path>) -> Option<PathBuf> {
    let dir = if debian {
        PathBuf::from("/usr/lib/nginx/modules")
    } else {
        prefix?.join("modules")
    };
    dir.join("ngx_http_brotli_static_module.so")
        .exists()
        .then_some(dir)
}

/// The binaries under test: `NGINX_GEN_BEHAVIOUR_NGINX` (`label=path,…`), else Debian's
/// `/usr/sbin/nginx` plus every cached build of `scripts/build-nginx.sh`.
pub fn nginx_list() -> Result<Vec<Nginx>, String> {
    let pairs = match std::env::var("NGINX_GEN_BEHAVIOUR_NGINX") {
        Ok(spec) if !spec.trim().is_empty() => parse_nginx_list(&spec)?,
        _ => default_pairs(),
    };
    pairs
        .iter()
        .map(|(label, bin)| Nginx::probe(label, bin))
        .collect()
}

fn default_pairs() -> Vec<(String, PathBuf)> {
    let mut pairs = Vec::new();
    if Path::new("/usr/sbin/nginx").exists() {
        pairs.push(("1.22".to_string(), PathBuf::from("/usr/sbin/nginx")));
    }
    let mut caches = vec![PathBuf::from(
        std::env::var("NGINX_GEN_CACHE").unwrap_or_else(|_| "/var/cache/nginx-gen".into()),
    )];
    if let Some(home) = std::env::var_os("HOME") {
        caches.push(Path::new(&home).join(".cache/nginx-gen"));
    }
    for cache in caches {
        let Ok(entries) = std::fs::read_dir(&cache) else {
            continue;
        };
        let mut found: Vec<_> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let rest = name.strip_prefix("nginx-")?.to_string();
                let bin = e.path().join("sbin/nginx");
                bin.exists().then_some((rest, bin))
            })
            .collect();
        found.sort();
        for (rest, bin) in found {
            let label = if rest.split('.').count() == 3
                && rest.chars().all(|c| c.is_ascii_digit() || c == '.')
            {
                short_label(&rest)
            } else {
                rest
            };
            if !pairs.iter().any(|(l, _)| *l == label) {
                pairs.push((label, bin));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_debian_and_source_builds() {
        let debian = "nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)\nTLS SNI support enabled\nconfigure arguments: --prefix=/usr/share/nginx --modules-path=/usr/lib/nginx/modules --with-compat";
        assert_eq!(
            parse_nginx_v(debian),
            Some(("1.22.1".into(), "3.0.19".into(), true))
        );
        let built = "nginx version: nginx/1.30.6\nbuilt with OpenSSL 3.5.4 30 Sep 2025\nconfigure arguments: --prefix=/var/cache/nginx-gen/nginx-1.30.6";
        assert_eq!(
            parse_nginx_v(built),
            Some(("1.30.6".into(), "3.5.4".into(), false))
        );
        assert_eq!(parse_nginx_v("nothing"), None);
    }

    #[test]
    fn versions_compare_by_number() {
        assert!(at_least("1.22.1", (1, 19, 4)));
        assert!(at_least("1.19.4", (1, 19, 4)));
        assert!(at_least("1.30", (1, 19, 4)));
        assert!(!at_least("1.18.0", (1, 19, 4)));
        assert!(!at_least("1.9.15", (1, 19, 4)));
    }

    #[test]
    fn nginx_list_spec() {
        assert_eq!(
            parse_nginx_list("1.22=/usr/sbin/nginx, 1.30-openssl3.5=/c/sbin/nginx,").unwrap(),
            vec![
                ("1.22".into(), PathBuf::from("/usr/sbin/nginx")),
                ("1.30-openssl3.5".into(), PathBuf::from("/c/sbin/nginx")),
            ]
        );
        assert!(parse_nginx_list("/usr/sbin/nginx").is_err());
        assert!(parse_nginx_list("a::b=/x").is_err());
        assert_eq!(short_label("1.26.3"), "1.26");
    }

    #[test]
    fn grid_covers_what_the_issue_asks() {
        let trees = trees();
        for w in ["static", "proxy", "api", "mixed"] {
            assert!(trees.iter().any(|t| t.workload == w), "{w}");
        }
        for tls in [None, Some("intermediate"), Some("modern")] {
            assert!(trees.iter().any(|t| t.tls == tls));
        }
        for layout in ["debian", "rhel", "nginx-org"] {
            assert!(trees.iter().any(|t| t.layout == layout));
        }
        assert!(trees.iter().any(|t| t.behind_lb && t.tls.is_none()));
        assert!(trees.iter().any(|t| t.behind_lb && t.tls.is_some()));
        assert!(trees.iter().any(|t| t.tls_port != 443));
        let mut ids: Vec<_> = trees.iter().map(|t| t.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), trees.len(), "tree ids are unique");
        assert_eq!(LONG_NAME.len(), 50);
    }

    #[test]
    fn args_carry_versions_but_the_readme_tree_does_not_and_one_is_older() {
        let n = Nginx {
            label: "1.26".into(),
            bin: "/x".into(),
            prefix: None,
            version: "1.26.3".into(),
            openssl: "3.0.19".into(),
            debian: false,
            brotli: false,
        };
        let (c, k) = (Path::new("/c.pem"), Path::new("/k.pem"));
        for t in trees() {
            let a = t.args(&n, c, k).join(" ");
            if t.special == Special::Readme {
                assert!(!a.contains("--nginx-version"), "{a}");
                assert!(!t.runs_on(&n));
            } else {
                let version = t.nginx_version(&n);
                assert_eq!(version == OLD_NGINX, t.special == Special::OldNginx);
                assert!(
                    a.contains(&format!(
                        "--nginx-version {version} --openssl-version 3.0.19"
                    )),
                    "{a}"
                );
                assert!(
                    !a.contains("--brotli"),
                    "no --brotli where the nginx has no brotli modules: {a}"
                );
            }
            assert_eq!(a.contains("--tls-cert"), t.serves_tls(), "{a}");
        }
    }
}
