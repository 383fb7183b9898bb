//! What a booted host shows `apply`'s rollback does not do yet (docs/verification.md,
//! "Booted-host tests"). These tests state the behaviour wanted and fail today; they are
//! built only with the feature `known-gaps`, to be switched on with the fix:
//! `cargo test -p nginx-gen-host-tests --features known-gaps --test known_gaps --
//! --include-ignored --test-threads=1`.

use nginx_gen_host_tests::{
    Container, OLD_BODY, STATE, Scenario, apply, assert_same, assert_serves, boot, inputs,
};

fn state(c: &Container) -> nginx_gen_host_tests::Snapshot {
    c.snapshot(&STATE, &["/var/lib/nginx-gen"])
}

/// A restart that fails leaves nginx stopped; the rollback reloads, which an inactive
/// unit refuses. Wanted: the previous files started again (a restart), nginx serving.
#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_failing_restart_leaves_nginx_serving_the_previous_files() {
    let _s = Scenario::start("known gap: restart fails (real)");
    let c = boot("restart-real", &["new.example"]);
    // A drop-in of the host's whose ExecStartPre refuses once (while /run/fail-next-start
    // exists).
    c.write(
        "/etc/systemd/system/nginx.service.d/50-test-start.conf",
        b"[Service]\nExecStartPre=/bin/sh -c 'if [ -e /run/fail-next-start ]; then rm -f /run/fail-next-start; exit 1; fi'\n",
    );
    c.ok("systemctl daemon-reload");
    let files = state(&c);
    let dump = c.nginx_dump();
    c.ok("touch /run/fail-next-start");
    let out = apply(&c, &inputs("new.example"), &[]);
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(out.stderr.contains("restart"), "{}", out.both());
    assert_same(&files, &state(&c), "files after the failed restart");
    assert_eq!(c.nginx_dump(), dump);
    assert!(
        !out.stderr.contains("failed too"),
        "the rollback brought the previous files back into service: {}",
        out.both()
    );
    c.ok("systemctl is-active --quiet nginx");
    assert_serves(&c, "old.example", OLD_BODY);
}

/// After a failure past the restart, the rollback removes the drop-in but only reloads:
/// systemd keeps the removed drop-in loaded and the master its limit. Wanted: a
/// daemon-reload and a restart, the stock limits back.
#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_rollback_past_the_restart_restores_the_units_limits() {
    let _s = Scenario::start("known gap: limits after a rollback past the restart");
    let c = boot("limits-back", &["new.example"]);
    let (master, _) = c.nginx_pids();
    let stock = c.nofile(master);
    let out = apply(
        &c,
        &inputs("new.example"),
        &[("NGINX_GEN_TEST_FAIL_STEP", "probe-http")],
    );
    assert_eq!(out.code, Some(1), "{}", out.both());
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
        "the master has the stock limits again"
    );
}
