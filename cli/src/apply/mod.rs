//! `nginx-gen apply`: the rendered files installed as one transaction.
//!
//! Steps, each named in a failure: **read** what is installed and the manifest of what
//! nginx-gen owns; **stage** the nginx configuration directory with the new files laid
//! over it; **validate** the staged tree with the real `nginx -t`; **backup** every file
//! replaced or removed; **install** (temporary names, then renames); the **service** steps
//! ([`service`]). Nothing is moved before the staged tree passes; any failure after the
//! first move restores the backup set and deletes the files the run created, then
//! daemon-reloads and restarts nginx when the run had restarted it, or reloads when it had
//! only reloaded ([`recover`]). A run whose files equal what is installed changes
//! nothing. The steps from **stage** on are [`Transaction`], which [`rollback`] runs too
//! with the changes that put a backup set back. Before that, `apply` warns about the sysctl.d files that override its own
//! ([`nginx_gen::sysctl_d`]). docs/lifecycle.md describes it for users.

mod diff;
pub mod install;
pub mod manifest;
pub mod php;
pub mod rollback;
pub mod service;
mod stage;

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use nginx_gen_core::File;
use nginx_gen_core::render::{NGINX_PATH, SYSTEMD_PATH};

use install::{Change, under};
use manifest::Manifest;
use service::{Outcome, Service, Step};

/// The environment variable of the test hook: the step named fails (after it ran; for
/// `install`, after the first move), so the rollback can be tested on real files.
pub const FAIL_STEP_VAR: &str = "NGINX_GEN_TEST_FAIL_STEP";

/// What `apply` was asked.
#[derive(Debug)]
pub struct Options<'a> {
    /// Where `/` is.
    pub root: &'a Path,
    /// Print the diff, change nothing.
    pub dry_run: bool,
    /// The command that reproduces the files.
    pub command: &'a str,
}

/// A failed run: the step, what happened, and what was done about it.
#[derive(Debug)]
pub struct Failed {
    /// The step that failed.
    pub step: &'static str,
    /// What happened, and whether and how the files were restored.
    pub message: String,
    /// What was printed before the failure.
    pub report: String,
}

impl Failed {
    /// A failure at `step`, with what was printed before it.
    fn at(step: &'static str, message: String, report: &str) -> Self {
        Self {
            step,
            message,
            report: report.to_owned(),
        }
    }
}

fn fail_hook(step: &str) -> bool {
    std::env::var(FAIL_STEP_VAR).is_ok_and(|s| s == step)
}

