//! The order in which the kernel settings files apply, and the files that override ours.
//!
//! `systemd-sysctl` (at boot) and `sysctl --system` read the `*.conf` files of
//! [`DIRS`]; a file in an earlier directory masks one with the same name in a later one;
//! the files that remain apply sorted by name, whatever their directory, so a later file
//! wins for a key both set. `sysctl --system` then applies [`SYSCTL_CONF`] last. A host
//! that kept `/etc/sysctl.d/99-nginx-tuning.conf` (the guide's name) or Debian's
//! `99-sysctl.conf` (a link to `/etc/sysctl.conf`) therefore silently wins over
//! `99-nginx-gen.conf` for every key both set: [`overrides`] finds them.
//!
//! Not every other value is drift: many of our keys are floors (`net.core.somaxconn` must be
//! at least the listen backlog; a higher one serves as well). [`satisfied`] says, key by key
//! ([`RULES`]), whether a value meets ours; [`overrides`] and [`differences`] report only
//! the values that do not, so `apply`'s warnings and `check`'s findings agree.
//!
//! Every function takes the root the paths are under (`/` on the host, a temporary
//! directory in tests); paths in results are install paths (`/etc/sysctl.d/…`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The directories of sysctl.d files, in precedence order (`sysctl.d(5)`).
pub const DIRS: [&str; 5] = [
    "/etc/sysctl.d",
    "/run/sysctl.d",
    "/usr/local/lib/sysctl.d",
    "/usr/lib/sysctl.d",
    "/lib/sysctl.d",
];

/// The file `sysctl --system` applies after every sysctl.d file.
pub const SYSCTL_CONF: &str = "/etc/sysctl.conf";

/// How many symbolic links are followed when reading a file under the root.
const MAX_LINKS: usize = 8;

/// A key of our file whose value from the files applied after it (the last that sets it)
/// does not meet ours ([`satisfied`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    /// The key, in dotted form (`net.core.somaxconn`).
    pub key: String,
    /// The value our file sets.
    pub ours: String,
    /// The install path of the file that overrides it.
    pub file: String,
    /// The value that file sets (and that wins over ours).
    pub theirs: String,
}

/// A key whose running value does not meet the one our file sets ([`satisfied`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The key, in dotted form.
    pub key: String,
    /// The value our file sets.
    pub ours: String,
    /// The value the kernel has.
    pub actual: String,
}

/// The key in dotted form: `net/ipv4/tcp_rmem` → `net.ipv4.tcp_rmem`. As `sysctl.d(5)`
/// says, when the first separator is `/`, slashes and dots swap (a dot then belongs to a
/// name, as in `net/ipv4/conf/eth0.100/rp_filter`).
pub fn normalize_key(key: &str) -> String {
    match key.find(['.', '/']) {
        Some(i) if key.as_bytes()[i] == b'/' => key
            .chars()
            .map(|c| match c {
                '/' => '.',
                '.' => '/',
                c => c,
            })
            .collect(),
        _ => key.to_owned(),
    }
}

