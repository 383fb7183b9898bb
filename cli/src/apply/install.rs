//! The backup set and the atomic install.
//!
//! A backup set (`/var/lib/nginx-gen/backups/ID/`) holds, byte for byte and with their
//! modes, every file the run replaces or removes under `files/<install path>`, and
//! `set.json`: the files replaced, removed and created. It is written completely before
//! the first move. The install writes every new file under a temporary name in its
//! target's directory, then renames each over its target (removals are plain unlinks), so a
//! target is always either the old or the new file. [`restore`] puts a set back the same
//! way and deletes the files (and the then empty directories) the run created.

use std::fs;
use std::io::{self, Write as _};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// One file the run changes.
#[derive(Debug, Clone)]
pub struct Change {
    /// Install path (`/etc/nginx/nginx.conf`).
    pub path: String,
    /// The bytes installed now (`None`: absent).
    pub old: Option<Vec<u8>>,
    /// The bytes to install (`None`: remove).
    pub new: Option<Vec<u8>>,
    /// The mode to install them with; `None`: the target's own (a new file: the umask's).
    pub mode: Option<u32>,
}

/// `path` under `root`.
pub fn under(root: &Path, path: &str) -> PathBuf {
    root.join(path.trim_start_matches('/'))
}

/// The temporary name a file is written under before its rename.
fn temporary(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.nginx-gen-new"))
}

/// Writes `bytes` to `target` through a temporary file in its directory and a rename;
/// `mode` is the file's mode (a replaced file keeps its own).
fn put(target: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<()> {
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent)?;
    }
    let tmp = temporary(target);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if let Some(mode) = mode {
            fs::set_permissions(&tmp, fs::Permissions::from_mode(mode))?;
        }
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The mode of `path`, if it is there.
pub fn mode_of(path: &Path) -> Option<u32> {
    fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// Writes the backup set of `changes` into `dir` (which must not exist yet).
pub fn backup(root: &Path, dir: &Path, command: &str, changes: &[Change]) -> io::Result<()> {
    fs::create_dir_all(dir.parent().unwrap_or(dir))?;
    fs::create_dir(dir)?;
    let (mut replaced, mut removed, mut created) = (Vec::new(), Vec::new(), Vec::new());
    for c in changes {
        match (&c.old, &c.new) {
            (None, _) => created.push(c.path.clone()),
            (Some(old), new) => {
                let copy = under(&dir.join("files"), &c.path);
                let mode = mode_of(&under(root, &c.path));
                put(&copy, old, mode)?;
                if new.is_some() {
                    replaced.push(c.path.clone());
                } else {
                    removed.push(c.path.clone());
                }
            }
        }
    }
    // The directories the install will create, deepest first, so a rollback removes them.
    let mut created_dirs: Vec<String> = Vec::new();
    for path in &created {
        let mut dir = Path::new(path).parent();
        while let Some(d) = dir {
            if d == Path::new("/") || under(root, &d.to_string_lossy()).exists() {
                break;
            }
            let name = d.to_string_lossy().into_owned();
            if !created_dirs.contains(&name) {
                created_dirs.push(name);
            }
            dir = d.parent();
        }
    }
    created_dirs.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let set = json!({
        "command": command,
        "replaced": replaced,
        "removed": removed,
        "created": created,
        "created_dirs": created_dirs,
    });
    put(&dir.join("set.json"), format!("{set:#}\n").as_bytes(), None)
}

/// Installs every change: all new files are written under temporary names first, then
/// renamed (or the target removed) in order. `fail_after_first` is the test hook that
/// stops after the first move. On an error, the temporary files left are removed; the
/// number of moves done is returned with it.
pub fn install(
    root: &Path,
    changes: &[Change],
    fail_after_first: bool,
) -> Result<(), (usize, String)> {
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    let cleanup = |written: &[(PathBuf, PathBuf)]| {
        for (tmp, _) in written {
            let _ = fs::remove_file(tmp);
        }
    };
    for c in changes {
        let target = under(root, &c.path);
        let Some(new) = &c.new else { continue };
        let tmp = temporary(&target);
        let result = (|| {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent)?;
            }
            let mut f = fs::File::create(&tmp)?;
            f.write_all(new)?;
            f.sync_all()?;
            if let Some(mode) = c.mode.or_else(|| mode_of(&target)) {
                fs::set_permissions(&tmp, fs::Permissions::from_mode(mode))?;
            }
            Ok::<(), io::Error>(())
        })();
        written.push((tmp.clone(), target.clone()));
        if let Err(e) = result {
            cleanup(&written);
            return Err((0, format!("cannot write {}: {e}", tmp.display())));
        }
    }
    let mut moves = 0;
    for c in changes {
        let target = under(root, &c.path);
        let result = if c.new.is_some() {
            fs::rename(temporary(&target), &target)
        } else {
            match fs::remove_file(&target) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                other => other,
            }
        };
        if let Err(e) = result {
            cleanup(&written);
            return Err((moves, format!("cannot install {}: {e}", target.display())));
        }
        moves += 1;
        if fail_after_first && moves == 1 {
            cleanup(&written);
            return Err((
                moves,
                format!(
                    "failure injected after moving {} (NGINX_GEN_TEST_FAIL_STEP=install)",
                    c.path
                ),
            ));
        }
    }
    Ok(())
}