/// A fresh backup-set id: the UTC time, `YYYYMMDDTHHMMSSZ`, with `-N` when taken.
fn new_id(backups: &Path) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days.cast_signed() + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let base = format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    );
    let mut id = base.clone();
    let mut n = 1;
    while backups.join(&id).exists() {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Applies `files` under `opts.root`; returns what it did, to print.
pub fn apply(files: &[File], opts: &Options, service: &mut dyn Service) -> Result<String, Failed> {
    let root = opts.root;
    let mut report = String::new();
    let failed = Failed::at;

    // lock: one apply at a time per tree (an advisory lock on the configuration directory,
    // released when the process ends, so a crash leaves none behind).
    let _lock = lock_unless(opts.dry_run, root).map_err(|e| failed("lock", e, &report))?;

    // read
    let manifest_path = under(root, manifest::PATH);
    let previous = match read_optional(&manifest_path) {
        Ok(None) => None,
        Ok(Some(bytes)) => Some(
            Manifest::from_json(&String::from_utf8_lossy(&bytes)).map_err(|e| {
                failed(
                    "read",
                    format!(
                        "{} is not nginx-gen's manifest: {e}",
                        manifest_path.display()
                    ),
                    &report,
                )
            })?,
        ),
        Err(e) => {
            return Err(failed(
                "read",
                format!("cannot read {}: {e}", manifest_path.display()),
                &report,
            ));
        }
    };
    let mut changes = Vec::new();
    for file in files {
        let target = under(root, &file.path);
        let old = read_optional(&target).map_err(|e| {
            failed(
                "read",
                format!("cannot read {}: {e}", target.display()),
                &report,
            )
        })?;
        if old.as_deref() != Some(file.contents.as_bytes()) {
            changes.push(Change {
                path: file.path.clone(),
                old,
                new: Some(file.contents.clone().into_bytes()),
                mode: None,
            });
        }
    }
    // The files the last run owned that these inputs no longer produce — only where
    // nginx-gen writes files, whatever a manifest says.
    let mut kept_pool = None;
    for (path, _) in previous.iter().flat_map(|m| &m.files) {
        if files.iter().any(|f| &f.path == path) {
            continue;
        }
        // The pool replaced the package's own, which PHP-FPM needs: kept, not removed.
        if php::is_pool(path) {
            kept_pool = Some(path.clone());
            continue;
        }
        if !writes_there(path) {
            return Err(failed(
                "read",
                format!(
                    "{} names {path}, which nginx-gen never writes; nothing was changed",
                    manifest::PATH
                ),
                &report,
            ));
        }
        let target = under(root, path);
        match read_optional(&target) {
            Ok(Some(old)) => changes.push(Change {
                path: path.clone(),
                old: Some(old),
                new: None,
                mode: None,
            }),
            Ok(None) => {}
            Err(e) => {
                return Err(failed(
                    "read",
                    format!("cannot read {}: {e}", target.display()),
                    &report,
                ));
            }
        }
    }
    sysctl_overrides(root, files, &mut report);
    if let Some(pool) = &kept_pool {
        let _ = writeln!(
            report,
            "note: {pool} is left as it is: it replaced the package's www pool, which PHP-FPM needs (nginx-gen rollback to the set of the php run's first apply restores the package's)"
        );
    }
    let owned: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.path.clone(), manifest::sha256_hex(f.contents.as_bytes())))
        .collect();
    let manifest_current = previous.as_ref().is_some_and(|m| m.files == owned);
    if changes.is_empty() && manifest_current {
        report.push_str(
            "nginx-gen: nothing to do: every file is installed as these inputs give it\n",
        );
        return Ok(report);
    }

    if opts.dry_run {
        diffs(&changes, &mut report);
        for c in changes.iter().filter(|c| php::is_pool(&c.path)) {
            if let Some(why) = php::Fpm::of_pool(&c.path).and_then(|f| php::missing(root, &f)) {
                let _ = writeln!(report, "warning: apply would fail at step validate: {why}");
            }
        }
        if changes.is_empty() {
            let _ = writeln!(
                report,
                "nginx-gen: every file is installed as these inputs give it; apply would only record them in {}",
                manifest::PATH
            );
        }
        let _ = writeln!(report, "nginx-gen: dry run: nothing was changed");
        return Ok(report);
    }

    // The manifest is one more file of the transaction, backed up and restored with them.
    let backups = under(root, manifest::BACKUPS);
    let id = new_id(&backups);
    let new_manifest = Manifest {
        command: opts.command.to_owned(),
        backup: id.clone(),
        files: owned,
    };
    changes.push(Change {
        path: manifest::PATH.to_owned(),
        old: read_optional(&manifest_path).ok().flatten(),
        new: Some(new_manifest.to_json().into_bytes()),
        mode: None,
    });
    // An owned file edited by hand since: the edit is only in the backup set now.
    let edited = |c: &Change, set_shown: &Path| {
        let recorded = previous
            .iter()
            .flat_map(|m| &m.files)
            .find(|(p, _)| *p == c.path)
            .map(|(_, sha)| sha.as_str())?;
        let old = c.old.as_deref()?;
        (manifest::sha256_hex(old) != recorded).then(|| {
            format!(
                "  note: {} was edited since nginx-gen installed it; that version is in {}\n",
                c.path,
                set_shown
                    .join("files")
                    .join(c.path.trim_start_matches('/'))
                    .display()
            )
        })
    };
    let transaction = Transaction {
        root,
        id: &id,
        command: opts.command,
        changes: &changes,
        validate: touches_nginx(&changes) || previous.is_none(),
        note: &edited,
    };
    let set_shown = transaction.run(service, &mut report)?;
    let _ = writeln!(
        report,
        "nginx-gen: applied; the previous files are in {}",
        set_shown.display()
    );
    Ok(report)
}