/// A value with its runs of blanks made one space (`/proc/sys` separates with tabs).
fn normalize_value(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a value found for a key meets the value our file sets ([`satisfied`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The same value (blanks made one space): modes and flags, where another value is
    /// another behaviour, not more of it. The rule of every key [`RULES`] does not list.
    Exact,
    /// A number at least ours: a floor, whose reason asks for "at least" (a limit raised to
    /// what nginx needs; a higher one serves as well, a lower one does not).
    AtLeast,
    /// A bitmask with every bit of ours set; other bits are the host's choice.
    Bits,
    /// A list of ports and ranges (`11211,20000-20010`, as the kernel prints it) that
    /// includes every port of ours.
    Ports,
    /// A port range `LOW HIGH` that starts no lower than ours and holds at least as many
    /// ports.
    Range,
}

/// The rule of each key our file can set (`core/src/rules/kernel.rs`, whose reasons say
/// which are floors), and of the floors it sizes nginx against; every other key is
/// [`Rule::Exact`].
pub const RULES: &[(&str, Rule)] = &[
    // "The kernel caps every listen queue at this value; it must be at least the backlog=
    // … never set below the kernel's own default": a larger cap caps nothing of ours.
    ("net.core.somaxconn", Rule::AtLeast),
    // "Half-open connections the kernel keeps …; raised to the listen backlog": more room
    // for half-open connections drops none of ours.
    ("net.ipv4.tcp_max_syn_backlog", Rule::AtLeast),
    // Set only where the detected value is below what the workers may open, and omitted
    // otherwise because "a fixed number would only lower it": a floor.
    ("fs.file-max", Rule::AtLeast),
    // The ceiling of every process's file limit; worker_rlimit_nofile stays under the
    // default (`core/src/tuning`). Not written by the plan; a higher one allows more.
    ("fs.nr_open", Rule::AtLeast),
    // "The largest socket buffer the kernel grants; raised to the rcvbuf=/sndbuf= of the
    // QUIC listen sockets": a larger maximum still grants ours.
    ("net.core.rmem_max", Rule::AtLeast),
    ("net.core.wmem_max", Rule::AtLeast),
    // Omitted by the plan ("raise it only when … drops grow"); a longer queue drops less.
    ("net.core.netdev_max_backlog", Rule::AtLeast),
    // 3 = 1 (client) | 2 (server): the plan needs the server bit for fastopen= on the
    // listen socket. Extra bits (0x4, 0x200, 0x400: data without a cookie, Fast Open on
    // every listener) loosen Fast Open host-wide: the administrator's call, not drift.
    ("net.ipv4.tcp_fastopen", Rule::Bits),
    // The reserved ports stay free for their services; more reserved ports keep ours too.
    ("net.ipv4.ip_local_reserved_ports", Rule::Ports),
    // "More ephemeral ports …, starting above the usual service ports": a range that
    // reaches below ours (the guides' `1024 65535`) hands out service ports (3000, 5432,
    // 8080 …), one with fewer ports is not "more". Ours ends at 65535, so in practice only
    // ours meets both.
    ("net.ipv4.ip_local_port_range", Rule::Range),
    // 0 off, 1 every connection, 2 loopback only (the default): modes, not amounts.
    ("net.ipv4.tcp_tw_reuse", Rule::Exact),
];

/// The rule of `key` (dotted form): its entry in [`RULES`], else [`Rule::Exact`].
pub fn rule(key: &str) -> Rule {
    RULES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(Rule::Exact, |(_, r)| *r)
}

/// A non-negative integer as `/proc/sys` prints it (decimal; `0x` hex as written by hand).
fn number(value: &str) -> Option<u64> {
    let value = value.trim();
    match value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => value.parse().ok(),
    }
}

/// `11211,15672,20000-20010` as inclusive ranges, sorted, overlapping and adjacent ones
/// merged; empty for an empty list (the kernel's default). `None` when an item is not a
/// port or `LOW-HIGH` with LOW ≤ HIGH.
fn port_ranges(value: &str) -> Option<Vec<(u16, u16)>> {
    let mut ranges = Vec::new();
    for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (low, high) = item.split_once('-').unwrap_or((item, item));
        let (low, high): (u16, u16) = (low.trim().parse().ok()?, high.trim().parse().ok()?);
        if low > high {
            return None;
        }
        ranges.push((low, high));
    }
    ranges.sort_unstable();
    let mut merged: Vec<(u16, u16)> = Vec::new();
    for (low, high) in ranges {
        match merged.last_mut() {
            Some(last) if u32::from(low) <= u32::from(last.1) + 1 => last.1 = last.1.max(high),
            _ => merged.push((low, high)),
        }
    }
    Some(merged)
}

/// `LOW HIGH` (blanks made one space) with LOW ≤ HIGH.
fn port_range(value: &str) -> Option<(u16, u16)> {
    let mut parts = value.split_whitespace();
    let low: u16 = parts.next()?.parse().ok()?;
    let high: u16 = parts.next()?.parse().ok()?;
    (parts.next().is_none() && low <= high).then_some((low, high))
}

