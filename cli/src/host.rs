//! Host detection: the only code in nginx-gen that looks at the machine. The CLI uses it to
//! fill in every input the command line and `--input` leave out; the benchmark harness
//! (`bench/`) uses it to describe the machine it measures on, so both read the host the
//! same way.
//!
//! Machine: CPUs from the scheduler affinity list (`Cpus_allowed_list` in
//! `/proc/self/status`) and the cgroup v2 `cpu.max` quota, whichever is smaller; memory from
//! `/proc/meminfo` and the cgroup v2 `memory.max`, whichever is smaller. Software: nginx and
//! OpenSSL versions from `nginx -V`; the layout from the package's files and
//! `/etc/os-release`; the brotli modules from the module directories; PHP-FPM's version from
//! `/etc/php/X.Y/fpm/` (Debian's and Ubuntu's packages); sites that already
//! are the `default_server` from the layout's site directories (files nginx-gen wrote are
//! skipped). The CPU model and the kernel release, for reports.
//!
//! Every reader is split into a parser of the file's text (tested on real samples below)
//! and a thin function that reads the file.

use std::fs;
use std::path::Path;
use std::process::Command;

use nginx_gen_core::inputs::{PhpVersion, Release};
use nginx_gen_core::{ByteSize, Layout, RawInputs, Version};

/// What was found, with where it came from.
#[derive(Debug, Default)]
pub struct Host {
    pub vcpu: Option<(u32, String)>,
    pub ram: Option<(ByteSize, String)>,
    pub nginx: Option<Version>,
    pub openssl: Option<Version>,
    /// The package's layout and what told it.
    pub layout: Option<(Layout, String)>,
    /// Whether the brotli modules are installed (loaded by the package's configuration),
    /// and where that was seen; `None` when nginx is not installed.
    pub brotli: Option<(bool, String)>,
    /// PHP-FPM's version and where it was seen: the one installed, else the distribution's.
    pub php: Option<(PhpVersion, String)>,
    /// The version is the distribution's, none being installed: a given release, which
    /// names the target, wins over it.
    pub php_guessed: bool,
    /// This machine is a container (`/.dockerenv`, `/run/.containerenv`).
    pub container: bool,
}

/// Which detected facts the CLI used (those the command line and `--input` left out).
#[derive(Debug, Clone, Copy, Default)]
#[allow(clippy::struct_excessive_bools, reason = "one flag per fact")]
pub struct Used {
    pub vcpu: bool,
    pub ram: bool,
    pub nginx: bool,
    pub openssl: bool,
    pub layout: bool,
    pub brotli: bool,
    pub php: bool,
}

impl Used {
    /// Every fact.
    pub const ALL: Self = Self {
        vcpu: true,
        ram: true,
        nginx: true,
        openssl: true,
        layout: true,
        brotli: true,
        php: true,
    };
}

impl Host {
    /// Probes this machine, with the `nginx` found on `PATH`.
    pub fn detect() -> Self {
        let version_output = nginx_v_output("nginx");
        let (nginx, openssl) = version_output
            .as_deref()
            .map(parse_nginx_v)
            .unwrap_or_default();
        let os = fs::read_to_string("/etc/os-release")
            .ok()
            .map(|t| parse_os_release(&t));
        let facts = LayoutFacts {
            container: in_container(),
            sites_enabled: Path::new("/etc/nginx/sites-enabled").is_dir(),
            nginx_org_default: Path::new("/etc/nginx/conf.d/default.conf").is_file(),
            nginx_org_build: version_output.as_deref().is_some_and(|t| {
                t.contains("--user=nginx") && t.contains("--modules-path=/usr/lib/nginx/modules")
            }),
        };
        let brotli = nginx.map(|_| brotli_installed());
        let installed = php_fpm();
        Self {
            container: facts.container,
            vcpu: vcpu(),
            ram: ram(),
            nginx,
            openssl,
            layout: choose_layout(os.as_ref(), &facts),
            brotli,
            php: installed
                .clone()
                .or_else(|| os.as_ref().and_then(release_php)),
            php_guessed: installed.is_none(),
        }
    }

    /// The inputs these facts give (the `--input` document's fields), each only where
    /// `used` says so: a fact left out leaves its input to the release's default or the
    /// built-in one. The one mapping from facts to inputs: the CLI's detection and
    /// `nginx-gen fleet` (facts from Ansible) both use it.
    pub fn raw(&self, used: Used) -> RawInputs {
        RawInputs {
            vcpu: self
                .vcpu
                .as_ref()
                .filter(|_| used.vcpu)
                .map(|(n, _)| (*n).into()),
            ram: self
                .ram
                .as_ref()
                .filter(|_| used.ram)
                .map(|(s, _)| s.to_string()),
            nginx_version: self.nginx.filter(|_| used.nginx).map(|v| v.to_string()),
            openssl_version: self.openssl.filter(|_| used.openssl).map(|v| v.to_string()),
            layout: self
                .layout
                .as_ref()
                .filter(|_| used.layout)
                .map(|(l, _)| l.to_string()),
            brotli: self
                .brotli
                .as_ref()
                .filter(|_| used.brotli)
                .map(|(on, _)| *on),
            php_version: self
                .php
                .as_ref()
                .filter(|_| used.php)
                .map(|(php, _)| php.to_string()),
            ..RawInputs::default()
        }
    }

    /// Whether PHP-FPM's version is used: for the php workload, where none is given, and a
    /// guessed one only where no release names the target.
    pub fn php_used(&self, given: &RawInputs) -> bool {
        let release = given.release.as_deref().is_some_and(|r| r != "any");
        given.php_version.is_none()
            && given.workload.as_deref() == Some("php")
            && !(self.php_guessed && release)
    }

    /// Whether this machine's software is the target's: not where the files are for a
    /// container (the Docker layout, given or a `docker-*` release's) and this machine is
    /// none, its host say. The image's nginx, modules and sites are not this machine's.
    pub fn runs_the_target(&self, given: &RawInputs) -> bool {
        self.container || target_layout(given) != Some(Layout::Docker)
    }

