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

/// A key of our file that a file applied after it sets to another value.
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

/// A key whose running value differs from the one our file sets.
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

/// For each key `ours_text` sets, every file applied after ours (`ours_path`, an install
/// path in one of [`DIRS`], installed or about to be) that sets it to another value — so
/// that value, not ours, is what the kernel gets from the last of them. Keys are compared
/// literally (a glob such as `net.ipv4.conf.*.rp_filter` matches only itself); values
/// with their blanks made one space.
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
    let mut out = Vec::new();
    for file in &order[start..] {
        let Some(text) = read_under(root, Path::new(file)) else {
            continue;
        };
        for (key, theirs) in parse(&text) {
            if let Some((_, value)) = ours.iter().find(|(k, _)| *k == key)
                && *value != theirs
            {
                out.push(Override {
                    key,
                    ours: value.clone(),
                    file: file.clone(),
                    theirs,
                });
            }
        }
    }
    Ok(out)
}

/// The keys of `ours` whose value under `proc_sys` (`/proc/sys` on the host) differs;
/// keys this kernel does not have are left out (the sysctl step reports them).
pub fn differences(proc_sys: &Path, ours: &[(String, String)]) -> Vec<Difference> {
    ours.iter()
        .filter_map(|(key, value)| {
            let actual = fs::read_to_string(proc_sys.join(key.replace('.', "/"))).ok()?;
            let actual = normalize_value(&actual);
            (actual != *value).then(|| Difference {
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

    use super::{Difference, Override, differences, files, normalize_key, overrides, parse};

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
    fn a_later_file_with_another_value_overrides_ours() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let ours = "net.core.somaxconn = 4096\nfs.file-max = 100000\nnet.ipv4.tcp_rmem = 4096 87380 6291456\n";
        // Sorts after ours: wins. The same value is no override.
        write(
            r,
            "/etc/sysctl.d/99-nginx-tuning.conf",
            "net.core.somaxconn = 65535\nfs.file-max = 100000\n",
        );
        // Sorts before ours: ours wins.
        write(r, "/etc/sysctl.d/10-early.conf", "net.core.somaxconn = 1\n");
        // Debian's link to /etc/sysctl.conf, which sysctl --system reads once more last.
        write(r, "/etc/sysctl.conf", "net.ipv4.tcp_rmem=4096\t1\t2\n");
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
                    key: "net.core.somaxconn".into(),
                    ours: "4096".into(),
                    file: "/etc/sysctl.d/99-nginx-tuning.conf".into(),
                    theirs: "65535".into(),
                },
                Override {
                    key: "net.ipv4.tcp_rmem".into(),
                    ours: "4096 87380 6291456".into(),
                    file: "/etc/sysctl.d/99-sysctl.conf".into(),
                    theirs: "4096 1 2".into(),
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
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].file, "/etc/sysctl.conf");
        fs::remove_file(r.join("etc/sysctl.conf")).unwrap();
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
    }
}