/// Warns about each file applied after our sysctl.d file that sets one of its keys to
/// another value (it wins, at boot and in `sysctl --system`); never a failure.
fn sysctl_overrides(root: &Path, files: &[File], report: &mut String) {
    use nginx_gen_core::render::SYSCTL_PATH;
    let Some(ours) = files.iter().find(|f| f.path == SYSCTL_PATH) else {
        return;
    };
    let name = Path::new(SYSCTL_PATH)
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    match nginx_gen::sysctl_d::overrides(root, SYSCTL_PATH, &ours.contents) {
        Ok(found) => {
            for o in found {
                let _ = writeln!(
                    report,
                    "warning: {} sets {} = {} and is applied after {SYSCTL_PATH} (which sets {}), so its value wins at boot and in sysctl --system; remove that file, rename it to sort before {name}, or delete the key from it",
                    o.file, o.key, o.theirs, o.ours
                );
            }
        }
        Err(e) => {
            let _ = writeln!(
                report,
                "warning: cannot list the sysctl.d files to find those that override {SYSCTL_PATH}: {e}"
            );
        }
    }
}

/// `--dry-run`: the unified diff of every change.
fn diffs(changes: &[Change], report: &mut String) {
    for c in changes {
        let old = c.old.as_deref().map(String::from_utf8_lossy);
        let new = c.new.as_deref().map(String::from_utf8_lossy);
        report.push_str(&diff::unified(&c.path, old.as_deref(), new.as_deref()));
    }
}

/// Whether a change falls under nginx's configuration directory.
fn touches_nginx(changes: &[Change]) -> bool {
    let prefix = format!("{}/", conf_dir());
    changes.iter().any(|c| c.path.starts_with(&prefix))
}

/// nginx's configuration directory as an install path (`/etc/nginx`).
fn conf_dir() -> String {
    Path::new(NGINX_PATH)
        .parent()
        .map_or_else(|| "/etc/nginx".to_owned(), |p| p.display().to_string())
}

/// The steps `apply` and `rollback` share once they know their changes: stage and
/// validate, back up, install, the service steps; any failure after the first move
/// restores the backup set and brings systemd and nginx back to it ([`recover`]).
pub(crate) struct Transaction<'a> {
    /// Where `/` is.
    pub root: &'a Path,
    /// The backup set's id.
    pub id: &'a str,
    /// The command that reproduces the new files (the set's `command`).
    pub command: &'a str,
    /// Every change, the manifest's included.
    pub changes: &'a [Change],
    /// Check the staged tree with `nginx -t` (a missing nginx is then a failure).
    pub validate: bool,
    /// A note printed after a change's line (given the set's install path).
    pub note: &'a dyn Fn(&Change, &Path) -> Option<String>,
}

impl std::fmt::Debug for Transaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transaction")
            .field("root", &self.root)
            .field("id", &self.id)
            .field("changes", &self.changes.len())
            .finish_non_exhaustive()
    }
}