    /// The facts used: those `given` (the command line and `--input`) leaves out, and of
    /// the software only where this machine runs the target ([`Self::runs_the_target`]).
    pub fn used(&self, given: &RawInputs) -> Used {
        let software = self.runs_the_target(given);
        Used {
            vcpu: given.vcpu.is_none(),
            ram: given.ram.is_none(),
            nginx: given.nginx_version.is_none() && software,
            openssl: given.openssl_version.is_none() && software,
            layout: given.layout.is_none() && software,
            // The modules seen belong to the detected package: they say nothing about a
            // layout given for another one.
            brotli: given.brotli.is_none()
                && software
                && given.layout.as_deref().is_none_or(|l| {
                    self.layout
                        .as_ref()
                        .is_some_and(|(detected, _)| detected.as_str() == l)
                }),
            php: self.php_used(given) && software,
        }
    }

    /// One line saying what was detected.
    pub fn describe(&self) -> String {
        self.describe_used(Used::ALL)
    }

    /// One line saying what was detected and used.
    pub fn describe_used(&self, used: Used) -> String {
        let mut parts = Vec::new();
        if let Some((n, source)) = self.vcpu.as_ref().filter(|_| used.vcpu) {
            parts.push(format!("{n} vCPU ({source})"));
        }
        if let Some((size, source)) = self.ram.as_ref().filter(|_| used.ram) {
            parts.push(format!("{size} RAM ({source})"));
        }
        match (
            self.nginx.filter(|_| used.nginx),
            self.openssl.filter(|_| used.openssl),
        ) {
            (Some(n), Some(o)) => parts.push(format!("nginx {n} with OpenSSL {o} (nginx -V)")),
            (Some(n), None) => parts.push(format!("nginx {n} (nginx -V)")),
            (None, Some(o)) => parts.push(format!("OpenSSL {o} (nginx -V)")),
            (None, None) if self.nginx.is_none() && used.nginx => parts.push(
                "no nginx installed: the files are the form every supported version accepts".into(),
            ),
            (None, None) => {}
        }
        if let Some((layout, source)) = self.layout.as_ref().filter(|_| used.layout) {
            parts.push(format!("{layout} layout ({source})"));
        }
        if let Some((on, source)) = self.brotli.as_ref().filter(|_| used.brotli) {
            let state = if *on { "installed" } else { "not installed" };
            parts.push(format!("brotli modules {state} ({source})"));
        }
        if let Some((php, source)) = self.php.as_ref().filter(|_| used.php) {
            parts.push(format!("PHP-FPM {php} ({source})"));
        }
        if parts.is_empty() {
            "detected nothing: every input was given".into()
        } else {
            format!("detected {}", parts.join(", "))
        }
    }
}

/// The listens of a host without IPv6 when the inputs give none: IPv4 only (the default
/// listens are dual stack, which such a host cannot bind).
pub fn listen_without_ipv6(raw: &RawInputs, ipv6: bool) -> Option<Vec<String>> {
    (raw.listen.is_none() && !ipv6).then(|| vec!["80".into()])
}

/// `/etc/os-release`: the distribution's id, the ids it is like, and its version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OsRelease {
    pub id: String,
    pub id_like: Vec<String>,
    pub version_id: String,
}

/// Reads `/etc/os-release` (`KEY=value`, values optionally quoted).
pub fn parse_os_release(text: &str) -> OsRelease {
    let mut os = OsRelease::default();
    for line in text.lines() {
        let Some((key, value)) = line.trim().split_once('=') else {
            continue;
        };
        let value = value
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_owned();
        match key {
            "ID" => os.id = value.to_ascii_lowercase(),
            "ID_LIKE" => {
                os.id_like = value
                    .split_whitespace()
                    .map(str::to_ascii_lowercase)
                    .collect();
            }
            "VERSION_ID" => os.version_id = value,
            _ => {}
        }
    }
    os
}

/// What the files on the host say about the nginx package.
#[derive(Debug, Clone, Copy, Default)]
#[allow(clippy::struct_excessive_bools, reason = "one flag per file checked")]
pub struct LayoutFacts {
    /// `/.dockerenv` or `/run/.containerenv` exists.
    pub container: bool,
    /// `/etc/nginx/sites-enabled/` exists (Debian's and Ubuntu's packages).
    pub sites_enabled: bool,
    /// `/etc/nginx/conf.d/default.conf` exists (the nginx.org packages and the image).
    pub nginx_org_default: bool,
    /// `nginx -V` shows nginx.org's build (`--user=nginx`, modules in /usr/lib/nginx).
    pub nginx_org_build: bool,
}

/// The layout the package files show, else the distribution's family.
pub fn choose_layout(os: Option<&OsRelease>, f: &LayoutFacts) -> Option<(Layout, String)> {
    let found = |layout, source: &str| Some((layout, source.to_owned()));
    if f.nginx_org_default && (f.nginx_org_build || !f.sites_enabled) {
        return if f.container {
            found(
                Layout::Docker,
                "nginx.org's conf.d/default.conf in a container",
            )
        } else {
            found(
                Layout::NginxOrg,
                "/etc/nginx/conf.d/default.conf of nginx.org's package",
            )
        };
    }
    if f.sites_enabled {
        return found(Layout::Debian, "/etc/nginx/sites-enabled");
    }
    let os = os?;
    let is = |names: &[&str]| {
        names
            .iter()
            .any(|n| os.id == *n || os.id_like.iter().any(|l| l == n))
    };
    let family = if is(&["debian", "ubuntu"]) {
        Layout::Debian
    } else if is(&["rhel", "fedora", "centos"]) {
        Layout::Rhel
    } else {
        return None;
    };
    Some((family, format!("/etc/os-release ID={}", os.id)))
}