/// Whether `found` (a running value, or another file's) meets `planned`, ours for `key`
/// (dotted form), by the key's [`rule`]. A value equal to ours (blanks made one space)
/// always does; otherwise a value its rule cannot read (`not-a-number`, a negative or
/// out-of-range number, an empty one) does not, and a `planned` its rule cannot read is
/// compared exactly.
///
/// - [`Rule::AtLeast`]: found ≥ planned, as unsigned numbers (`fs.file-max` may be
///   2⁶³ − 1);
/// - [`Rule::Bits`]: found has every bit of planned set (`7` meets `3`, `1` does not);
/// - [`Rule::Ports`]: every planned port is in the found list;
/// - [`Rule::Range`]: found starts at or above the planned start and holds at least as
///   many ports;
/// - [`Rule::Exact`]: only an equal value.
pub fn satisfied(key: &str, planned: &str, found: &str) -> bool {
    let (planned, found) = (normalize_value(planned), normalize_value(found));
    if planned == found {
        return true;
    }
    match rule(key) {
        Rule::Exact => false,
        Rule::AtLeast => match (number(&planned), number(&found)) {
            (Some(p), Some(f)) => f >= p,
            _ => false,
        },
        Rule::Bits => match (number(&planned), number(&found)) {
            (Some(p), Some(f)) => f & p == p,
            _ => false,
        },
        Rule::Ports => match (port_ranges(&planned), port_ranges(&found)) {
            (Some(p), Some(f)) => p
                .iter()
                .all(|(low, high)| f.iter().any(|(l, h)| l <= low && high <= h)),
            _ => false,
        },
        Rule::Range => match (port_range(&planned), port_range(&found)) {
            (Some((pl, ph)), Some((fl, fh))) => fl >= pl && fh - fl >= ph - pl,
            _ => false,
        },
    }
}

/// What meets `planned` for `key`, in words for a report: `at least 4096`, `with every bit
/// of 3 set`, `including 11211,27017`, `at least 55296 ports from 10240 up (10240 65535)`;
/// the value itself where only it does (or its rule cannot read it).
pub fn describe(key: &str, planned: &str) -> String {
    let planned = normalize_value(planned);
    match rule(key) {
        Rule::AtLeast if number(&planned).is_some() => format!("at least {planned}"),
        Rule::Bits if number(&planned).is_some() => format!("with every bit of {planned} set"),
        Rule::Ports if port_ranges(&planned).is_some() => format!("including {planned}"),
        Rule::Range => match port_range(&planned) {
            Some((low, high)) => format!(
                "at least {} ports from {low} up ({planned})",
                u32::from(high) - u32::from(low) + 1
            ),
            None => planned,
        },
        _ => planned,
    }
}

/// The `key = value` settings of a sysctl.d file, in order: comments (`#`, `;`) and blank
/// lines are skipped, a leading `-` (ignore failures) is dropped, keys are
/// [`normalize_key`]ed, values trimmed with their blanks made one space. Lines without
/// `=` are skipped (systemd warns about them and goes on).
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(['#', ';']))
        .filter_map(|l| {
            let (key, value) = l.split_once('=')?;
            let key = key.trim().trim_start_matches('-').trim();
            (!key.is_empty()).then(|| (normalize_key(key), normalize_value(value)))
        })
        .collect()
}

/// Reads `path` (an install path) under `root`, following symbolic links inside the root
/// (an absolute target is taken under the root too). `None` when it is not there; a link
/// to `/dev/null` (how a file is masked) reads as empty.
fn read_under(root: &Path, path: &Path) -> Option<String> {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        if path == Path::new("/dev/null") {
            return Some(String::new());
        }
        let at = root.join(path.strip_prefix("/").unwrap_or(&path));
        let meta = fs::symlink_metadata(&at).ok()?;
        if !meta.file_type().is_symlink() {
            return fs::read(&at)
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
        }
        let target = fs::read_link(&at).ok()?;
        path = if target.is_absolute() {
            target
        } else {
            path.parent().unwrap_or(Path::new("/")).join(target)
        };
        path = lexical(&path);
    }
    None
}

