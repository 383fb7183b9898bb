//! `nginx-gen rollback`: a backup set of `apply` restored with apply's own transaction.
//!
//! Steps: **lock**; **read** the set (`set.json` and `files/`) and what is installed; the
//! changes are the set's copies put back (byte for byte, with their modes) and the files
//! its run created removed — the manifest is one of them. Nothing to change: `nothing to
//! do`. Then [`super::Transaction`]: **stage** and **validate** the restored tree with the
//! real `nginx -t`, **backup** what the rollback replaces into a set of its own (so a
//! rollback can be rolled back: `nginx-gen rollback NEW`), **install**, the **service**
//! steps; any failure restores what was there before the rollback. Last, the directories
//! the set's run created are removed when empty.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::install::{Change, Set, mode_of, under};
use super::manifest::{self, Manifest};
use super::service::{Probes, Service};
use super::{Failed, Transaction, diffs, lock_unless, new_id, read_optional, writes_there};

/// What `rollback` was asked.
#[derive(Debug)]
pub struct Options<'a> {
    /// Where `/` is.
    pub root: &'a Path,
    /// The backup set; `None`: the newest.
    pub id: Option<&'a str>,
    /// Print the diff, change nothing.
    pub dry_run: bool,
}

/// Why a rollback did not happen.
#[derive(Debug)]
pub enum Error {
    /// Nothing to restore, or no such set: exit 2, nothing changed.
    Usage(String),
    /// A step failed: exit 1.
    Failed(Failed),
}

/// The sort key of a set id: `20261201T065622Z-2` → (`20261201T065622Z`, 2).
fn order_key(id: &str) -> (String, u32) {
    match id.rsplit_once('-') {
        Some((base, n)) if n.parse::<u32>().is_ok() => (base.to_owned(), n.parse().unwrap_or(1)),
        _ => (id.to_owned(), 1),
    }
}

/// The ids of the backup sets under `root`, newest first (directories with a `set.json`);
/// none when there is no backup directory.
fn set_ids(root: &Path) -> Result<Vec<String>, String> {
    let dir = under(root, manifest::BACKUPS);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().join("set.json").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    ids.sort_by_key(|id| std::cmp::Reverse(order_key(id)));
    Ok(ids)
}

/// The backup sets under `root`, newest first, one line each: id, counts, command.
pub fn list(root: &Path) -> Result<String, String> {
    let ids = set_ids(root)?;
    if ids.is_empty() {
        return Ok(format!(
            "nginx-gen: no backup set under {}\n",
            under(root, manifest::BACKUPS).display()
        ));
    }
    let current = read_optional(&under(root, manifest::PATH))
        .ok()
        .flatten()
        .and_then(|b| Manifest::from_json(&String::from_utf8_lossy(&b)).ok())
        .map(|m| m.backup);
    let mut out = String::new();
    for id in ids {
        let dir = under(root, manifest::BACKUPS).join(&id);
        match Set::read(&dir) {
            Ok(set) => {
                let mark = if current.as_deref() == Some(id.as_str()) {
                    "  (made by the installed run)"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "{id}  {} replaced, {} removed, {} created  {}{mark}",
                    set.replaced.len(),
                    set.removed.len(),
                    set.created.len(),
                    set.command
                );
            }
            Err(e) => {
                let _ = writeln!(out, "{id}  unreadable: {e}");
            }
        }
    }
    Ok(out)
}

/// The set `id` names (default: the newest), checked: its directory under `root`.
fn find(root: &Path, id: Option<&str>) -> Result<(String, PathBuf), String> {
    let backups = under(root, manifest::BACKUPS);
    let id = match id {
        Some(id) => {
            if id.is_empty() || id.contains(['/', '\0']) || id.starts_with('.') {
                return Err(format!(
                    "{id:?} is not a backup set id (a name under {}; rollback --list shows them)",
                    manifest::BACKUPS
                ));
            }
            id.to_owned()
        }
        None => set_ids(root)?.into_iter().next().ok_or_else(|| {
            format!(
                "no backup set under {}: nothing to roll back",
                backups.display()
            )
        })?,
    };
    let dir = backups.join(&id);
    if !dir.join("set.json").is_file() {
        return Err(format!(
            "no backup set {id} under {} (rollback --list shows them); nothing was changed",
            backups.display()
        ));
    }
    Ok((id, dir))
}

/// What putting the set in `dir` back changes under `root`.
fn changes_of(root: &Path, dir: &Path, set: &Set) -> Result<Vec<Change>, String> {
    let allowed = |path: &str| {
        if writes_there(path) || path == manifest::PATH {
            Ok(())
        } else {
            Err(format!(
                "{} names {path}, which nginx-gen never writes; nothing was changed",
                dir.join("set.json").display()
            ))
        }
    };
    let mut changes = Vec::new();
    for path in set.replaced.iter().chain(&set.removed) {
        allowed(path)?;
        let copy = Set::copy_of(dir, path);
        let bytes = fs::read(&copy).map_err(|e| format!("cannot read {}: {e}", copy.display()))?;
        let target = under(root, path);
        let old =
            read_optional(&target).map_err(|e| format!("cannot read {}: {e}", target.display()))?;
        let mode = mode_of(&copy);
        if old.as_deref() != Some(bytes.as_slice()) || mode_of(&target) != mode {
            changes.push(Change {
                path: path.clone(),
                old,
                new: Some(bytes),
                mode,
            });
        }
    }
    for path in &set.created {
        allowed(path)?;
        let target = under(root, path);
        if let Some(old) =
            read_optional(&target).map_err(|e| format!("cannot read {}: {e}", target.display()))?
        {
            changes.push(Change {
                path: path.clone(),
                old: Some(old),
                new: None,
                mode: None,
            });
        }
    }
    Ok(changes)
}