/// Whether the brotli filter and static modules are loaded by the package's
/// configuration: on Debian, `modules-enabled/` names them (`50-mod-http-brotli-*.conf`);
/// elsewhere their `.so` files are in the modules directory (nginx-gen loads them by
/// name).
pub fn brotli_from(enabled: Option<&[String]>, modules: &[String]) -> bool {
    let both = |names: &[String], filter: &dyn Fn(&str, &str) -> bool| {
        ["filter", "static"]
            .iter()
            .all(|kind| names.iter().any(|n| filter(n, kind)))
    };
    match enabled {
        Some(enabled) => both(enabled, &|n, kind| n.contains("brotli") && n.contains(kind)),
        None => both(modules, &|n, kind| {
            n == format!("ngx_http_brotli_{kind}_module.so")
        }),
    }
}

fn names_in(dir: &str) -> Option<Vec<String>> {
    let entries = fs::read_dir(dir).ok()?;
    Some(
        entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
    )
}

/// The brotli modules on this host, and where that was seen.
fn brotli_installed() -> (bool, String) {
    let enabled_dir = "/etc/nginx/modules-enabled";
    let enabled = names_in(enabled_dir);
    let (dir, modules) = ["/usr/lib/nginx/modules", "/usr/lib64/nginx/modules"]
        .iter()
        .find_map(|d| names_in(d).map(|n| (*d, n)))
        .unwrap_or(("/usr/lib/nginx/modules", Vec::new()));
    let on = brotli_from(enabled.as_deref(), &modules);
    let source = if enabled.is_some() {
        format!("{enabled_dir}/")
    } else {
        format!("{dir}/ngx_http_brotli_*.so")
    };
    (on, source)
}

/// One PHP-FPM version found under `/etc/php/X.Y/fpm/`: whether its program is installed
/// (`/usr/sbin/php-fpmX.Y`; a removed package leaves its configuration behind) and whether
/// its socket exists (it runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhpFound {
    pub version: String,
    pub installed: bool,
    pub running: bool,
}

/// The PHP-FPM the site uses among those found: an installed one nginx-gen knows, the one
/// that runs first (several are installed side by side with Ondřej Surý's packages), else
/// the newest.
pub fn choose_php(found: &[PhpFound]) -> Option<PhpVersion> {
    found
        .iter()
        .filter(|f| f.installed)
        .filter_map(|f| Some((f.running, f.version.parse::<PhpVersion>().ok()?)))
        .max()
        .map(|(_, php)| php)
}

/// The release an os-release names, where nginx-gen has its row: Debian 12 and 13,
/// Ubuntu 22.04 and 24.04 (`VERSION_ID`; Ansible's `12.5` counts as 12).
pub fn release_of(os: &OsRelease) -> Option<Release> {
    let major = os.version_id.split('.').next().unwrap_or_default();
    Some(match (os.id.as_str(), major, os.version_id.as_str()) {
        ("debian", "12", _) => Release::Debian12,
        ("debian", "13", _) => Release::Debian13,
        ("ubuntu", _, v) if v.starts_with("22.04") => Release::Ubuntu2204,
        ("ubuntu", _, v) if v.starts_with("24.04") => Release::Ubuntu2404,
        _ => return None,
    })
}

/// The PHP-FPM of the distribution's packages, for a host where none is installed yet (the
/// script installs it), and what told it.
pub fn release_php(os: &OsRelease) -> Option<(PhpVersion, String)> {
    let row = release_of(os)?.row()?;
    Some((row.php?, format!("{} packages", row.title)))
}

/// PHP-FPM on this host, and where it was seen: its program and socket where the layout
/// that names the version (Debian's) puts them.
fn php_fpm() -> Option<(PhpVersion, String)> {
    let program = |php| Path::new("/usr/sbin").join(Layout::Debian.php_fpm_program(php));
    let found: Vec<PhpFound> = names_in("/etc/php")?
        .into_iter()
        .filter(|version| Path::new("/etc/php").join(version).join("fpm").is_dir())
        .map(|version| {
            let php = version.parse::<PhpVersion>().ok();
            PhpFound {
                installed: php.is_some_and(|php| program(php).exists()),
                running: php.is_some_and(|php| Path::new(&Layout::Debian.php_socket(php)).exists()),
                version,
            }
        })
        .collect();
    let php = choose_php(&found)?;
    Some((php, program(php).display().to_string()))
}

/// Services that share a web server's machine and take memory of their own: databases,
/// caches, search engines, JVMs, by the process name the kernel keeps (`comm`).
pub const OTHER_SERVICES: &[&str] = &[
    "mysqld",
    "mariadbd",
    "postgres",
    "redis-server",
    "valkey-server",
    "memcached",
    "mongod",
    "java",
];

/// From one `/proc/PID/status`: the process name, if [`OTHER_SERVICES`] lists it, and its
/// resident memory (`VmRSS`).
pub fn parse_service_status(text: &str) -> Option<(&'static str, ByteSize)> {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
    };
    let name = field("Name:")?;
    let service = OTHER_SERVICES.iter().find(|s| **s == name)?;
    let kib: u64 = field("VmRSS:")?.strip_suffix("kB")?.trim().parse().ok()?;
    Some((service, ByteSize::bytes(kib * 1024)))
}

/// The other services running here and the memory each holds now (all its processes),
/// largest first. Their peak is larger (a database's buffers fill as it works): what the
/// CLI prints is a hint for `--other-memory`, never taken as its value.
pub fn other_services() -> Vec<(&'static str, ByteSize)> {
    let mut found: Vec<(&'static str, ByteSize)> = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let status = entry.path().join("status");
        let Some((name, rss)) = fs::read_to_string(status)
            .ok()
            .as_deref()
            .and_then(parse_service_status)
        else {
            continue;
        };
        match found.iter_mut().find(|(n, _)| *n == name) {
            Some((_, total)) => *total = ByteSize::bytes(total.as_u64() + rss.as_u64()),
            None => found.push((name, rss)),
        }
    }
    found.sort_by_key(|(_, rss)| std::cmp::Reverse(rss.as_u64()));
    found
}

/// Whether nginx-gen wrote this file: its header names nginx-gen in every language.
pub fn written_by_nginx_gen(text: &str) -> bool {
    text.lines()
        .take(3)
        .any(|l| l.trim_start().starts_with('#') && l.contains("nginx-gen "))
}