/// `path` with `.` and `..` resolved by name (never above `/`).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(p) => out.push(p),
            _ => {}
        }
    }
    out
}

/// The files that apply, in the order they apply (install paths): the `*.conf` files of
/// [`DIRS`] (a name in an earlier directory masks the same name in later ones) sorted by
/// name, then [`SYSCTL_CONF`] when it exists and no sysctl.d file linked to it came
/// before (`sysctl --system`'s last file).
pub fn files(root: &Path) -> io::Result<Vec<String>> {
    let mut by_name: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    for dir in DIRS {
        let entries = match fs::read_dir(root.join(dir.trim_start_matches('/'))) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let name = entry?.file_name().to_string_lossy().into_owned();
            // `*.conf`, exactly as systemd and procps match it (case-sensitive).
            if Path::new(&name).extension().is_some_and(|e| e == "conf") && !name.starts_with('.') {
                by_name
                    .entry(name.clone())
                    .or_insert_with(|| format!("{dir}/{name}"));
            }
        }
    }
    let mut out: Vec<String> = by_name.into_values().collect();
    let conf = root.join(SYSCTL_CONF.trim_start_matches('/'));
    if conf.exists() {
        let conf = conf.canonicalize()?;
        let linked = out.iter().any(|f| {
            root.join(f.trim_start_matches('/'))
                .canonicalize()
                .is_ok_and(|p| p == conf)
        });
        if !linked {
            out.push(SYSCTL_CONF.to_owned());
        }
    }
    Ok(out)
}

/// For each key `ours_text` sets, the last file applied after ours (`ours_path`, an install
/// path in one of [`DIRS`], installed or about to be) that sets it — the value the kernel
/// ends with, at boot and in `sysctl --system` — when that value does not meet ours
/// ([`satisfied`]: the guide's `net.core.somaxconn = 65535` meets our 4096 and is not an
/// override; `128` is). An earlier file of those that the last one overrides in turn is not
/// reported, whatever it sets. Keys are compared literally (a glob such as
/// `net.ipv4.conf.*.rp_filter` matches only itself); values with their blanks made one
/// space.
pub fn overrides(root: &Path, ours_path: &str, ours_text: &str) -> io::Result<Vec<Override>> {
    let ours = parse(ours_text);
    let name = Path::new(ours_path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut order = files(root)?;
    // Ours goes where its name sorts (it may not be installed yet); a file of the same
    // name in a later directory is masked by ours (which is in /etc/sysctl.d).
    let same = |f: &String| Path::new(f).file_name().is_some_and(|n| *n == *name);
    if let Some(i) = order.iter().position(same) {
        ours_path.clone_into(&mut order[i]);
    } else {
        let i = order
            .iter()
            .position(|f| {
                f != SYSCTL_CONF
                    && Path::new(f)
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().as_ref() > name.as_str())
            })
            .unwrap_or_else(|| {
                order
                    .iter()
                    .position(|f| f == SYSCTL_CONF)
                    .unwrap_or(order.len())
            });
        order.insert(i, ours_path.to_owned());
    }
    let start = order
        .iter()
        .position(|f| f == ours_path)
        .map_or(0, |i| i + 1);
    // Every setting of one of our keys after ours, in the order they apply; the last of
    // each key wins.
    let mut after: Vec<Override> = Vec::new();
    for file in &order[start..] {
        let Some(text) = read_under(root, Path::new(file)) else {
            continue;
        };
        for (key, theirs) in parse(&text) {
            if let Some((_, value)) = ours.iter().find(|(k, _)| *k == key) {
                after.retain(|o| o.key != key);
                after.push(Override {
                    key,
                    ours: value.clone(),
                    file: file.clone(),
                    theirs,
                });
            }
        }
    }
    after.retain(|o| !satisfied(&o.key, &o.ours, &o.theirs));
    Ok(after)
}