impl Transaction<'_> {
    /// Runs the transaction, appending what it did to `report`; returns the backup set's
    /// install path.
    pub fn run(&self, service: &mut dyn Service, report: &mut String) -> Result<PathBuf, Failed> {
        let root = self.root;
        let failed = Failed::at;
        let changes = self.changes;

        // stage + validate
        if self.validate {
            let Some(nginx) = stage::nginx_program() else {
                return Err(failed(
                    "validate",
                    "nginx is not installed (not on PATH nor /usr/sbin/nginx): the tree is checked with nginx -t before it is installed".into(),
                    report,
                ));
            };
            let new_files: Vec<(&str, &[u8])> = changes
                .iter()
                .filter_map(|c| Some((c.path.as_str(), c.new.as_deref()?)))
                .collect();
            let removed: Vec<&str> = changes
                .iter()
                .filter(|c| c.new.is_none())
                .map(|c| c.path.as_str())
                .collect();
            let staged = stage::stage(root, &conf_dir(), &new_files, &removed, self.id)
                .map_err(|e| failed("stage", format!("cannot stage the tree: {e}"), report))?;
            staged
                .validate(&nginx)
                .map_err(|e| failed("validate", format!("{e}\nnothing was changed"), report))?;
            if fail_hook("validate") {
                return Err(failed(
                    "validate",
                    format!("failure injected ({FAIL_STEP_VAR}=validate); nothing was changed"),
                    report,
                ));
            }
            let _ = writeln!(
                report,
                "validated the staged tree with {} -t",
                nginx.display()
            );
        }

        // validate the PHP-FPM pool with PHP-FPM's own test, staged as nginx's tree is.
        for c in changes.iter().filter(|c| php::is_pool(&c.path)) {
            let Some(fpm) = php::Fpm::of_pool(&c.path) else {
                continue;
            };
            let done = php::validate(root, &fpm, c.new.as_deref(), self.id)
                .map_err(|e| failed("validate", format!("{e}\nnothing was changed"), report))?;
            if fail_hook("php-fpm-validate") {
                return Err(failed(
                    "validate",
                    format!(
                        "failure injected ({FAIL_STEP_VAR}=php-fpm-validate); nothing was changed"
                    ),
                    report,
                ));
            }
            let _ = writeln!(report, "validated the staged pool {} with {done}", c.path);
        }

        // backup
        let set = under(root, manifest::BACKUPS).join(self.id);
        install::backup(root, &set, self.command, changes).map_err(|e| {
            let _ = fs::remove_dir_all(&set);
            failed(
                "backup",
                format!(
                    "cannot write the backup set {}: {e}; nothing was changed",
                    set.display()
                ),
                report,
            )
        })?;
        let set_shown = Path::new(manifest::BACKUPS).join(self.id);
        let _ = writeln!(report, "backup set {}", set_shown.display());

        // install
        let unit_moves = changes.iter().any(|c| c.path == SYSTEMD_PATH);
        if let Err((moves, e)) = install::install(root, changes, fail_hook("install")) {
            let message = if moves == 0 {
                format!("{e}; nothing was changed")
            } else {
                let mut message = rolled_back(root, &set, &e);
                message.push_str(&recover(service, &[], unit_moves));
                message
            };
            return Err(failed("install", message, report));
        }
        for c in changes {
            let verb = match (&c.old, &c.new) {
                (None, _) => "created",
                (Some(_), Some(_)) => "replaced",
                (Some(_), None) => "removed",
            };
            let _ = writeln!(report, "{verb} {}", c.path);
            if let Some(note) = (self.note)(c, &set_shown) {
                report.push_str(&note);
            }
        }

        // service: the steps what the files set calls for (their comments aside).
        let files: Vec<service::Changed> = changes
            .iter()
            .map(|c| service::Changed {
                path: &c.path,
                old: c.old.as_deref(),
                new: c.new.as_deref(),
            })
            .collect();
        let decision = service::decide(&files);
        for note in &decision.notes {
            let _ = writeln!(report, "{note}");
        }
        let mut attempted = Vec::new();
        for step in decision.steps {
            let result = if fail_hook(step.name()) {
                Err(format!(
                    "failure injected ({FAIL_STEP_VAR}={})",
                    step.name()
                ))
            } else {
                service.run(step)
            };
            attempted.push(step);
            match result {
                Ok(Outcome::Done(what)) => {
                    let _ = writeln!(report, "{}: {what}", step.name());
                }
                Ok(Outcome::Skipped(why)) => {
                    let _ = writeln!(report, "{}: skipped: {why}", step.name());
                }
                Err(e) => {
                    let mut message = rolled_back(root, &set, &e);
                    message.push_str(&recover(service, &attempted, unit_moves));
                    return Err(failed(step.name(), message, report));
                }
            }
        }
        Ok(set_shown)
    }
}