/// The ports of the `listen` directives in `text` that make their server the default one
/// (`default_server`, or the old `default`). Comments are skipped; an address without a
/// port is port 80; Unix sockets have none.
pub fn default_server_ports(text: &str) -> Vec<u16> {
    let mut ports = Vec::new();
    let code: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    for statement in code.split([';', '{', '}']) {
        let mut words = statement.split_whitespace();
        if words.next() != Some("listen") {
            continue;
        }
        let Some(addr) = words.next() else { continue };
        if !words.any(|w| w == "default_server" || w == "default") || addr.starts_with("unix:") {
            continue;
        }
        let port = match addr.rsplit_once(':') {
            Some((_, p)) if !addr.ends_with(']') => p.parse().ok(),
            _ if addr.bytes().all(|b| b.is_ascii_digit()) => addr.parse().ok(),
            _ => Some(80),
        };
        if let Some(p) = port.filter(|p| !ports.contains(p)) {
            ports.push(p);
        }
    }
    ports
}

/// Sites in the layout's site directories that are the default server on one of `ports`,
/// as (file, port); files nginx-gen wrote are left out (it replaces them).
pub fn existing_default_servers(layout: Layout, ports: &[u16]) -> Vec<(String, u16)> {
    existing_default_servers_under(Path::new("/"), layout, ports)
}

/// [`existing_default_servers`] in the tree under `root` (`apply --install-root`); the files are
/// named by their install path.
pub fn existing_default_servers_under(
    root: &Path,
    layout: Layout,
    ports: &[u16],
) -> Vec<(String, u16)> {
    let mut found = Vec::new();
    for dir in layout.site_dirs() {
        let under = root.join(dir.trim_start_matches('/'));
        let Some(mut names) = names_in(&under.to_string_lossy()) else {
            continue;
        };
        names.sort();
        for name in names {
            // conf.d is included as *.conf; sites-enabled as every file.
            // (nginx matches the glob case-sensitively.)
            if dir.ends_with("conf.d") && Path::new(&name).extension().is_none_or(|e| e != "conf") {
                continue;
            }
            let path = format!("{dir}/{name}");
            let Ok(text) = fs::read_to_string(under.join(&name)) else {
                continue;
            };
            if written_by_nginx_gen(&text) {
                continue;
            }
            for port in default_server_ports(&text) {
                if ports.contains(&port) {
                    found.push((path.clone(), port));
                }
            }
        }
    }
    found
}

/// The CPU quota of cgroup v2 `cpu.max` (`quota period`, or `max`), rounded up.
pub fn parse_cpu_max(text: &str) -> Option<u32> {
    let mut parts = text.split_whitespace();
    let quota: u64 = parts.next()?.parse().ok()?;
    let period: u64 = parts.next()?.parse().ok()?;
    (period > 0).then(|| quota.div_ceil(period).max(1) as u32)
}

/// The most CPUs a list may name (the kernel's `NR_CPUS` limit is 8192).
const MAX_CPUS: u32 = 65_536;

/// The CPUs of a Linux CPU list (`0`, `0,2`, `0-3,6`: the format of `Cpus_allowed_list`,
/// cgroup `cpuset.cpus` and `taskset -c`), in the order written. `None` when it is not such
/// a list (empty, a reversed range, more than 65,536 CPUs).
pub fn parse_cpu_list(list: &str) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    for part in list.trim().split(',') {
        let (lo, hi) = if let Some((a, b)) = part.split_once('-') {
            (a.trim().parse().ok()?, b.trim().parse().ok()?)
        } else {
            let n: u32 = part.trim().parse().ok()?;
            (n, n)
        };
        if lo > hi || cpus.len() as u64 + u64::from(hi - lo) >= u64::from(MAX_CPUS) {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    Some(cpus)
}

/// How many CPUs the scheduler lets this process use, from `/proc/self/status`.
pub fn parse_affinity(status: &str) -> Option<u32> {
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
    let n = parse_cpu_list(list)?.len() as u32;
    (n > 0).then_some(n)
}

/// The smaller of the affinity count and the cgroup quota, saying which it is.
pub fn choose_vcpu(affinity: Option<u32>, quota: Option<u32>) -> Option<(u32, String)> {
    match (affinity, quota) {
        (Some(a), Some(q)) if q < a => Some((
            q,
            format!("cgroup cpu.max quota; {a} CPUs in the affinity mask"),
        )),
        (Some(a), _) => Some((a, "CPU affinity mask".into())),
        (None, Some(q)) => Some((q, "cgroup cpu.max quota".into())),
        (None, None) => None,
    }
}

/// The vCPUs nginx should plan for, and where the figure comes from.
pub fn vcpu() -> Option<(u32, String)> {
    let affinity = fs::read_to_string("/proc/self/status")
        .ok()
        .as_deref()
        .and_then(parse_affinity)
        .or_else(|| {
            std::thread::available_parallelism()
                .ok()
                .map(|n| n.get() as u32)
        });
    let quota = fs::read_to_string("/sys/fs/cgroup/cpu.max")
        .ok()
        .as_deref()
        .and_then(parse_cpu_max);
    choose_vcpu(affinity, quota)
}

/// `MemTotal` from `/proc/meminfo`.
pub fn parse_meminfo(text: &str) -> Option<ByteSize> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(ByteSize::bytes(kib * 1024))
}

/// The limit in cgroup v2 `memory.max` (bytes, or `max` for none).
pub fn parse_memory_max(text: &str) -> Option<ByteSize> {
    text.trim().parse::<u64>().ok().map(ByteSize::bytes)
}

/// The smaller of the machine's memory and the cgroup limit, in whole MiB (so the reproduce
/// command stays short and exact), saying which it is.
fn choose_ram(total: Option<ByteSize>, limit: Option<ByteSize>) -> Option<(ByteSize, String)> {
    let whole = |s: ByteSize| ByteSize::mib(s.as_mib());
    match (total, limit) {
        (Some(t), Some(l)) if l < t => Some((whole(l), "cgroup memory.max".into())),
        (Some(t), _) => Some((whole(t), "/proc/meminfo".into())),
        (None, Some(l)) => Some((whole(l), "cgroup memory.max".into())),
        (None, None) => None,
    }
}