/// The keys of `ours` whose value under `proc_sys` (`/proc/sys` on the host) does not meet
/// ours ([`satisfied`]: a floor's higher value does); keys this kernel does not have are
/// left out (the sysctl step reports them).
pub fn differences(proc_sys: &Path, ours: &[(String, String)]) -> Vec<Difference> {
    ours.iter()
        .filter_map(|(key, value)| {
            let actual = fs::read_to_string(proc_sys.join(key.replace('.', "/"))).ok()?;
            let actual = normalize_value(&actual);
            (!satisfied(key, value, &actual)).then(|| Difference {
                key: key.clone(),
                ours: value.clone(),
                actual,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::{
        Difference, Override, RULES, Rule, describe, differences, files, normalize_key, overrides,
        parse, rule, satisfied,
    };

    const OURS: &str = "/etc/sysctl.d/99-nginx-gen.conf";

    fn write(root: &Path, path: &str, text: &str) {
        let at = root.join(path.trim_start_matches('/'));
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        fs::write(at, text).unwrap();
    }

    #[test]
    fn parse_skips_comments_and_normalizes_keys_and_values() {
        let text = "# c\n; c\n\nnet.core.somaxconn = 4096\n-net/ipv4/tcp_rmem=4096\t87380   6291456\nno equals\nnet/ipv4/conf/eth0.100/rp_filter = 1\n";
        assert_eq!(
            parse(text),
            [
                ("net.core.somaxconn".into(), "4096".into()),
                ("net.ipv4.tcp_rmem".into(), "4096 87380 6291456".into()),
                ("net.ipv4.conf.eth0/100.rp_filter".into(), "1".into()),
            ]
        );
        assert_eq!(normalize_key("fs.file-max"), "fs.file-max");
    }

    #[test]
    fn files_sort_by_name_and_an_earlier_directory_masks_a_later_one() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        write(r, "/usr/lib/sysctl.d/50-default.conf", "");
        write(r, "/usr/lib/sysctl.d/99-nginx-tuning.conf", "");
        write(r, "/run/sysctl.d/99-nginx-tuning.conf", "");
        write(r, "/etc/sysctl.d/10-a.conf", "");
        write(r, "/lib/sysctl.d/60-b.conf", "");
        write(r, "/etc/sysctl.d/README", "");
        write(r, "/etc/sysctl.conf", "");
        assert_eq!(
            files(r).unwrap(),
            [
                "/etc/sysctl.d/10-a.conf",
                "/usr/lib/sysctl.d/50-default.conf",
                "/lib/sysctl.d/60-b.conf",
                "/run/sysctl.d/99-nginx-tuning.conf",
                "/etc/sysctl.conf",
            ]
        );
    }

    #[test]
    fn a_later_file_whose_value_does_not_meet_ours_overrides_it() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let ours = "net.core.somaxconn = 4096\nfs.file-max = 100000\nnet.ipv4.tcp_rmem = 4096 87380 6291456\nnet.ipv4.tcp_tw_reuse = 1\n";
        // Sorts after ours: wins. The same value, or a floor's higher one, is no override;
        // another mode (tcp_tw_reuse 2: loopback only) is.
        write(
            r,
            "/etc/sysctl.d/99-nginx-tuning.conf",
            "net.core.somaxconn = 65535\nfs.file-max = 100000\nnet.ipv4.tcp_tw_reuse = 2\n",
        );
        // Sorts before ours: ours wins.
        write(r, "/etc/sysctl.d/10-early.conf", "net.core.somaxconn = 1\n");
        // Debian's link to /etc/sysctl.conf, which sysctl --system reads once more last.
        write(
            r,
            "/etc/sysctl.conf",
            "net.ipv4.tcp_rmem=4096\t1\t2\nfs.file-max = 99999\n",
        );
        std::os::unix::fs::symlink("../sysctl.conf", r.join("etc/sysctl.d/99-sysctl.conf"))
            .unwrap();
        // A later directory's file of our name is masked by ours.
        write(
            r,
            "/usr/lib/sysctl.d/99-nginx-gen.conf",
            "fs.file-max = 1\n",
        );
        let found = overrides(r, OURS, ours).unwrap();
        assert_eq!(
            found,
            [
                Override {
                    key: "net.ipv4.tcp_tw_reuse".into(),
                    ours: "1".into(),
                    file: "/etc/sysctl.d/99-nginx-tuning.conf".into(),
                    theirs: "2".into(),
                },
                Override {
                    key: "net.ipv4.tcp_rmem".into(),
                    ours: "4096 87380 6291456".into(),
                    file: "/etc/sysctl.d/99-sysctl.conf".into(),
                    theirs: "4096 1 2".into(),
                },
                // Below the floor, one less.
                Override {
                    key: "fs.file-max".into(),
                    ours: "100000".into(),
                    file: "/etc/sysctl.d/99-sysctl.conf".into(),
                    theirs: "99999".into(),
                },
            ]
        );
        // Renamed to sort before ours: nothing overrides.
        fs::rename(
            r.join("etc/sysctl.d/99-nginx-tuning.conf"),
            r.join("etc/sysctl.d/90-nginx-tuning.conf"),
        )
        .unwrap();
        fs::remove_file(r.join("etc/sysctl.d/99-sysctl.conf")).unwrap();
        // Without the link, /etc/sysctl.conf itself is read last.
        let found = overrides(r, OURS, ours).unwrap();
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|o| o.file == "/etc/sysctl.conf"));
        fs::remove_file(r.join("etc/sysctl.conf")).unwrap();
        assert_eq!(overrides(r, OURS, ours).unwrap(), []);
    }

    #[test]
    fn only_the_last_file_that_sets_a_key_counts() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let ours = "net.core.somaxconn = 4096\nnet.ipv4.tcp_tw_reuse = 1\n";
        // The guide's file (scripts/host-root.sh) lowers somaxconn and turns tcp_tw_reuse
        // off; a file after it sets both back: the kernel ends with values that meet ours.
        write(
            r,
            "/etc/sysctl.d/99-nginx-tuning.conf",
            "net.core.somaxconn = 128\nnet.ipv4.tcp_tw_reuse = 0\n",
        );
        write(
            r,
            "/etc/sysctl.d/99-zz-local.conf",
            "net.core.somaxconn = 65535\nnet.ipv4.tcp_tw_reuse = 1\n",
        );
        assert_eq!(overrides(r, OURS, ours).unwrap(), []);
        // The other way round, the last one is named, once.
        write(
            r,
            "/etc/sysctl.d/99-zz-local.conf",
            "net.core.somaxconn = 65535\nnet.core.somaxconn = 1024\n",
        );
        let found = overrides(r, OURS, ours).unwrap();
        assert_eq!(
            found,
            [
                Override {
                    key: "net.ipv4.tcp_tw_reuse".into(),
                    ours: "1".into(),
                    file: "/etc/sysctl.d/99-nginx-tuning.conf".into(),
                    theirs: "0".into(),
                },
                Override {
                    key: "net.core.somaxconn".into(),
                    ours: "4096".into(),
                    file: "/etc/sysctl.d/99-zz-local.conf".into(),
                    theirs: "1024".into(),
                },
            ]
        );
    }

    #[test]
    fn the_guides_higher_floors_are_no_overrides() {
        // The guide's file as scripts/host-root.sh installs it, against ours.
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        write(
            r,
            "/etc/sysctl.d/99-nginx-tuning.conf",
            "# The guide's own tuning file\nnet.core.somaxconn = 65535\nnet.ipv4.tcp_max_syn_backlog = 65535\nfs.file-max = 2097152\n",
        );
        let ours = "net.core.somaxconn = 4096\nnet.ipv4.tcp_max_syn_backlog = 1024\nfs.file-max = 1048576\nnet.ipv4.tcp_fastopen = 3\n";
        assert_eq!(overrides(r, OURS, ours).unwrap(), []);
    }

    #[test]
    fn an_empty_root_has_no_files_and_no_overrides() {
        let root = tempfile::tempdir().unwrap();
        assert!(files(root.path()).unwrap().is_empty());
        assert!(
            overrides(root.path(), OURS, "net.core.somaxconn = 1\n")
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn differences_compare_the_running_values() {
        let proc_sys = tempfile::tempdir().unwrap();
        let p = proc_sys.path();
        write(p, "/net/core/somaxconn", "4096\n");
        write(p, "/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
        let ours = parse(
            "net.core.somaxconn = 4096\nnet.ipv4.tcp_rmem = 4096 87380 6291456\nnet.absent = 1\n",
        );
        assert_eq!(
            differences(p, &ours),
            [Difference {
                key: "net.ipv4.tcp_rmem".into(),
                ours: "4096 87380 6291456".into(),
                actual: "4096 131072 6291456".into(),
            }]
        );
        // A floor: higher meets it, lower does not.
        write(p, "/net/core/somaxconn", "65535\n");
        assert_eq!(differences(p, &ours).len(), 1);
        write(p, "/net/core/somaxconn", "128\n");
        let found = differences(p, &ours);
        assert_eq!(
            (found[0].key.as_str(), found[0].actual.as_str()),
            ("net.core.somaxconn", "128")
        );
    }

    #[test]
    fn floors_are_met_by_their_value_and_above() {
        for key in [
            "net.core.somaxconn",
            "net.ipv4.tcp_max_syn_backlog",
            "fs.file-max",
            "fs.nr_open",
            "net.core.rmem_max",
            "net.core.wmem_max",
            "net.core.netdev_max_backlog",
        ] {
            assert_eq!(rule(key), Rule::AtLeast, "{key}");
            assert!(satisfied(key, "4096", "4096"), "{key}");
            assert!(satisfied(key, "4096", "4097"), "{key}");
            assert!(satisfied(key, "4096", " 65535\n"), "{key}");
            assert!(!satisfied(key, "4096", "4095"), "{key}");
            assert!(!satisfied(key, "4096", "0"), "{key}");
            assert!(!satisfied(key, "4096", "128"), "{key}");
        }
        // systemd's fs.file-max (LONG_MAX) meets any number of ours.
        assert!(satisfied("fs.file-max", "1048576", "9223372036854775807"));
        assert!(satisfied("fs.file-max", "1048576", "18446744073709551615"));
        // What is not a non-negative number does not meet a floor.
        for found in [
            "",
            "not-a-number",
            "-1",
            "4096 1",
            "18446744073709551616",
            "4e6",
        ] {
            assert!(!satisfied("net.core.somaxconn", "4096", found), "{found:?}");
        }
        // A planned value that is no number is compared exactly.
        assert!(satisfied("net.core.somaxconn", "x", "x"));
        assert!(!satisfied("net.core.somaxconn", "x", "4096"));
        assert_eq!(describe("net.core.somaxconn", "4096"), "at least 4096");
        assert_eq!(describe("net.core.somaxconn", "x"), "x");
    }

    #[test]
    fn fastopen_needs_every_planned_bit() {
        let key = "net.ipv4.tcp_fastopen";
        assert_eq!(rule(key), Rule::Bits);
        assert!(satisfied(key, "3", "3"));
        // Data without a cookie (0x200) or client data without one (0x4) on top: still ours.
        assert!(satisfied(key, "3", "515"));
        assert!(satisfied(key, "3", "7"));
        assert!(satisfied(key, "3", "0x3"));
        // The default (1, client only) and server only lack a bit; 0 and 4 have neither.
        for found in ["1", "2", "0", "4", "", "three", "-3"] {
            assert!(!satisfied(key, "3", found), "{found:?}");
        }
        assert_eq!(describe(key, "3"), "with every bit of 3 set");
    }

    #[test]
    fn reserved_ports_may_be_more() {
        let key = "net.ipv4.ip_local_reserved_ports";
        let ours = "11211,15672,20000,27017";
        assert_eq!(rule(key), Rule::Ports);
        assert!(satisfied(key, ours, ours));
        // As the kernel prints it, with ranges, in another order, with more ports.
        assert!(satisfied(key, ours, "8080,11211,15672,20000-20010,27017"));
        assert!(satisfied(key, ours, "27017,11211-11211,15672,19999,20000"));
        // Adjacent ranges cover what they cover together.
        assert!(satisfied(key, "20000-20010", "20000-20004,20005-20010"));
        assert!(!satisfied(key, "20000-20010", "20000-20004,20006-20010"));
        // A port missing; the default (empty); what is not a list of ports.
        for found in [
            "11211,15672,27017",
            "",
            "11211,15672,20000,27017,x",
            "11211,15672,20000-19999,27017",
            "11211,15672,20000,70000",
        ] {
            assert!(!satisfied(key, ours, found), "{found:?}");
        }
        assert_eq!(describe(key, ours), format!("including {ours}"));
    }

    #[test]
    fn the_port_range_starts_no_lower_and_holds_as_many() {
        let key = "net.ipv4.ip_local_port_range";
        assert_eq!(rule(key), Rule::Range);
        assert!(satisfied(key, "10240 65535", "10240\t65535"));
        // Wider, but reaching the service ports (the guides' 1024); Debian's default and
        // others with fewer ports; not a range.
        for found in [
            "1024 65535",
            "10239 65535",
            "32768 60999",
            "10241 65535",
            "10240 65534",
            "10240",
            "65535 10240",
            "10240 65535 1",
            "",
        ] {
            assert!(!satisfied(key, "10240 65535", found), "{found:?}");
        }
        // Below the top: another start above ours with as many ports meets it.
        assert!(satisfied(key, "20000 30000", "25000 35000"));
        assert!(satisfied(key, "20000 30000", "20000 40000"));
        assert!(!satisfied(key, "20000 30000", "25000 34999"));
        assert_eq!(
            describe(key, "10240 65535"),
            "at least 55296 ports from 10240 up (10240 65535)"
        );
    }

    #[test]
    fn modes_and_unknown_keys_are_exact() {
        assert_eq!(rule("net.ipv4.tcp_tw_reuse"), Rule::Exact);
        assert!(satisfied("net.ipv4.tcp_tw_reuse", "1", "1"));
        assert!(!satisfied("net.ipv4.tcp_tw_reuse", "1", "2"));
        assert!(!satisfied("net.ipv4.tcp_tw_reuse", "1", "0"));
        assert_eq!(rule("net.ipv4.tcp_rmem"), Rule::Exact);
        assert!(satisfied(
            "net.ipv4.tcp_rmem",
            "4096 87380 6291456",
            "4096\t87380  6291456\n"
        ));
        assert!(!satisfied(
            "net.ipv4.tcp_rmem",
            "4096 87380 6291456",
            "4096 87380 6291457"
        ));
        assert!(!satisfied("vm.swappiness", "10", "60"));
        assert_eq!(describe("net.ipv4.tcp_tw_reuse", "1"), "1");
    }

    #[test]
    fn every_sysctl_the_plan_can_write_has_a_rule() {
        use nginx_gen_core::plan::Scope;
        use nginx_gen_core::{Inputs, Plan};
        // The rules' own names: each kernel rule is named by its key.
        let keys: Vec<&str> = nginx_gen_core::rules::RULES
            .iter()
            .map(|r| r.name)
            .filter(|n| n.starts_with("net.") || n.starts_with("fs."))
            .collect();
        assert!(keys.len() >= 10, "{keys:?}");
        for key in &keys {
            assert!(RULES.iter().any(|(k, _)| k == key), "{key} has no rule");
        }
        // And what plans that take every branch write.
        for json in [
            "{}",
            r#"{"tls":true,"http3":true}"#,
            r#"{"workload":"proxy","upstreams":["10.0.0.2:8080","127.0.0.1:20000"]}"#,
            r#"{"vcpu":64,"ram":"2G","clients":1000000,"file_max":200000}"#,
        ] {
            let plan = Plan::new(&Inputs::from_json(json).unwrap());
            for s in plan.in_scope(Scope::Sysctl) {
                assert!(
                    RULES.iter().any(|(k, _)| *k == s.name),
                    "{} ({json}) has no rule",
                    s.name
                );
            }
        }
        // One entry per key.
        for (i, (key, _)) in RULES.iter().enumerate() {
            assert!(RULES[i + 1..].iter().all(|(k, _)| k != key), "{key} twice");
        }
    }
}
