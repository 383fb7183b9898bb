//! `nginx-gen rollback` on a booted Debian 12 (systemd as PID 1, Debian's nginx running):
//! a rollback after an apply puts every file back byte for byte, `nginx -T` as before,
//! the unit reloaded by systemd and nginx restarted with the stock limits; a rollback that
//! fails after its restart puts the applied files back and restarts nginx with them.
//!
//! Every test is `#[ignore]`d (root, the cached root, the release binary);
//! `scripts/stages/57-host.sh` runs them:
//! `cargo test -p nginx-gen-host-tests --test rollback -- --include-ignored --test-threads=1`.

use nginx_gen_host_tests::{
    OLD_BODY, STATE, Scenario, applied, assert_same, assert_serves, body, boot, directive, inputs,
};

/// The state apply and rollback touch, the backup sets and nginx-gen's own directory
/// aside (the sets stay; the directory holds them).
const TREE: [&str; 4] = [
    "/etc/nginx",
    "/etc/sysctl.d",
    "/etc/systemd/system/nginx.service.d",
    "/var/www",
];

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn rollback_after_an_apply_restores_the_files_and_the_old_tree() {
    let _s = Scenario::start("rollback after an apply: files, tree, stock limits");
    let c = boot("rollback", &["new.example"]);
    let files = c.snapshot(&TREE, &[]);
    let dump = c.nginx_dump();
    let (master, _) = c.nginx_pids();
    let stock = c.nofile(master);
    applied(&c, &inputs("new.example"));
    let sets = c.backup_sets();
    assert_eq!(sets.len(), 1);

    // --list names the set; --dry-run changes nothing.
    let list = c.nginx_gen(&["rollback", "--list"], &[]);
    assert_eq!(list.code, Some(0), "{}", list.both());
    assert!(
        list.stdout.contains(&sets[0]) && list.stdout.contains("(made by the installed run)"),
        "{}",
        list.both()
    );
    let applied_files = c.snapshot(&STATE, &[]);
    let dry = c.nginx_gen(&["rollback", "--dry-run"], &[]);
    assert_eq!(dry.code, Some(0), "{}", dry.both());
    assert!(
        dry.stdout.contains("/etc/nginx/nginx.conf")
            && dry
                .stdout
                .contains("nginx-gen: dry run: nothing was changed"),
        "{}",
        dry.both()
    );
    assert_same(
        &applied_files,
        &c.snapshot(&STATE, &[]),
        "files after rollback --dry-run",
    );

    let out = c.nginx_gen(&["rollback"], &[]);
    assert_eq!(out.code, Some(0), "rollback failed: {}", out.both());
    assert!(
        out.stdout
            .contains(&format!("nginx-gen: rolled back to backup set {}", sets[0])),
        "{}",
        out.both()
    );
    // The drop-in goes: its settings change, so a daemon-reload and a restart.
    assert!(
        out.stdout
            .contains("daemon-reload: systemctl daemon-reload")
            && out.stdout.contains("restart: systemctl restart nginx"),
        "{}",
        out.both()
    );
    assert_same(&files, &c.snapshot(&TREE, &[]), "files after the rollback");
    assert!(
        !c.path("/var/lib/nginx-gen/manifest.json").exists(),
        "the manifest the apply created is gone"
    );
    assert_eq!(c.nginx_dump(), dump, "nginx -T after the rollback");
    c.ok("systemctl is-active --quiet nginx");
    assert_serves(&c, "old.example", OLD_BODY);
    let (_, page) = c.get("new.example", 80);
    assert_ne!(
        page,
        body("new.example"),
        "the new site is not served any more"
    );
    // The drop-in went: systemd has reloaded the unit and nginx was restarted with the
    // stock limits (a reload would keep the plan's: finding H2 of docs/verification.md).
    assert_eq!(
        c.ok("systemctl show -p NeedDaemonReload --value nginx")
            .trim(),
        "no",
        "systemd has the restored unit loaded"
    );
    let (master, _) = c.nginx_pids();
    assert_eq!(
        c.nofile(master),
        stock,
        "the master's limits are the stock ones"
    );

    // A set that does not exist: exit 2, nothing changed.
    let bad = c.nginx_gen(&["rollback", "19700101T000000Z"], &[]);
    assert_eq!(bad.code, Some(2), "{}", bad.both());
    assert_same(
        &files,
        &c.snapshot(&TREE, &[]),
        "files after a bad rollback",
    );
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_rollback_failing_after_its_restart_restarts_nginx_with_the_applied_files() {
    let s = Scenario::start("rollback fails after its restart (injected): applied files back");
    let c = boot("rollback-fail", &["new.example"]);
    let args = inputs("new.example");
    applied(&c, &args);
    let files = c.snapshot(&STATE, &["/var/lib/nginx-gen/backups"]);
    let dump = c.nginx_dump();
    let (master, _) = c.nginx_pids();
    let limits = c.nofile(master);
    let sets = c.backup_sets();

    // The rollback removes the drop-in (daemon-reload, restart); its probe fails.
    let out = c.nginx_gen(&["rollback"], &[("NGINX_GEN_TEST_FAIL_STEP", "probe-http")]);
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr.contains("rollback failed at step probe-http:"),
        "{}",
        out.both()
    );
    assert!(
        out.stdout.contains("restart: systemctl restart nginx"),
        "{}",
        out.both()
    );
    assert!(
        out.stderr
            .contains("rolled back: every file restored byte for byte")
            && out.stderr.contains("systemd reloaded the restored unit")
            && out
                .stderr
                .contains("nginx was restarted with the previous files"),
        "{}",
        out.both()
    );
    assert!(!out.stderr.contains("failed too"), "{}", out.both());
    // The applied files are back, byte for byte; the rollback's own set is the only new
    // thing.
    assert_same(
        &files,
        &c.snapshot(&STATE, &["/var/lib/nginx-gen/backups"]),
        "files after the failed rollback",
    );
    assert_eq!(
        c.backup_sets().len(),
        sets.len() + 1,
        "the rollback's own set"
    );
    assert_eq!(c.nginx_dump(), dump, "nginx -T after the failed rollback");
    c.ok("systemctl is-active --quiet nginx");
    assert_serves(&c, "new.example", &body("new.example"));
    assert_serves(&c, "old.example", OLD_BODY);
    assert_eq!(
        c.ok("systemctl show -p NeedDaemonReload --value nginx")
            .trim(),
        "no",
        "systemd has the drop-in loaded again"
    );
    // A new master (the rollback restarted twice), with the applied drop-in's limits.
    let (after, _) = c.nginx_pids();
    assert_ne!(after, master, "restarted");
    assert_eq!(c.nofile(after), limits, "the applied drop-in's limits");
    let dropin =
        String::from_utf8(c.read("/etc/systemd/system/nginx.service.d/nginx-gen.conf")).unwrap();
    s.note(&format!(
        "LimitNOFILE={} in the drop-in, the master's {limits:?}",
        directive(&dropin, "LimitNOFILE").unwrap_or_default()
    ));
}