/// The memory nginx should plan for, and where the figure comes from.
pub fn ram() -> Option<(ByteSize, String)> {
    let total = fs::read_to_string("/proc/meminfo")
        .ok()
        .as_deref()
        .and_then(parse_meminfo);
    let limit = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .as_deref()
        .and_then(parse_memory_max);
    choose_ram(total, limit)
}

/// nginx and OpenSSL versions from `nginx -V` output (which nginx prints to stderr).
pub fn parse_nginx_v(text: &str) -> (Option<Version>, Option<Version>) {
    let nginx = text
        .lines()
        .find_map(|l| l.split("nginx/").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok());
    // Prefer the library actually loaded ("running with OpenSSL x") over the build's.
    let openssl_after = |marker: &str| {
        text.split(marker)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    };
    let openssl =
        openssl_after("running with OpenSSL ").or_else(|| openssl_after("built with OpenSSL "));
    (nginx, openssl)
}

/// The output of `PROGRAM -V` (a name on `PATH` or a path); `None` when it cannot run.
pub fn nginx_v_output(program: &str) -> Option<String> {
    let output = Command::new(program).arg("-V").output().ok()?;
    Some(
        String::from_utf8_lossy(&output.stderr).into_owned()
            + &String::from_utf8_lossy(&output.stdout),
    )
}

/// Runs `PROGRAM -V` (a name on `PATH` or a path); `None` when it cannot run.
pub fn nginx_versions(program: &str) -> Option<(Option<Version>, Option<Version>)> {
    nginx_v_output(program).map(|t| parse_nginx_v(&t))
}

/// The first `model name` of `/proc/cpuinfo` (x86; other architectures may have none).
pub fn parse_cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, model)| model.trim().to_string())
        .filter(|m| !m.is_empty())
}

/// This machine's CPU model, if `/proc/cpuinfo` names it.
pub fn cpu_model() -> Option<String> {
    parse_cpu_model(&fs::read_to_string("/proc/cpuinfo").ok()?)
}

/// The running kernel's release (`uname -r`).
pub fn kernel_release() -> Option<String> {
    let r = fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    Some(r.trim().to_string()).filter(|r| !r.is_empty())
}

/// Whether the kernel has IPv6 on some interface: `/proc/net/if_inet6` lists one line per
/// IPv6 address (absent or empty when IPv6 is disabled).
pub fn parse_if_inet6(text: &str) -> bool {
    text.lines().any(|l| !l.trim().is_empty())
}

/// Whether this host has IPv6, so that nginx can listen on `[::]`.
pub fn ipv6() -> bool {
    fs::read_to_string("/proc/net/if_inet6").is_ok_and(|t| parse_if_inet6(&t))
}

/// The first `nameserver` of a resolv.conf.
pub fn parse_resolv_conf(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some("nameserver"))
            .then(|| words.next())
            .flatten()
            .map(str::to_owned)
    })
}

/// The DNS server this host's programs ask.
pub fn resolver() -> Option<String> {
    parse_resolv_conf(&fs::read_to_string("/etc/resolv.conf").ok()?)
}

/// The layout the files are for, as far as `raw` says: the one given, else its release's.
pub fn target_layout(raw: &RawInputs) -> Option<Layout> {
    raw.layout
        .as_deref()
        .and_then(|l| l.parse::<Layout>().ok())
        .or_else(|| {
            let release = raw.release.as_deref()?.parse::<Release>().ok()?;
            Some(release.row()?.layout)
        })
}

/// Whether this machine is a container (`/.dockerenv`, Podman's `/run/.containerenv`).
pub fn in_container() -> bool {
    Path::new("/.dockerenv").exists() || Path::new("/run/.containerenv").exists()
}

/// Whether the plan needs the DNS server of the machine the files are made on: nginx asks
/// one (OCSP stapling, or the application's names looked up again) and none is given.
/// Files for a container (the Docker layout) made on its host (`made_in_container` false)
/// do not: the container asks its engine's DNS, and the layout's default is that one.
/// Inside the container its own `/etc/resolv.conf` is the engine's.
pub fn needs_host_resolver(raw: &RawInputs, made_in_container: bool) -> bool {
    let asks = raw.ocsp_stapling == Some(true) || raw.upstream_resolve == Some(true);
    asks && raw.resolver.is_none()
        && (made_in_container || target_layout(raw) != Some(Layout::Docker))
}

/// `fs.file-max` as the input takes it: values above `u32::MAX` (systemd sets
/// `LONG_MAX`) count as `u32::MAX`, which no plan exceeds.
pub fn parse_file_max(text: &str) -> Option<u32> {
    let n: u64 = text.trim().parse().ok()?;
    Some(u32::try_from(n).unwrap_or(u32::MAX))
}

/// This host's `fs.file-max`.
pub fn file_max() -> Option<u32> {
    parse_file_max(&fs::read_to_string("/proc/sys/fs/file-max").ok()?)
}

/// Whether a `/proc/modules` text lists the kernel's `tls` module.
pub fn modules_have_tls(text: &str) -> bool {
    text.lines()
        .any(|l| l.split_whitespace().next() == Some("tls"))
}