/// Whether nginx-gen writes files at `path` (the nginx configuration directory, its
/// sysctl.d file and systemd drop-in): a manifest never makes it remove anything else.
fn writes_there(path: &str) -> bool {
    use nginx_gen_core::render::SYSCTL_PATH;
    (path.starts_with("/etc/nginx/")
        || path == SYSCTL_PATH
        || path == SYSTEMD_PATH
        || php::is_pool(path))
        && !path.contains("/../")
}

/// [`lock`], except for a dry run (which only reads).
fn lock_unless(dry_run: bool, root: &Path) -> Result<Option<fs::File>, String> {
    if dry_run {
        Ok(None)
    } else {
        lock(root).map(Some)
    }
}

/// Locks `<root>/etc/nginx` (or `root` when there is none) for this process.
fn lock(root: &Path) -> Result<fs::File, String> {
    let conf = under(root, "/etc/nginx");
    let dir = if conf.is_dir() { conf } else { root.to_owned() };
    let file = fs::File::open(&dir).map_err(|e| format!("cannot open {}: {e}", dir.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(format!(
            "another nginx-gen apply or rollback holds the lock on {}; nothing was changed",
            dir.display()
        )),
        Err(fs::TryLockError::Error(e)) => Err(format!(
            "cannot lock {}: {e}; nothing was changed",
            dir.display()
        )),
    }
}

/// Restores the backup set after `error`; the message says both.
fn rolled_back(root: &Path, set: &Path, error: &str) -> String {
    match install::restore(root, set) {
        Ok(_) => format!(
            "{error}; rolled back: every file restored byte for byte from {}",
            set.display()
        ),
        Err(e) => format!(
            "{error}; ROLLBACK INCOMPLETE: {e}; restore by hand from {} (docs/lifecycle.md)",
            set.display()
        ),
    }
}

/// After a failed run's files were restored: brings systemd and nginx back to them, and
/// says what it did (appended to the failure's message). `attempted` are the service
/// steps the run ran, the failing one included; `unit_moved`: the drop-in was among the
/// files moved and put back.
///
/// - The run restarted nginx (or tried to): `daemon-reload` and a **restart**, so the
///   master is a process of the restored unit (its limits) and files — a reload would
///   keep the new master, and an inactive unit refuses it.
/// - It only reloaded: a reload.
/// - `daemon-reload` whenever the drop-in was moved or the run ran it, so systemd has the
///   file on disk loaded (a daemon-reload alone changes no running process: no restart).
/// - After a restart or reload, nginx not active: `systemctl start nginx`.
/// - The run reloaded PHP-FPM (or tried to): PHP-FPM reloaded with the restored pool
///   (started when it is not running) and probed.
fn recover(service: &mut dyn Service, attempted: &[Step], unit_moved: bool) -> String {
    let ran = |step| attempted.contains(&step);
    let restart = ran(Step::Restart);
    let reload = !restart && ran(Step::Reload);
    let mut message = String::new();
    if unit_moved || restart || ran(Step::DaemonReload) {
        match service.run(Step::DaemonReload) {
            Ok(Outcome::Done(_)) => {
                message.push_str("; systemd reloaded the restored unit (systemctl daemon-reload)");
            }
            Ok(Outcome::Skipped(why)) => {
                let _ = write!(message, "; daemon-reload skipped: {why}");
            }
            Err(e) => {
                let _ = write!(message, "; systemctl daemon-reload failed too: {e}");
            }
        }
    }
    let mut reload_failed = None;
    if restart {
        match service.run(Step::Restart) {
            Ok(Outcome::Done(_)) => message.push_str(
                "; nginx was restarted with the previous files (a restart, not a reload: the failed run had restarted it, and only a new process has the restored unit's limits)",
            ),
            Ok(Outcome::Skipped(why)) => {
                let _ = write!(message, "; restart skipped: {why}");
            }
            Err(e) => {
                let _ = write!(
                    message,
                    "; restarting nginx with the previous files failed too: {e}"
                );
            }
        }
    } else if reload {
        match service.run(Step::Reload) {
            Ok(Outcome::Done(_)) => message.push_str(
                "; the previous files were reloaded (a reload: the failed run had only reloaded)",
            ),
            Ok(Outcome::Skipped(why)) => {
                let _ = write!(message, "; reload skipped: {why}");
            }
            Err(e) => reload_failed = Some(e),
        }
    }
    if restart || reload {
        if let Err(_inactive) = service.run(Step::ProbeActive) {
            if let Some(e) = &reload_failed {
                let _ = write!(message, "; reloading the previous files failed ({e})");
            }
            match service.run(Step::Start) {
                Ok(Outcome::Done(_)) => {
                    message.push_str("; nginx was not active: started it with the previous files");
                }
                Ok(Outcome::Skipped(why)) => {
                    let _ = write!(message, "; nginx is not active; start skipped: {why}");
                }
                Err(e) => {
                    let _ = write!(
                        message,
                        "; nginx is not active and starting it failed too: {e}; start it by hand (systemctl start nginx) once the cause is fixed"
                    );
                }
            }
        } else if let Some(e) = reload_failed {
            let _ = write!(message, "; reloading the previous files failed too: {e}");
        }
    }
    if ran(Step::PhpReload) {
        let reloaded = service.run(Step::PhpReload).and_then(|outcome| {
            service.run(Step::PhpProbe)?;
            Ok(outcome)
        });
        match reloaded {
            Ok(Outcome::Done(_)) => {
                message.push_str("; PHP-FPM was reloaded with the previous pool, and is active");
            }
            Ok(Outcome::Skipped(why)) => {
                let _ = write!(message, "; PHP-FPM's reload skipped: {why}");
            }
            Err(e) => {
                let _ = write!(
                    message,
                    "; reloading PHP-FPM with the previous pool failed too: {e}"
                );
            }
        }
    }
    message
}

#[cfg(test)]
mod tests {
    use super::recover;
    use super::service::{Outcome, Service, Step};

    /// Records every step; `inactive`: `is-active` fails (nginx stopped) until a restart or
    /// start; `refuse`: the steps that fail.
    #[derive(Default)]
    struct Fake {
        ran: Vec<Step>,
        inactive: bool,
        refuse: Vec<Step>,
    }

    impl Service for Fake {
        fn run(&mut self, step: Step) -> Result<Outcome, String> {
            self.ran.push(step);
            if self.refuse.contains(&step) {
                return Err(format!("{} refused", step.name()));
            }
            match step {
                Step::Reload if self.inactive => return Err("nginx is not active".into()),
                Step::Restart | Step::Start => self.inactive = false,
                Step::ProbeActive if self.inactive => return Err("inactive".into()),
                _ => {}
            }
            Ok(Outcome::Done(step.name().into()))
        }
    }

    #[test]
    fn a_restore_after_a_restart_reloads_the_unit_and_restarts() {
        // H1: the restart failed, nginx is down.
        let mut fake = Fake {
            inactive: true,
            refuse: Vec::new(),
            ..Fake::default()
        };
        let attempted = [Step::Sysctl, Step::DaemonReload, Step::Restart];
        let message = recover(&mut fake, &attempted, true);
        assert_eq!(
            fake.ran,
            [Step::DaemonReload, Step::Restart, Step::ProbeActive]
        );
        assert!(message.contains("daemon-reload"), "{message}");
        assert!(message.contains("nginx was restarted"), "{message}");
        assert!(!message.contains("failed too"), "{message}");
        // H2: a probe failed after the restart, nginx runs with the new limits.
        let mut fake = Fake::default();
        let attempted = [
            Step::DaemonReload,
            Step::Restart,
            Step::ProbeActive,
            Step::ProbeHttp,
        ];
        let message = recover(&mut fake, &attempted, true);
        assert_eq!(
            fake.ran,
            [Step::DaemonReload, Step::Restart, Step::ProbeActive]
        );
        assert!(message.contains("a restart, not a reload"), "{message}");
    }

    #[test]
    fn a_restore_after_a_reload_reloads_and_starts_an_inactive_nginx() {
        let mut fake = Fake::default();
        let message = recover(&mut fake, &[Step::Reload, Step::ProbeActive], false);
        assert_eq!(fake.ran, [Step::Reload, Step::ProbeActive]);
        assert!(message.contains("were reloaded"), "{message}");
        // Reloaded after only a daemon-reload for the drop-in's comments: no restart.
        let mut fake = Fake::default();
        recover(&mut fake, &[Step::DaemonReload, Step::Reload], true);
        assert_eq!(
            fake.ran,
            [Step::DaemonReload, Step::Reload, Step::ProbeActive]
        );
        // nginx went down: the reload is refused, nginx is started.
        let mut fake = Fake {
            inactive: true,
            ..Fake::default()
        };
        let message = recover(&mut fake, &[Step::Reload], false);
        assert_eq!(fake.ran, [Step::Reload, Step::ProbeActive, Step::Start]);
        assert!(
            message.contains("not active: started it with the previous files"),
            "{message}"
        );
        assert!(!message.contains("failed too"), "{message}");
        // And when it cannot be started, the message says so.
        let mut fake = Fake {
            inactive: true,
            refuse: vec![Step::Start],
            ..Fake::default()
        };
        let message = recover(&mut fake, &[Step::Reload], false);
        assert!(message.contains("starting it failed too"), "{message}");
    }

    #[test]
    fn a_restore_after_php_fpm_reloaded_reloads_both_with_the_previous_files() {
        // PHP-FPM's probe failed after nginx's reload and probes passed.
        let mut fake = Fake::default();
        let attempted = [
            Step::Reload,
            Step::ProbeActive,
            Step::ProbeHttp,
            Step::ProbeHttps,
            Step::ProbeCatchAll,
            Step::PhpReload,
            Step::PhpProbe,
        ];
        let message = recover(&mut fake, &attempted, false);
        assert_eq!(
            fake.ran,
            [
                Step::Reload,
                Step::ProbeActive,
                Step::PhpReload,
                Step::PhpProbe
            ]
        );
        assert!(
            message.contains("PHP-FPM was reloaded with the previous pool"),
            "{message}"
        );
        // nginx's probe failed: PHP-FPM was never reloaded, and is left alone.
        let mut fake = Fake::default();
        recover(
            &mut fake,
            &[Step::Reload, Step::ProbeActive, Step::ProbeHttp],
            false,
        );
        assert!(!fake.ran.contains(&Step::PhpReload), "{:?}", fake.ran);
        // PHP-FPM cannot take the previous pool either: said.
        let mut fake = Fake {
            refuse: vec![Step::PhpProbe],
            ..Fake::default()
        };
        let message = recover(&mut fake, &[Step::PhpReload], false);
        assert!(
            message.contains("reloading PHP-FPM with the previous pool failed too"),
            "{message}"
        );
    }

    #[test]
    fn a_failure_before_the_service_steps_touches_no_service_but_the_unit() {
        let mut fake = Fake::default();
        assert_eq!(recover(&mut fake, &[], false), "");
        assert_eq!(recover(&mut fake, &[Step::Sysctl], false), "");
        assert!(fake.ran.is_empty());
        // The drop-in was moved and put back: systemd reads it again, nothing restarts.
        recover(&mut fake, &[Step::Sysctl], true);
        assert_eq!(fake.ran, [Step::DaemonReload]);
    }
}
