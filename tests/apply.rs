//! `nginx-gen apply` on real files: a copy of this machine's `/etc/nginx` (Debian's nginx
//! with its default site in `sites-enabled`) under a temporary `--install-root`, checked by
//! the real `nginx -t` and, for the manifest, by coreutils' `sha256sum`. The service steps
//! skip there (another root); the booted-container suite drives them.
//!
//! Needs Debian's nginx (`scripts/setup.sh` installs it). Fails, never skips, without it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_nginx-gen");

/// A temporary root holding a copy of `/etc/nginx` (`cp -a`, links kept).
fn host_root() -> tempfile::TempDir {
    assert!(
        Path::new("/usr/sbin/nginx").exists() && Path::new("/etc/nginx/nginx.conf").exists(),
        "Debian's nginx is not installed: run scripts/setup.sh"
    );
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("etc")).unwrap();
    let status = Command::new("cp")
        .args(["-a", "/etc/nginx"])
        .arg(root.path().join("etc"))
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        fs::symlink_metadata(root.path().join("etc/nginx/sites-enabled/default")).is_ok(),
        "the copy has Debian's default site"
    );
    root
}

/// Every file and link under `root` (path → bytes, or the link's target), except the
/// backup sets when `backups` is false.
fn snapshot(root: &Path, backups: bool) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, backups: bool, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(base).unwrap().to_owned();
            if !backups && rel.starts_with("var/lib/nginx-gen/backups") {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if meta.is_dir() {
                out.insert(rel.join(""), Vec::new());
                walk(base, &path, backups, out);
            } else {
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, backups, &mut out);
    out
}