/// Whether this kernel offers TLS offload: the `tls` module is loaded or built in.
pub fn ktls() -> bool {
    std::path::Path::new("/sys/module/tls").exists()
        || fs::read_to_string("/proc/modules").is_ok_and(|t| modules_have_tls(&t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;

    #[test]
    fn file_max_and_ktls_facts() {
        assert_eq!(parse_file_max("9223372036854775807\n"), Some(u32::MAX));
        assert_eq!(parse_file_max("812345\n"), Some(812_345));
        assert_eq!(parse_file_max("x"), None);
        let modules = "tls 155648 0 - Live 0x0000000000000000\nipv6 1 2 - Live 0x0\n";
        assert!(modules_have_tls(modules));
        assert!(!modules_have_tls(
            "tlsx 1 0 - Live 0x0\nnf_tables 1 0 - Live 0x0\n"
        ));
    }

    /// Debian 12's nginx package, `nginx -V 2>&1` (first lines).
    const NGINX_V_DEBIAN: &str = "nginx version: nginx/1.22.1\n\
        built with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)\n\
        TLS SNI support enabled\n\
        configure arguments: --with-cc-opt='-g -O2' --prefix=/usr/share/nginx --conf-path=/etc/nginx/nginx.conf\n";

    /// nginx built from source against the system library: no "running with".
    const NGINX_V_SOURCE: &str = "nginx version: nginx/1.26.3\n\
        built by gcc 12.2.0 (Debian 12.2.0-14)\n\
        built with OpenSSL 3.0.15 3 Sep 2024\n\
        TLS SNI support enabled\n";

    /// The head of a real `/proc/self/status` (2 CPUs allowed).
    const STATUS: &str = "Name:\tcat\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\n\
        Threads:\t1\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t00000001\n\
        Mems_allowed_list:\t0\nvoluntary_ctxt_switches:\t0\n";

    /// The head of a real `/proc/meminfo`.
    const MEMINFO: &str = "MemTotal:       24683652 kB\nMemFree:        20369912 kB\n\
        MemAvailable:   23297868 kB\nBuffers:          102400 kB\n";

    /// The head of a real `/proc/cpuinfo` (x86).
    const CPUINFO: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\
        model\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\nstepping\t: 1\n\n\
        processor\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\n";

    #[test]
    fn cgroup_cpu_max() {
        assert_eq!(parse_cpu_max("200000 100000\n"), Some(2));
        // 1.5 CPUs: nginx gets a second worker for the half.
        assert_eq!(parse_cpu_max("150000 100000"), Some(2));
        // A quota below one CPU still runs one worker.
        assert_eq!(parse_cpu_max("50000 100000\n"), Some(1));
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cpu_max("100000 0"), None);
        assert_eq!(parse_cpu_max(""), None);
    }

    #[test]
    fn cgroup_memory_max() {
        assert_eq!(parse_memory_max("max\n"), None);
        assert_eq!(
            parse_memory_max("2147483648\n"),
            Some(ByteSize::bytes(2_147_483_648))
        );
    }

    #[test]
    fn proc_meminfo() {
        assert_eq!(
            parse_meminfo(MEMINFO),
            Some(ByteSize::bytes(24_683_652 * 1024))
        );
        assert_eq!(parse_meminfo("MemFree: 1 kB\n"), None);
    }

    #[test]
    fn affinity_lists() {
        assert_eq!(parse_affinity(STATUS), Some(2));
        assert_eq!(parse_cpu_list("0"), Some(vec![0]));
        assert_eq!(parse_cpu_list("0-3,6"), Some(vec![0, 1, 2, 3, 6]));
        assert_eq!(parse_cpu_list(" 1 , 3-4\n"), Some(vec![1, 3, 4]));
        for bad in ["", "a", "3-1", "0,", "-1", "0-70000"] {
            assert_eq!(parse_cpu_list(bad), None, "{bad:?}");
        }
        assert_eq!(parse_affinity("Name:\tx\n"), None);
    }

    #[test]
    fn the_smaller_limit_wins_and_is_named() {
        assert_eq!(
            choose_vcpu(Some(8), Some(2)),
            Some((
                2,
                "cgroup cpu.max quota; 8 CPUs in the affinity mask".into()
            ))
        );
        assert_eq!(
            choose_vcpu(Some(2), Some(8)),
            Some((2, "CPU affinity mask".into()))
        );
        assert_eq!(
            choose_vcpu(None, Some(3)),
            Some((3, "cgroup cpu.max quota".into()))
        );
        assert_eq!(choose_vcpu(None, None), None);
        let gib = ByteSize::gib;
        assert_eq!(
            choose_ram(Some(gib(8)), Some(gib(2))),
            Some((gib(2), "cgroup memory.max".into()))
        );
        // Whole MiB: 24,683,652 KiB is 24,105 MiB and 772 KiB.
        assert_eq!(
            choose_ram(parse_meminfo(MEMINFO), None),
            Some((ByteSize::mib(24_105), "/proc/meminfo".into()))
        );
        assert_eq!(choose_ram(None, None), None);
    }

    #[test]
    fn nginx_v_output() {
        assert_eq!(
            parse_nginx_v(NGINX_V_DEBIAN),
            (Some(Version::new(1, 22, 1)), Some(Version::new(3, 0, 19)))
        );
        assert_eq!(
            parse_nginx_v(NGINX_V_SOURCE),
            (Some(Version::new(1, 26, 3)), Some(Version::new(3, 0, 15)))
        );
        assert_eq!(
            parse_nginx_v("nginx version: nginx/1.24.0\n"),
            (Some(Version::new(1, 24, 0)), None)
        );
        assert_eq!(parse_nginx_v("sh: nginx: not found\n"), (None, None));
    }

    /// Debian 12's `/etc/os-release`.
    const OS_DEBIAN: &str = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n\
        VERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\nVERSION_CODENAME=bookworm\nID=debian\n";

    /// Rocky Linux 9's `/etc/os-release` (head).
    const OS_ROCKY: &str = "NAME=\"Rocky Linux\"\nVERSION=\"9.5 (Blue Onyx)\"\nID=\"rocky\"\n\
        ID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.5\"\n";

    /// Debian's stock `sites-available/default` (its listen lines and comments).
    const SITE_DEBIAN_DEFAULT: &str = "# Default server configuration\n#\nserver {\n\
        \tlisten 80 default_server;\n\tlisten [::]:80 default_server;\n\n\
        \t# SSL configuration\n\t#\n\t# listen 443 ssl default_server;\n\
        \t# listen [::]:443 ssl default_server;\n\troot /var/www/html;\n\
        \tserver_name _;\n\tlocation / {\n\t\ttry_files $uri $uri/ =404;\n\t}\n}\n";

    /// nginx.org's `conf.d/default.conf` (head): no `default_server`.
    const SITE_NGINX_ORG: &str = "server {\n    listen       80;\n    server_name  localhost;\n";

    #[test]
    fn os_release_files() {
        let debian = parse_os_release(OS_DEBIAN);
        assert_eq!(
            (debian.id.as_str(), debian.version_id.as_str()),
            ("debian", "12")
        );
        let rocky = parse_os_release(OS_ROCKY);
        assert_eq!(rocky.id, "rocky");
        assert_eq!(rocky.id_like, ["rhel", "centos", "fedora"]);
        assert_eq!(parse_os_release(""), OsRelease::default());
    }

    #[test]
    fn layout_from_the_package_files_then_the_distribution() {
        let debian = parse_os_release(OS_DEBIAN);
        let rocky = parse_os_release(OS_ROCKY);
        let none = LayoutFacts::default();
        let layout = |os: Option<&OsRelease>, f: LayoutFacts| choose_layout(os, &f).map(|(l, _)| l);
        let sites = LayoutFacts {
            sites_enabled: true,
            ..none
        };
        assert_eq!(layout(Some(&debian), sites), Some(Layout::Debian));
        assert_eq!(
            choose_layout(None, &sites).unwrap().1,
            "/etc/nginx/sites-enabled"
        );
        // No nginx yet: the distribution's family.
        assert_eq!(layout(Some(&debian), none), Some(Layout::Debian));
        assert_eq!(layout(Some(&rocky), none), Some(Layout::Rhel));
        let org = LayoutFacts {
            nginx_org_default: true,
            ..none
        };
        assert_eq!(layout(Some(&rocky), org), Some(Layout::NginxOrg));
        assert_eq!(
            layout(
                Some(&debian),
                LayoutFacts {
                    container: true,
                    ..org
                }
            ),
            Some(Layout::Docker)
        );
        // nginx.org's package over a Debian one that left sites-enabled behind.
        let both = LayoutFacts {
            sites_enabled: true,
            nginx_org_default: true,
            ..none
        };
        assert_eq!(layout(Some(&debian), both), Some(Layout::Debian));
        assert_eq!(
            layout(
                Some(&debian),
                LayoutFacts {
                    nginx_org_build: true,
                    ..both
                }
            ),
            Some(Layout::NginxOrg)
        );
        let arch = parse_os_release("ID=arch\n");
        assert_eq!(layout(Some(&arch), none), None);
        assert_eq!(layout(None, none), None);
    }

    #[test]
    fn a_release_names_its_php() {
        let os = |id: &str, version: &str| OsRelease {
            id: id.into(),
            id_like: Vec::new(),
            version_id: version.into(),
        };
        let php = |id, version| release_php(&os(id, version)).map(|(php, _)| php);
        assert_eq!(php("debian", "13"), Some(PhpVersion::V84));
        // Ansible's ansible_distribution_version has the point release.
        assert_eq!(php("debian", "12.5"), Some(PhpVersion::V82));
        assert_eq!(php("ubuntu", "24.04"), Some(PhpVersion::V83));
        assert_eq!(php("ubuntu", "22.04"), Some(PhpVersion::V81));
        // A release without a row, or whose paths name no version.
        assert_eq!(php("ubuntu", "20.04"), None);
        assert_eq!(php("rhel", "9.4"), None);
    }

    #[test]
    fn a_given_release_wins_over_a_guessed_php_only() {
        let given = |release: Option<&str>, workload: &str| RawInputs {
            release: release.map(Into::into),
            workload: Some(workload.into()),
            ..RawInputs::default()
        };
        let host = |guessed| Host {
            php: Some((PhpVersion::V82, "…".into())),
            php_guessed: guessed,
            ..Host::default()
        };
        // Installed: used whatever release is named, as the detected nginx is.
        assert!(host(false).php_used(&given(Some("ubuntu-24.04"), "php")));
        // Guessed from this machine's distribution: the release named wins.
        assert!(!host(true).php_used(&given(Some("ubuntu-24.04"), "php")));
        assert!(host(true).php_used(&given(Some("any"), "php")));
        assert!(host(true).php_used(&given(None, "php")));
        // Not for other workloads, nor over a given version.
        assert!(!host(false).php_used(&given(None, "proxy")));
        let mut pinned = given(None, "php");
        pinned.php_version = Some("8.4".into());
        assert!(!host(false).php_used(&pinned));
    }

    #[test]
    fn php_fpm_is_the_one_installed_and_running() {
        let found = |list: &[(&str, bool, bool)]| {
            list.iter()
                .map(|&(v, installed, running)| PhpFound {
                    version: v.to_owned(),
                    installed,
                    running,
                })
                .collect::<Vec<_>>()
        };
        // Surý's packages beside the release's, neither running: the newest.
        let both = found(&[("8.2", true, false), ("8.4", true, false)]);
        assert_eq!(choose_php(&both), Some(PhpVersion::V84));
        // The one that runs wins over a newer one installed beside it.
        let running = found(&[("8.2", true, true), ("8.4", true, false)]);
        assert_eq!(choose_php(&running), Some(PhpVersion::V82));
        // A removed package's leftover configuration is no PHP-FPM.
        let removed = found(&[("8.2", true, false), ("8.4", false, false)]);
        assert_eq!(choose_php(&removed), Some(PhpVersion::V82));
        // Versions nginx-gen does not know (7.4, a future 9.0) are no answer.
        let unknown = found(&[("7.4", true, true), ("9.0", true, false)]);
        assert_eq!(choose_php(&unknown), None);
        assert_eq!(choose_php(&[]), None);
    }

    #[test]
    fn brotli_modules() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let debian_enabled = names(&[
            "50-mod-http-brotli-filter.conf",
            "50-mod-http-brotli-static.conf",
        ]);
        let so = names(&[
            "ngx_http_brotli_filter_module.so",
            "ngx_http_brotli_static_module.so",
        ]);
        assert!(brotli_from(Some(&debian_enabled), &so));
        // Installed but not enabled on Debian: nginx would not load them.
        assert!(!brotli_from(Some(&names(&["50-mod-stream.conf"])), &so));
        assert!(brotli_from(None, &so));
        assert!(!brotli_from(None, &so[..1]));
        assert!(!brotli_from(None, &[]));
    }

    #[test]
    fn default_servers_in_site_files() {
        assert_eq!(default_server_ports(SITE_DEBIAN_DEFAULT), [80]);
        assert!(default_server_ports(SITE_NGINX_ORG).is_empty());
        let many = "server { listen 127.0.0.1:8080 default_server; listen [::1]:8443 ssl default; }\n\
            server { listen 443 ssl default_server reuseport; listen unix:/run/x.sock default_server; }\n\
            server { listen 10.0.0.1 default_server; listen 9000; }";
        assert_eq!(default_server_ports(many), [8080, 8443, 443, 80]);
        assert!(written_by_nginx_gen(
            "# Site file, generated by nginx-gen 0.1.0 (tuning policy 2026.12).\nserver {}\n"
        ));
        assert!(written_by_nginx_gen(
            "# Site-Datei, erzeugt von nginx-gen 0.1.0 (Tuning-Richtlinie 2026.12).\n"
        ));
        assert!(!written_by_nginx_gen(SITE_DEBIAN_DEFAULT));
    }

    #[test]
    fn cpu_model_line() {
        assert_eq!(
            parse_cpu_model(CPUINFO).as_deref(),
            Some("AMD EPYC 7763 64-Core Processor")
        );
        assert_eq!(parse_cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n"), None);
    }

    /// This machine (Linux) answers every probe without panicking, with sane figures.
    #[test]
    fn probes_this_machine() {
        let (n, _) = vcpu().expect("a CPU count on Linux");
        assert!(n >= 1);
        let (size, _) = ram().expect("memory on Linux");
        assert!(size.as_mib() >= 64, "{size}");
        assert!(
            kernel_release().is_some_and(|r| r.chars().next().is_some_and(|c| c.is_ascii_digit()))
        );
        assert!(nginx_versions("/nonexistent/nginx").is_none());
    }

    #[test]
    fn ipv6_and_resolver() {
        let if_inet6 = "00000000000000000000000000000001 01 80 10 80       lo\n";
        assert!(parse_if_inet6(if_inet6));
        assert!(!parse_if_inet6(""));
        let resolv = "# Generated by NetworkManager\nsearch example.org\nnameserver 192.0.2.53\nnameserver 8.8.8.8\n";
        assert_eq!(parse_resolv_conf(resolv).as_deref(), Some("192.0.2.53"));
        assert_eq!(parse_resolv_conf("options edns0\n"), None);
    }

    #[test]
    fn a_containers_software_is_the_images_not_its_hosts() {
        let host = Host {
            nginx: Some(Version::new(1, 22, 1)),
            layout: Some((Layout::Debian, "sites-enabled".into())),
            brotli: Some((true, "modules-enabled".into())),
            ..Host::default()
        };
        let used = |json: &str, host: &Host| host.used(&RawInputs::from_json(json).unwrap());
        let here = used(r#"{"release":"debian-12"}"#, &host);
        assert!(here.vcpu && here.nginx && here.layout && here.brotli);
        // On a Docker host the image's nginx is not this host's; the machine's size is.
        for target in [r#"{"release":"docker-mainline"}"#, r#"{"layout":"docker"}"#] {
            let there = used(target, &host);
            assert!(there.vcpu && there.ram, "{target}");
            assert!(!(there.nginx || there.openssl || there.layout || there.brotli || there.php));
        }
        // What the plan then gets: the release's nginx and layout, the host's size.
        let given = RawInputs::from_json(r#"{"release":"docker-mainline","workload":"proxy","upstreams":["app:3000"],"upstream_resolve":true}"#).unwrap();
        let host = Host {
            vcpu: Some((2, "nproc".into())),
            ..host
        };
        let inputs = Inputs::from_raw(&given.clone().over(host.raw(host.used(&given)))).unwrap();
        assert_eq!(inputs.vcpu, 2);
        assert_eq!(inputs.layout, Layout::Docker);
        assert_eq!(inputs.nginx_version.to_string(), "1.31.0");
        // Inside the container, its own nginx is the target's.
        let inside = Host {
            container: true,
            ..host
        };
        assert!(used(r#"{"release":"docker-mainline"}"#, &inside).nginx);
    }

    #[test]
    fn other_services_by_name_and_resident_memory() {
        let status = "Name:\tmariadbd\nUmask:\t0022\nState:\tS (sleeping)\nVmRSS:\t  412340 kB\n";
        let (name, rss) = parse_service_status(status).unwrap();
        assert_eq!((name, rss.as_u64()), ("mariadbd", 412_340 * 1024));
        // Not listed, or a kernel thread without memory: none.
        assert_eq!(
            parse_service_status("Name:\tnginx\nVmRSS:\t 9000 kB\n"),
            None
        );
        assert_eq!(parse_service_status("Name:\tjava\nState:\tS\n"), None);
        // This machine's list parses (it may be empty).
        assert!(
            other_services()
                .iter()
                .all(|(n, _)| OTHER_SERVICES.contains(n))
        );
    }

    #[test]
    fn the_hosts_resolver_only_where_nginx_asks_and_not_in_a_container() {
        let needs = |json: &str| needs_host_resolver(&RawInputs::from_json(json).unwrap(), false);
        let names = r#""workload":"proxy","upstreams":["app:3000"],"upstream_resolve":true"#;
        assert!(needs(&format!("{{{names}}}")));
        assert!(needs(r#"{"tls":true,"ocsp_stapling":true}"#));
        assert!(!needs("{}"));
        // Given, or a container's (its engine's DNS, not this host's): by layout or release.
        assert!(!needs(&format!(r#"{{{names},"resolver":"192.0.2.53"}}"#)));
        assert!(!needs(&format!(r#"{{{names},"layout":"docker"}}"#)));
        assert!(!needs(&format!(
            r#"{{{names},"release":"docker-mainline"}}"#
        )));
        // Invalid inputs: the layout as given.
        assert!(!needs(r#"{"ocsp_stapling":true,"layout":"docker"}"#));
        // Inside the container its resolv.conf is the engine's (Podman's, the default
        // bridge's): read it.
        let inside = RawInputs::from_json(&format!(r#"{{{names},"layout":"docker"}}"#)).unwrap();
        assert!(needs_host_resolver(&inside, true));
    }
}