/// A backup set's `set.json`: what its run did. Paths that are not absolute or climb
/// (`..`) are left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Set {
    /// The command that reproduces the files the run installed.
    pub command: String,
    /// The files the run replaced (their previous bytes are in `files/`).
    pub replaced: Vec<String>,
    /// The files the run removed (in `files/` too).
    pub removed: Vec<String>,
    /// The files the run created.
    pub created: Vec<String>,
    /// The directories the run created, deepest first.
    pub created_dirs: Vec<String>,
}

impl Set {
    /// Reads `<dir>/set.json`; an error names the file and what is wrong.
    pub fn read(dir: &Path) -> Result<Self, String> {
        let path = dir.join("set.json");
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let set: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a backup set: {e}", path.display()))?;
        if !set.is_object() {
            return Err(format!("{} is not a backup set", path.display()));
        }
        let list = |key: &str| -> Vec<String> {
            set.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .filter(|p| p.starts_with('/') && !p.contains(".."))
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        Ok(Self {
            command: set
                .get("command")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            replaced: list("replaced"),
            removed: list("removed"),
            created: list("created"),
            created_dirs: list("created_dirs"),
        })
    }

    /// Where the set keeps its copy of `path` (one of `replaced` or `removed`).
    pub fn copy_of(dir: &Path, path: &str) -> PathBuf {
        under(&dir.join("files"), path)
    }
}

/// Puts the backup set in `dir` back under `root`: every replaced or removed file byte for
/// byte with its mode, every created file deleted. Goes on after an error and reports
/// every file it could not restore.
pub fn restore(root: &Path, dir: &Path) -> Result<Vec<String>, String> {
    let set = Set::read(dir)?;
    let mut done = Vec::new();
    let mut errors = Vec::new();
    for path in set.replaced.iter().chain(&set.removed) {
        let copy = Set::copy_of(dir, path);
        let result =
            fs::read(&copy).and_then(|bytes| put(&under(root, path), &bytes, mode_of(&copy)));
        match result {
            Ok(()) => done.push(format!("restored {path}")),
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    for path in &set.created {
        match fs::remove_file(under(root, path)) {
            Ok(()) => done.push(format!("removed {path}")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    for dir in &set.created_dirs {
        // Only when empty: something else may have been put there since.
        if fs::remove_dir(under(root, dir)).is_ok() {
            done.push(format!("removed {dir}/"));
        }
    }
    if errors.is_empty() {
        Ok(done)
    } else {
        Err(format!("could not restore: {}", errors.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    use super::{Change, backup, install, restore};

    #[test]
    fn a_failed_install_is_restored_byte_for_byte() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        fs::create_dir_all(r.join("etc")).unwrap();
        fs::write(r.join("etc/a"), b"old a\n").unwrap();
        fs::set_permissions(r.join("etc/a"), fs::Permissions::from_mode(0o640)).unwrap();
        fs::write(r.join("etc/gone"), b"gone\n").unwrap();
        let changes = vec![
            Change {
                path: "/etc/a".into(),
                old: Some(b"old a\n".to_vec()),
                new: Some(b"new a\n".to_vec()),
                mode: None,
            },
            Change {
                path: "/etc/b".into(),
                old: None,
                new: Some(b"b\n".to_vec()),
                mode: None,
            },
            Change {
                path: "/etc/gone".into(),
                old: Some(b"gone\n".to_vec()),
                new: None,
                mode: None,
            },
        ];
        let set = r.join("var/lib/nginx-gen/backups/1");
        backup(r, &set, "cmd", &changes).unwrap();
        install(r, &changes, false).unwrap();
        assert_eq!(fs::read(r.join("etc/a")).unwrap(), b"new a\n");
        let mode = fs::metadata(r.join("etc/a")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(!r.join("etc/gone").exists());
        restore(r, &set).unwrap();
        assert_eq!(fs::read(r.join("etc/a")).unwrap(), b"old a\n");
        assert_eq!(fs::read(r.join("etc/gone")).unwrap(), b"gone\n");
        assert!(!r.join("etc/b").exists());
        let mode = fs::metadata(r.join("etc/a")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(r.join("etc")).unwrap().collect();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn the_hook_stops_after_the_first_move() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let changes = vec![
            Change {
                path: "/x/1".into(),
                old: None,
                new: Some(b"1".to_vec()),
                mode: None,
            },
            Change {
                path: "/x/2".into(),
                old: None,
                new: Some(b"2".to_vec()),
                mode: None,
            },
        ];
        let (moves, _) = install(r, &changes, true).unwrap_err();
        assert_eq!(moves, 1);
        assert!(r.join("x/1").exists());
        assert_eq!(fs::read_dir(r.join("x")).unwrap().count(), 1);
    }
}