fn inputs(name: &str) -> Vec<String> {
    [
        "--no-detect",
        "--vcpu",
        "2",
        "--ram",
        "4G",
        "--nginx-version",
        "1.22.1",
        "--openssl-version",
        "3.0.11",
        "--existing-default-server",
        "--server-name",
        name,
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

/// [`inputs`] with many more clients: another `LimitNOFILE` in the drop-in and other
/// backlogs in the sysctl file, so `apply` runs `sysctl`, `daemon-reload` and `restart`
/// (another server name alone changes only the files' headers there: a reload).
fn more_clients(name: &str) -> Vec<String> {
    let mut args = inputs(name);
    args.extend(["--clients".into(), "2000000".into()]);
    args
}

fn apply(root: &Path, args: &[String], env: Option<(&str, &str)>) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run("apply", root, &args, env)
}

/// `nginx-gen SUBCOMMAND --install-root ROOT ARGS…`, with `env` set (and the test hook
/// unset otherwise).
fn run(subcommand: &str, root: &Path, args: &[&str], env: Option<(&str, &str)>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.arg(subcommand)
        .arg("--install-root")
        .arg(root)
        .args(args)
        .env_remove("NGINX_GEN_TEST_FAIL_STEP");
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// What `generate` prints for one file with the same inputs.
fn generated(args: &[String], format: &str) -> Vec<u8> {
    let out = Command::new(BIN)
        .args(args)
        .args(["--format", format])
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
}

fn manifest(root: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(root.join("var/lib/nginx-gen/manifest.json")).unwrap())
        .unwrap()
}

/// The backup sets under `root`, oldest first.
fn backup_sets(root: &Path) -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = fs::read_dir(root.join("var/lib/nginx-gen/backups"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    sets.sort();
    sets
}

#[test]
fn first_apply_installs_the_files_and_keeps_the_existing_site() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let args = inputs("a.example");
    let stdout = ok(&apply(r, &args, None));
    assert!(
        stdout.contains("validated the staged tree with"),
        "{stdout}"
    );
    assert!(
        stdout.contains("replaced /etc/nginx/nginx.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("created /etc/nginx/conf.d/a.example.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sysctl: skipped: --install-root"),
        "{stdout}"
    );
    // The files are generate's, byte for byte.
    assert_eq!(
        fs::read(r.join("etc/nginx/nginx.conf")).unwrap(),
        generated(&args, "nginx")
    );
    assert_eq!(
        fs::read(r.join("etc/nginx/conf.d/a.example.conf")).unwrap(),
        generated(&args, "site")
    );
    assert_eq!(
        fs::read(r.join("etc/sysctl.d/99-nginx-gen.conf")).unwrap(),
        generated(&args, "sysctl")
    );
    // The existing site is kept, link and file.
    for kept in [
        "etc/nginx/sites-enabled/default",
        "etc/nginx/sites-available/default",
    ] {
        let after = snapshot(r, true);
        assert_eq!(
            after.get(Path::new(kept)),
            before.get(Path::new(kept)),
            "{kept}"
        );
    }
    // The backup set holds Debian's nginx.conf and names the files it created.
    let sets = backup_sets(r);
    assert_eq!(sets.len(), 1);
    assert_eq!(
        fs::read(sets[0].join("files/etc/nginx/nginx.conf")).unwrap(),
        before[Path::new("etc/nginx/nginx.conf")]
    );
    let set: serde_json::Value =
        serde_json::from_slice(&fs::read(sets[0].join("set.json")).unwrap()).unwrap();
    assert_eq!(
        set["replaced"],
        serde_json::json!(["/etc/nginx/nginx.conf"])
    );
    assert!(
        set["created"]
            .as_array()
            .unwrap()
            .contains(&"/etc/nginx/conf.d/a.example.conf".into())
    );
    // The manifest's digests are sha256sum's.
    let m = manifest(r);
    let files = m["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    for f in files {
        let path = r.join(f["path"].as_str().unwrap().trim_start_matches('/'));
        let sum = Command::new("sha256sum").arg(&path).output().unwrap();
        let sum = text(&sum.stdout);
        assert_eq!(
            sum.split_whitespace().next(),
            f["sha256"].as_str(),
            "{path:?}"
        );
    }
    assert!(
        m["command"]
            .as_str()
            .unwrap()
            .contains("--server-name a.example")
    );
    // No staging directory or temporary file is left.
    let leftovers: Vec<_> = snapshot(r, true)
        .into_keys()
        .filter(|p| p.to_string_lossy().contains("nginx-gen-"))
        .filter(|p| !p.starts_with("var/lib"))
        .filter(|p| !p.ends_with("nginx-gen.conf") && !p.ends_with("99-nginx-gen.conf"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The installed tree passes the real nginx -t as a whole.
    nginx_t(r);
}

#[test]
fn second_apply_with_the_same_inputs_changes_nothing() {
    let root = host_root();
    let r = root.path();
    let args = inputs("a.example");
    ok(&apply(r, &args, None));
    let before = snapshot(r, true);
    let stdout = ok(&apply(r, &args, None));
    assert!(stdout.contains("nothing to do"), "{stdout}");
    assert_eq!(snapshot(r, true), before);
    let stdout = ok(&apply(r, &[args, vec!["--dry-run".into()]].concat(), None));
    assert!(stdout.contains("nothing to do"), "{stdout}");
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn apply_with_another_server_name_replaces_its_own_site_file() {
    let root = host_root();
    let r = root.path();
    ok(&apply(r, &inputs("a.example"), None));
    let site_a = fs::read(r.join("etc/nginx/conf.d/a.example.conf")).unwrap();
    let default = fs::read(r.join("etc/nginx/sites-available/default")).unwrap();
    let stdout = ok(&apply(r, &inputs("b.example"), None));
    assert!(
        stdout.contains("removed /etc/nginx/conf.d/a.example.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("created /etc/nginx/conf.d/b.example.conf"),
        "{stdout}"
    );
    // The drop-in and the sysctl file changed in their headers only (the command names
    // the server): their new bytes are installed, but nginx is reloaded, not restarted,
    // and sysctl --system does not run (finding H3, docs/verification.md).
    assert!(
        stdout.contains("replaced /etc/systemd/system/nginx.service.d/nginx-gen.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the drop-in's settings are unchanged (only its comments differ): daemon-reload for its new bytes, reload, no restart"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the sysctl file's settings are unchanged"),
        "{stdout}"
    );
    assert!(stdout.contains("reload: skipped"), "{stdout}");
    assert!(!stdout.contains("restart: "), "{stdout}");
    assert!(!stdout.contains("sysctl: "), "{stdout}");
    assert!(!r.join("etc/nginx/conf.d/a.example.conf").exists());
    assert!(r.join("etc/nginx/conf.d/b.example.conf").exists());
    assert_eq!(
        fs::read(r.join("etc/nginx/sites-available/default")).unwrap(),
        default
    );
    assert!(r.join("etc/nginx/sites-enabled/default").exists());
    let paths: Vec<String> = manifest(r)["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect();
    assert!(paths.contains(&"/etc/nginx/conf.d/b.example.conf".to_owned()));
    assert!(!paths.contains(&"/etc/nginx/conf.d/a.example.conf".to_owned()));
    // The removed site is in the second backup set, byte for byte.
    let sets = backup_sets(r);
    assert_eq!(sets.len(), 2);
    assert_eq!(
        fs::read(sets[1].join("files/etc/nginx/conf.d/a.example.conf")).unwrap(),
        site_a
    );
}

#[test]
fn a_tree_nginx_rejects_leaves_every_file_as_it_was() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    // Without --existing-default-server the new site is a second default server on port
    // 80 next to Debian's: the staged nginx -t fails.
    let args: Vec<String> = inputs("a.example")
        .into_iter()
        .filter(|a| a != "--existing-default-server")
        .collect();
    let out = apply(r, &args, None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("apply failed at step validate"), "{stderr}");
    assert!(stderr.contains("duplicate default server"), "{stderr}");
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn a_failure_after_the_first_move_restores_every_file_byte_for_byte() {
    for step in ["install", "sysctl", "restart", "probe", "probe-http"] {
        let root = host_root();
        let r = root.path();
        ok(&apply(r, &inputs("a.example"), None));
        let before = snapshot(r, false);
        let out = apply(
            r,
            &more_clients("b.example"),
            Some(("NGINX_GEN_TEST_FAIL_STEP", step)),
        );
        assert_eq!(out.status.code(), Some(1), "{step}: {}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("apply failed at step {step}")),
            "{step}: {stderr}"
        );
        assert!(stderr.contains("rolled back"), "{step}: {stderr}");
        assert_eq!(snapshot(r, false), before, "{step}");
        // The restored installation is still the first one: re-running it is a no-op.
        assert!(ok(&apply(r, &inputs("a.example"), None)).contains("nothing to do"));
    }
}

#[test]
fn dry_run_prints_a_unified_diff_and_changes_nothing() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let dry = |name: &str| {
        let args = [inputs(name), vec!["--dry-run".into()]].concat();
        ok(&apply(r, &args, None))
    };
    let stdout = dry("a.example");
    assert!(
        stdout.contains("--- a/etc/nginx/nginx.conf\n+++ b/etc/nginx/nginx.conf\n@@ "),
        "{stdout}"
    );
    assert!(stdout.contains("-worker_processes auto;\n"), "{stdout}");
    assert!(stdout.contains("+worker_processes 2;\n"), "{stdout}");
    assert!(
        stdout.contains("--- /dev/null\n+++ b/etc/nginx/conf.d/a.example.conf\n"),
        "{stdout}"
    );
    assert!(stdout.contains("dry run: nothing was changed"), "{stdout}");
    assert_eq!(snapshot(r, true), before);
    // After an apply, another name's diff removes the old site.
    ok(&apply(r, &inputs("a.example"), None));
    let installed = snapshot(r, true);
    let stdout = dry("b.example");
    assert!(
        stdout.contains("--- a/etc/nginx/conf.d/a.example.conf\n+++ /dev/null\n"),
        "{stdout}"
    );
    assert_eq!(snapshot(r, true), installed);
}

#[test]
fn bad_input_exits_2_and_changes_nothing() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let mut args = inputs("a.example");
    args[2] = "0".into(); // --vcpu 0
    let out = apply(r, &args, None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = apply(
        r,
        &[inputs("a.example"), vec!["--out".into(), "x".into()]].concat(),
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = Command::new(BIN)
        .args(["apply", "--install-root", "/nonexistent-nginx-gen-root"])
        .args(inputs("a.example"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn a_manifest_that_is_not_one_fails_before_anything_moves() {
    let root = host_root();
    let r = root.path();
    fs::create_dir_all(r.join("var/lib/nginx-gen")).unwrap();
    fs::write(r.join("var/lib/nginx-gen/manifest.json"), "{\"files\": 3}").unwrap();
    let before = snapshot(r, true);
    let out = apply(r, &inputs("a.example"), None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("step read"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn apply_fails_while_another_apply_holds_the_lock() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let held = fs::File::open(r.join("etc/nginx")).unwrap();
    held.lock().unwrap();
    let out = apply(r, &inputs("a.example"), None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("apply failed at step lock"), "{stderr}");
    assert_eq!(snapshot(r, true), before);
    // --dry-run reads only and needs no lock.
    ok(&apply(
        r,
        &[inputs("a.example"), vec!["--dry-run".into()]].concat(),
        None,
    ));
    held.unlock().unwrap();
    ok(&apply(r, &inputs("a.example"), None));
}

#[test]
fn a_manifest_naming_a_file_nginx_gen_never_writes_removes_nothing() {
    let root = host_root();
    let r = root.path();
    fs::create_dir_all(r.join("var/lib/nginx-gen")).unwrap();
    fs::create_dir_all(r.join("etc/ssh")).unwrap();
    fs::write(r.join("etc/ssh/sshd_config"), "Port 22\n").unwrap();
    fs::write(
        r.join("var/lib/nginx-gen/manifest.json"),
        r#"{"files": [{"path": "/etc/ssh/sshd_config", "sha256": "0"}]}"#,
    )
    .unwrap();
    let before = snapshot(r, true);
    let out = apply(r, &inputs("a.example"), None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("step read") && stderr.contains("never writes"),
        "{stderr}"
    );
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn an_owned_file_edited_by_hand_is_replaced_and_its_edit_kept_in_the_backup_set() {
    let root = host_root();
    let r = root.path();
    ok(&apply(r, &inputs("a.example"), None));
    let site = r.join("etc/nginx/conf.d/a.example.conf");
    let mut edited = fs::read(&site).unwrap();
    edited.extend_from_slice(b"# edited by hand\n");
    fs::write(&site, &edited).unwrap();
    let stdout = ok(&apply(r, &inputs("a.example"), None));
    assert!(
        stdout.contains("replaced /etc/nginx/conf.d/a.example.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("was edited since nginx-gen installed it"),
        "{stdout}"
    );
    let sets = backup_sets(r);
    assert_eq!(
        fs::read(sets[1].join("files/etc/nginx/conf.d/a.example.conf")).unwrap(),
        edited
    );
    assert!(ok(&apply(r, &inputs("a.example"), None)).contains("nothing to do"));
}

#[test]
fn a_failed_first_apply_leaves_etc_as_it_was_directories_included() {
    let root = host_root();
    let r = root.path();
    let etc = |r: &Path| snapshot(&r.join("etc"), true);
    let before = etc(r);
    let out = apply(
        r,
        &inputs("a.example"),
        Some(("NGINX_GEN_TEST_FAIL_STEP", "install")),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("rolled back"),
        "{}",
        text(&out.stderr)
    );
    // etc/sysctl.d and the drop-in's directories were created and are gone again.
    assert_eq!(etc(r), before);
    // The backup set stays, and names what it created.
    let sets = backup_sets(r);
    let set: serde_json::Value =
        serde_json::from_slice(&fs::read(sets[0].join("set.json")).unwrap()).unwrap();
    assert!(
        set["created_dirs"]
            .as_array()
            .unwrap()
            .contains(&"/etc/systemd/system/nginx.service.d".into()),
        "{set}"
    );
}

fn rollback(root: &Path, args: &[&str], env: Option<(&str, &str)>) -> Output {
    run("rollback", root, args, env)
}

/// A host root where a.example then b.example were applied (two backup sets).
fn a_then_b() -> tempfile::TempDir {
    let root = host_root();
    ok(&apply(root.path(), &inputs("a.example"), None));
    ok(&apply(root.path(), &inputs("b.example"), None));
    root
}

/// The id of a backup set (its directory's name).
fn id_of(set: &Path) -> String {
    set.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every file's mode under `root` (the backup sets left out).
fn modes(root: &Path) -> BTreeMap<PathBuf, u32> {
    use std::os::unix::fs::PermissionsExt;
    snapshot(root, false)
        .into_keys()
        .filter_map(|rel| {
            let meta = fs::symlink_metadata(root.join(&rel)).ok()?;
            (!meta.file_type().is_symlink()).then(|| (rel, meta.permissions().mode()))
        })
        .collect()
}

/// `nginx -t` of the tree installed under `root`, as a whole.
fn nginx_t(root: &Path) {
    let t = Command::new("/usr/sbin/nginx")
        .arg("-t")
        .arg("-c")
        .arg(root.join("etc/nginx/nginx.conf"))
        .output()
        .unwrap();
    assert!(t.status.success(), "{}", text(&t.stderr));
}

#[test]
fn rollback_restores_the_previous_apply_byte_for_byte_with_modes() {
    use std::os::unix::fs::PermissionsExt;
    let root = host_root();
    let r = root.path();
    ok(&apply(r, &inputs("a.example"), None));
    // A mode of its own, which the backup set keeps and the rollback restores.
    let site_a = r.join("etc/nginx/conf.d/a.example.conf");
    fs::set_permissions(&site_a, fs::Permissions::from_mode(0o640)).unwrap();
    let after_a = snapshot(r, false);
    let modes_a = modes(r);
    ok(&apply(r, &inputs("b.example"), None));
    assert!(!site_a.exists());
    assert_ne!(snapshot(r, false), after_a);
    let stdout = ok(&rollback(r, &[], None));
    assert!(
        stdout.contains("validated the staged tree with"),
        "{stdout}"
    );
    assert!(
        stdout.contains("removed /etc/nginx/conf.d/b.example.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("created /etc/nginx/conf.d/a.example.conf"),
        "{stdout}"
    );
    assert!(
        stdout.contains("reload: skipped: --install-root"),
        "{stdout}"
    );
    assert!(stdout.contains("rolled back to backup set"), "{stdout}");
    // Every file, the manifest included, is what it was after the first apply.
    assert_eq!(snapshot(r, false), after_a);
    assert_eq!(modes(r), modes_a);
    nginx_t(r);
    // The rollback made a set of its own, naming the set it restored.
    let sets = backup_sets(r);
    assert_eq!(sets.len(), 3);
    let set: serde_json::Value =
        serde_json::from_slice(&fs::read(sets[2].join("set.json")).unwrap()).unwrap();
    assert_eq!(
        set["command"],
        format!("nginx-gen rollback {}", id_of(&sets[1]))
    );
    assert!(
        set["removed"]
            .as_array()
            .unwrap()
            .contains(&"/etc/nginx/conf.d/b.example.conf".into()),
        "{set}"
    );
    // The restored installation is the first apply's: applying it again changes nothing.
    assert!(ok(&apply(r, &inputs("a.example"), None)).contains("nothing to do"));
}

#[test]
fn rollback_of_a_named_set_twice_and_of_the_rollback_itself() {
    let root = host_root();
    let r = root.path();
    let etc = |r: &Path| snapshot(&r.join("etc"), true);
    let original = etc(r);
    ok(&apply(r, &inputs("a.example"), None));
    let after_a = snapshot(r, false);
    ok(&apply(r, &inputs("b.example"), None));
    let after_b = snapshot(r, false);
    let sets = backup_sets(r);
    let (first, second) = (id_of(&sets[0]), id_of(&sets[1]));
    ok(&rollback(r, &[&second], None));
    assert_eq!(snapshot(r, false), after_a);
    // The same set again: every file already is as the set holds it.
    let with_sets = snapshot(r, true);
    let stdout = ok(&rollback(r, &[&second], None));
    assert!(stdout.contains("nothing to do"), "{stdout}");
    assert_eq!(snapshot(r, true), with_sets);
    // The first set, not the newest: /etc is as it was before any apply, directories
    // included, and the manifest is gone.
    let stdout = ok(&rollback(r, &[&first], None));
    assert!(
        stdout.contains("removed /var/lib/nginx-gen/manifest.json"),
        "{stdout}"
    );
    assert_eq!(etc(r), original);
    assert!(!r.join("var/lib/nginx-gen/manifest.json").exists());
    nginx_t(r);
    // The newest set is that rollback's: rolling it back gives the first apply back, and
    // the one before, the second apply.
    ok(&rollback(r, &[], None));
    assert_eq!(snapshot(r, false), after_a);
    let sets = backup_sets(r);
    let undo_second = id_of(&sets[2]);
    ok(&rollback(r, &[&undo_second], None));
    assert_eq!(snapshot(r, false), after_b);
}

#[test]
fn rollback_list_shows_the_sets_newest_first() {
    let root = host_root();
    let r = root.path();
    let out = rollback(r, &["--list"], None);
    assert!(text(&out.stdout).contains("no backup set"), "{out:?}");
    assert_eq!(out.status.code(), Some(0));
    ok(&apply(r, &inputs("a.example"), None));
    ok(&apply(r, &inputs("b.example"), None));
    ok(&rollback(r, &[], None));
    let before = snapshot(r, true);
    let stdout = ok(&rollback(r, &["--list"], None));
    let sets = backup_sets(r);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, set) in lines.iter().zip(sets.iter().rev()) {
        assert!(line.starts_with(&format!("{}  ", id_of(set))), "{stdout}");
    }
    assert!(
        lines[0].contains(&format!("nginx-gen rollback {}", id_of(&sets[1]))),
        "{stdout}"
    );
    // The first apply replaced Debian's nginx.conf and created its three other files and
    // the manifest.
    assert!(
        lines[2].contains("1 replaced, 0 removed, 4 created  nginx-gen --no-detect"),
        "{stdout}"
    );
    assert!(lines[2].contains("--server-name a.example"), "{stdout}");
    // The manifest restored by the rollback names the first apply's set.
    assert!(
        lines[2].ends_with("(made by the installed run)"),
        "{stdout}"
    );
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn rollback_dry_run_prints_the_diff_and_changes_nothing() {
    let root = a_then_b();
    let r = root.path();
    let before = snapshot(r, true);
    let stdout = ok(&rollback(r, &["--dry-run"], None));
    assert!(
        stdout.contains("--- a/etc/nginx/conf.d/b.example.conf\n+++ /dev/null\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("--- /dev/null\n+++ b/etc/nginx/conf.d/a.example.conf\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "--- a/var/lib/nginx-gen/manifest.json\n+++ b/var/lib/nginx-gen/manifest.json\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("dry run: nothing was changed"), "{stdout}");
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn rollback_without_a_set_or_with_an_unknown_id_exits_2_and_changes_nothing() {
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let out = rollback(r, &[], None);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("no backup set"), "{out:?}");
    assert_eq!(snapshot(r, true), before);
    ok(&apply(r, &inputs("a.example"), None));
    let before = snapshot(r, true);
    for id in ["20000101T000000Z", "../backups", "", "a/b"] {
        let out = rollback(r, &[id], None);
        assert_eq!(out.status.code(), Some(2), "{id}: {out:?}");
        assert!(text(&out.stderr).contains("backup set"), "{id}: {out:?}");
        assert_eq!(snapshot(r, true), before, "{id}");
    }
    let out = Command::new(BIN)
        .args(["rollback", "--install-root", "/nonexistent-nginx-gen-root"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_restored_tree_nginx_rejects_leaves_everything_as_it_was() {
    let root = a_then_b();
    let r = root.path();
    // The second set's copy of the first site, corrupted.
    let sets = backup_sets(r);
    let copy = sets[1].join("files/etc/nginx/conf.d/a.example.conf");
    let mut bytes = fs::read(&copy).unwrap();
    bytes.extend_from_slice(b"server { listen 80; not_a_directive on; }\n");
    fs::write(&copy, bytes).unwrap();
    let before = snapshot(r, true);
    let out = rollback(r, &[], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("rollback failed at step validate"),
        "{stderr}"
    );
    assert!(stderr.contains("not_a_directive"), "{stderr}");
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn a_failure_during_rollback_restores_what_was_there_byte_for_byte() {
    for step in [
        "install",
        "sysctl",
        "restart",
        "probe-https",
        "probe-catch-all",
    ] {
        let root = host_root();
        let r = root.path();
        ok(&apply(r, &inputs("a.example"), None));
        let after_a = snapshot(r, false);
        ok(&apply(r, &more_clients("b.example"), None));
        let before = snapshot(r, false);
        let modes_before = modes(r);
        let out = rollback(r, &[], Some(("NGINX_GEN_TEST_FAIL_STEP", step)));
        assert_eq!(out.status.code(), Some(1), "{step}: {}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("rollback failed at step {step}")),
            "{step}: {stderr}"
        );
        assert!(stderr.contains("rolled back"), "{step}: {stderr}");
        assert_eq!(snapshot(r, false), before, "{step}");
        assert_eq!(modes(r), modes_before, "{step}");
        // The set is intact: the rollback still works afterwards.
        let sets = backup_sets(r);
        ok(&rollback(r, &[&id_of(&sets[1])], None));
        assert_eq!(snapshot(r, false), after_a, "{step}");
    }
}

#[test]
fn apply_warns_about_sysctl_files_that_override_its_own() {
    let root = host_root();
    let r = root.path();
    fs::create_dir_all(r.join("etc/sysctl.d")).unwrap();
    fs::write(
        r.join("etc/sysctl.d/99-nginx-tuning.conf"),
        "net.core.somaxconn = 1\n",
    )
    .unwrap();
    // Sorts before ours: not an override.
    fs::write(
        r.join("etc/sysctl.d/10-early.conf"),
        "net.core.somaxconn = 2\n",
    )
    .unwrap();
    let args = inputs("a.example");
    let ours = text(&generated(&args, "sysctl"));
    let somaxconn = ours
        .lines()
        .find_map(|l| l.strip_prefix("net.core.somaxconn = "))
        .expect("our file sets net.core.somaxconn")
        .to_owned();
    let warning = format!(
        "warning: /etc/sysctl.d/99-nginx-tuning.conf sets net.core.somaxconn = 1 and is applied after /etc/sysctl.d/99-nginx-gen.conf (which sets {somaxconn})"
    );
    let before = snapshot(r, true);
    let stdout = ok(&apply(
        r,
        &[args.clone(), vec!["--dry-run".into()]].concat(),
        None,
    ));
    assert!(stdout.contains(&warning), "{stdout}");
    assert!(
        stdout.contains("rename it to sort before 99-nginx-gen.conf"),
        "{stdout}"
    );
    assert!(!stdout.contains("10-early.conf"), "{stdout}");
    assert_eq!(snapshot(r, true), before);
    // Applied, the warning is the same and the run succeeds.
    let stdout = ok(&apply(r, &args, None));
    assert!(stdout.contains(&warning), "{stdout}");
    assert!(stdout.contains("nginx-gen: applied"), "{stdout}");
    // Renamed to sort before ours, the warning goes.
    fs::rename(
        r.join("etc/sysctl.d/99-nginx-tuning.conf"),
        r.join("etc/sysctl.d/90-nginx-tuning.conf"),
    )
    .unwrap();
    let stdout = ok(&apply(r, &args, None));
    assert!(!stdout.contains("warning: /etc/sysctl.d"), "{stdout}");
}

/// A free TCP port on loopback (bound, then released for nginx).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// An nginx this test started; stopped (by its own id) when dropped.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        // SIGTERM, so the master stops its workers (SIGKILL would orphan them).
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while matches!(self.0.try_wait(), Ok(None)) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Debian's nginx, in the foreground, serving the tree installed under `root` (its
/// references to /etc/nginx, its pid file and logs moved under `root` and `state`).
fn serve(root: &Path, state: &Path, port: u16) -> Running {
    fn rewrite(dir: &Path, pairs: &[(String, String)]) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rewrite(&path, pairs);
            } else if let Ok(mut text) = fs::read_to_string(&path) {
                for (from, to) in pairs {
                    text = text.replace(from, to);
                }
                fs::write(&path, text).unwrap();
            }
        }
    }
    let conf = root.join("etc/nginx");
    rewrite(
        &conf,
        &[
            ("/etc/nginx/".into(), format!("{}/", conf.display())),
            (
                "/run/nginx.pid".into(),
                state.join("nginx.pid").display().to_string(),
            ),
            ("/var/log/nginx/".into(), format!("{}/", state.display())),
        ],
    );
    let child = Command::new("/usr/sbin/nginx")
        .arg("-e")
        .arg(state.join("startup.log"))
        .arg("-c")
        .arg(conf.join("nginx.conf"))
        .args(["-g", "daemon off;"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = running.0.try_wait() {
            let mut err = String::new();
            let _ = std::io::Read::read_to_string(running.0.stderr.as_mut().unwrap(), &mut err);
            panic!("nginx exited ({status}): {err}");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "nginx does not listen on {port}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    running
}

/// The probes `apply` runs after a reload, against Debian's nginx serving an applied tree
/// with TLS (the test certificate): each name answers over HTTP and HTTPS, the catch-all
/// closes a name no site has and refuses its handshake.
#[test]
fn the_probes_against_a_live_nginx_serving_an_applied_tree() {
    use nginx_gen::probe::{self, CatchAll, NO_SITE_NAME};
    let root = host_root();
    let r = root.path();
    // Debian's default site would take port 80; ours is the default server on its ports.
    fs::remove_file(r.join("etc/nginx/sites-enabled/default")).unwrap();
    let state = tempfile::tempdir().unwrap();
    let cert = nginx_gen_testsupport::self_signed(state.path(), "a.example").unwrap();
    let (http, tls) = (free_port(), free_port());
    let listen = format!("127.0.0.1:{http}");
    let doc = serde_json::json!({
        "vcpu": 2, "ram": "4G", "nginx_version": "1.22.1", "openssl_version": "3.0.11",
        "server_names": ["a.example"], "listen": [listen], "tls": true, "tls_port": tls,
        "tls_cert": cert.cert, "tls_key": cert.key,
    });
    let raw = nginx_gen_core::RawInputs::from_json(&doc.to_string()).unwrap();
    let inputs = nginx_gen_core::Inputs::from_raw(&raw).unwrap();
    // The command the manifest keeps (it starts with --no-detect): the same plan.
    let args: Vec<String> = inputs
        .to_command()
        .split_whitespace()
        .skip(1)
        .map(ToString::to_string)
        .collect();
    ok(&apply(r, &args, None));
    let plan = nginx_gen_core::Plan::new(&inputs);
    let probes = probe::probes(&plan);
    let (http, tls): (std::net::SocketAddr, std::net::SocketAddr) = (
        listen.parse().unwrap(),
        format!("127.0.0.1:{tls}").parse().unwrap(),
    );
    assert_eq!(probes.http, [(http, "a.example".to_owned())]);
    assert_eq!(probes.https, [(tls, "a.example".to_owned())]);
    assert_eq!(
        probes.catch_all,
        CatchAll::Probe {
            http,
            tls: Some(tls)
        }
    );
    let _nginx = serve(r, state.path(), http.port());
    let t = std::time::Duration::from_secs(5);
    // Plain HTTP redirects to HTTPS: a status line is an answer.
    let line = probe::probe_http(http, "a.example", t).unwrap();
    assert!(line.starts_with("HTTP/1.1 308"), "{line}");
    let line = probe::probe_https(tls, "a.example", t).unwrap();
    assert!(line.starts_with("HTTP/1.1 "), "{line}");
    let done = probe::probe_catch_all(http, Some(tls), t).unwrap();
    assert!(
        done.contains("closed without a status line (444)"),
        "{done}"
    );
    assert!(done.contains("handshake refused"), "{done}");
    // The other way round, each probe fails.
    let e = probe::probe_http(http, NO_SITE_NAME, t).unwrap_err();
    assert!(e.contains("without an HTTP status line"), "{e}");
    let e = probe::probe_https(tls, NO_SITE_NAME, t).unwrap_err();
    assert!(e.contains("handshake was refused"), "{e}");
    let e = probe::probe_catch_all(tls, None, t).unwrap_err();
    assert!(e.contains(NO_SITE_NAME), "{e}");
    let e = probe::probe_https(http, "a.example", t).unwrap_err();
    assert!(e.contains("does not answer"), "{e}");
}

// --- the php workload's PHP-FPM pool ------------------------------------------------------------

/// The inputs of a php site.
fn php_inputs(name: &str) -> Vec<String> {
    let mut args = inputs(name);
    args.extend(["--workload".into(), "php".into()]);
    args
}

/// `apply --dry-run` of the php workload under `r`.
fn php_dry_run(r: &Path) -> Output {
    let mut args = php_inputs("a.example");
    args.push("--dry-run".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run("apply", r, &args, None)
}

const POOL: &str = "etc/php/8.2/fpm/pool.d/www.conf";

/// [`host_root`] with a copy of this machine's `/etc/php/8.2/fpm` (Debian's php8.2-fpm,
/// which `scripts/setup.sh` installs, with its stock www pool).
fn php_root() -> tempfile::TempDir {
    assert!(
        Path::new("/usr/sbin/php-fpm8.2").exists()
            && Path::new("/etc/php/8.2/fpm/php-fpm.conf").exists(),
        "Debian's php8.2-fpm is not installed: run scripts/setup.sh"
    );
    let root = host_root();
    fs::create_dir_all(root.path().join("etc/php/8.2")).unwrap();
    let status = Command::new("cp")
        .args(["-a", "/etc/php/8.2/fpm"])
        .arg(root.path().join("etc/php/8.2"))
        .status()
        .unwrap();
    assert!(status.success());
    root
}

#[test]
fn a_php_apply_checks_the_pool_with_php_fpm_then_rollback_restores_it() {
    let root = php_root();
    let r = root.path();
    let before = snapshot(r, true);
    let stock = fs::read(r.join(POOL)).unwrap();
    // --dry-run shows the pool's diff too.
    let dry = ok(&php_dry_run(r));
    assert!(
        dry.contains("+++ b/etc/php/8.2/fpm/pool.d/www.conf"),
        "{dry}"
    );
    assert!(dry.contains("-pm.max_children = 5"), "{dry}");
    assert_eq!(snapshot(r, true), before);

    let out = ok(&apply(r, &php_inputs("a.example"), None));
    assert!(
        out.contains("validated the staged pool /etc/php/8.2/fpm/pool.d/www.conf with /usr/sbin/php-fpm8.2 -t"),
        "{out}"
    );
    assert!(
        out.contains("replaced /etc/php/8.2/fpm/pool.d/www.conf"),
        "{out}"
    );
    // Another root: PHP-FPM's steps are the host's, skipped with a note.
    assert!(out.contains("php-fpm-reload: skipped"), "{out}");
    assert!(!out.contains("not reloaded by nginx-gen"), "{out}");
    assert_eq!(
        fs::read(r.join(POOL)).unwrap(),
        generated(&php_inputs("a.example"), "php-fpm")
    );
    // The staged copy is gone.
    let leftovers: Vec<String> = fs::read_dir(r.join("etc/php/8.2/fpm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".nginx-gen"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // rollback puts the package's pool back, byte for byte.
    let back = ok(&rollback(r, &[], None));
    assert!(back.contains("validated the staged pool"), "{back}");
    assert_eq!(fs::read(r.join(POOL)).unwrap(), stock);
    let after: BTreeMap<PathBuf, Vec<u8>> = snapshot(r, false)
        .into_iter()
        .filter(|(p, _)| !p.starts_with("var"))
        .collect();
    let before: BTreeMap<PathBuf, Vec<u8>> = before
        .into_iter()
        .filter(|(p, _)| !p.starts_with("var"))
        .collect();
    let differ: Vec<&PathBuf> = before
        .keys()
        .chain(after.keys())
        .filter(|p| before.get(*p) != after.get(*p))
        .collect();
    assert!(differ.is_empty(), "{differ:?}");
}

#[test]
fn a_pool_php_fpm_rejects_leaves_every_file_as_it_was() {
    let root = php_root();
    let r = root.path();
    // A local pool file that merges into [www]: valid with the stock pool (max_children 5,
    // min_spare 1), not with the plan's (min_spare 6).
    fs::write(
        r.join("etc/php/8.2/fpm/pool.d/zz-local.conf"),
        "[www]\npm.max_spare_servers = 4\n",
    )
    .unwrap();
    let before = snapshot(r, true);
    let out = apply(r, &php_inputs("a.example"), None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("apply failed at step validate"), "{stderr}");
    assert!(
        stderr.contains("php-fpm8.2 -t rejects the staged pool /etc/php/8.2/fpm/pool.d/www.conf")
            && stderr
                .contains("pm.max_spare_servers(4) must not be less than pm.min_spare_servers"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(snapshot(r, true), before);
}

#[test]
fn a_php_apply_without_php_fpm_fails_before_changing_anything() {
    // nginx's tree, no PHP-FPM configuration in it.
    let root = host_root();
    let r = root.path();
    let before = snapshot(r, true);
    let out = apply(r, &php_inputs("a.example"), None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("apply failed at step validate"), "{stderr}");
    // Without the program: "PHP-FPM is not installed"; with it (here), the tree lacks its
    // configuration.
    assert!(
        stderr.contains("PHP-FPM is not installed: php-fpm8.2")
            || stderr.contains("PHP-FPM's configuration")
                && stderr.contains("/etc/php/8.2/fpm/php-fpm.conf is missing"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    assert_eq!(snapshot(r, true), before);
    // --dry-run says so too, and still exits 0 with the diff.
    let dry = ok(&php_dry_run(r));
    assert!(
        dry.contains("warning: apply would fail at step validate"),
        "{dry}"
    );
}

#[test]
fn a_static_apply_after_a_php_apply_keeps_the_pool() {
    let root = php_root();
    let r = root.path();
    ok(&apply(r, &php_inputs("a.example"), None));
    let pool = fs::read(r.join(POOL)).unwrap();
    let out = ok(&apply(r, &inputs("a.example"), None));
    assert!(
        out.contains("note: /etc/php/8.2/fpm/pool.d/www.conf is left as it is"),
        "{out}"
    );
    assert_eq!(fs::read(r.join(POOL)).unwrap(), pool);
    assert!(!manifest(r)["files"].to_string().contains("pool.d"));
}