/// Where to probe after restoring the set `id` (default: the newest): the plan of the
/// command in the manifest the set restores; none when it restores no manifest.
pub fn probes(root: &Path, id: Option<&str>) -> Probes {
    let Ok((_, dir)) = find(root, id) else {
        return Probes::default();
    };
    let Some(command) = fs::read(Set::copy_of(&dir, manifest::PATH))
        .ok()
        .and_then(|b| Manifest::from_json(&String::from_utf8_lossy(&b)).ok())
        .map(|m| m.command)
    else {
        return Probes::default();
    };
    let Ok(cli) = <crate::args::Cli as clap::Parser>::try_parse_from(command.split_whitespace())
    else {
        return Probes::default();
    };
    crate::plan_under(&cli.generate, root)
        .map(|plan| super::service::probes(&plan))
        .unwrap_or_default()
}

/// The PHP-FPM whose pool the set `id` (default: the newest) restores or removes, if any.
pub fn php(root: &Path, id: Option<&str>) -> Option<super::php::Fpm> {
    let (_, dir) = find(root, id).ok()?;
    let set = Set::read(&dir).ok()?;
    set.replaced
        .iter()
        .chain(&set.removed)
        .chain(&set.created)
        .find_map(|p| super::php::Fpm::of_pool(p))
}

/// Restores the set `options` names; the service steps run through `service`.
pub fn rollback(options: &Options, service: &mut dyn Service) -> Result<String, Error> {
    let root = options.root;
    let mut report = String::new();
    let (id, dir) = find(root, options.id).map_err(Error::Usage)?;
    let failed = |step, message, report: &str| Error::Failed(Failed::at(step, message, report));

    // lock
    let _lock = lock_unless(options.dry_run, root).map_err(|e| failed("lock", e, &report))?;

    // read
    let set = Set::read(&dir).map_err(|e| failed("read", e, &report))?;
    let changes = changes_of(root, &dir, &set).map_err(|e| failed("read", e, &report))?;
    if changes.is_empty() {
        let _ = writeln!(
            report,
            "nginx-gen: nothing to do: every file is as backup set {id} holds it"
        );
        return Ok(report);
    }
    if options.dry_run {
        diffs(&changes, &mut report);
        let _ = writeln!(report, "nginx-gen: dry run: nothing was changed");
        return Ok(report);
    }

    // stage, validate, backup, install, service: apply's transaction.
    let new_id = new_id(&under(root, manifest::BACKUPS));
    let command = format!("nginx-gen rollback {id}");
    let transaction = Transaction {
        root,
        id: &new_id,
        command: &command,
        changes: &changes,
        validate: true,
        note: &|_, _| None,
    };
    let set_shown = transaction
        .run(service, &mut report)
        .map_err(Error::Failed)?;

    // The directories the set's run created, when nothing else is in them now.
    for created in &set.created_dirs {
        if fs::remove_dir(under(root, created)).is_ok() {
            let _ = writeln!(report, "removed {created}/");
        }
    }
    let _ = writeln!(
        report,
        "nginx-gen: rolled back to backup set {id}; what the rollback replaced is in {} (nginx-gen rollback {new_id} undoes it)",
        set_shown.display()
    );
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::order_key;
    use crate::apply::manifest::{self, Manifest};
    use crate::apply::service::CatchAll;

    #[test]
    fn the_probes_are_those_of_the_manifest_the_set_restores() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let set = r.join("var/lib/nginx-gen/backups/20261201T000000Z");
        fs::create_dir_all(set.join("files/var/lib/nginx-gen")).unwrap();
        fs::write(
            set.join("set.json"),
            r#"{"replaced":["/var/lib/nginx-gen/manifest.json"]}"#,
        )
        .unwrap();
        let m = Manifest {
            command:
                "nginx-gen --no-detect --vcpu 2 --ram 4G --server-name a.example --listen 8080"
                    .into(),
            backup: String::new(),
            files: Vec::new(),
        };
        fs::write(
            set.join("files/var/lib/nginx-gen/manifest.json"),
            m.to_json(),
        )
        .unwrap();
        let probes = super::probes(r, None);
        assert_eq!(
            probes.http,
            [("127.0.0.1:8080".parse().unwrap(), "a.example".to_owned())]
        );
        assert!(matches!(probes.catch_all, CatchAll::Probe { .. }));
        // A set that restores no manifest (the first apply's): nothing to probe.
        fs::remove_file(set.join("files/var/lib/nginx-gen/manifest.json")).unwrap();
        fs::write(
            set.join("set.json"),
            format!(r#"{{"created":["{}"]}}"#, manifest::PATH),
        )
        .unwrap();
        assert_eq!(super::probes(r, None), super::Probes::default());
        assert_eq!(super::probes(r, Some("nope")), super::Probes::default());
    }

    #[test]
    fn set_ids_sort_by_time_then_number() {
        let mut ids = vec![
            "20261201T065622Z-10",
            "20261201T065622Z",
            "20261201T065622Z-2",
            "20261202T000000Z",
        ];
        ids.sort_by_key(|id| std::cmp::Reverse(order_key(id)));
        assert_eq!(
            ids,
            [
                "20261202T000000Z",
                "20261201T065622Z-10",
                "20261201T065622Z-2",
                "20261201T065622Z"
            ]
        );
    }
}
