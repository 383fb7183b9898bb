//! The php workload on a booted Debian 12 with Debian's php8.2-fpm running its stock www
//! pool (`scripts/host-root.sh`): `apply` checks the pool with `php-fpm8.2 -t`, reloads
//! PHP-FPM after nginx and probes it, a PHP page answers through nginx; a pool PHP-FPM
//! rejects, PHP-FPM missing, an injected probe failure and a reload the unit refuses leave
//! every file byte for byte as before with both services active on the previous files;
//! `check` reports a pool edited by hand; `rollback` restores the stock pool and reloads
//! PHP-FPM with it, also a host pool of `pm = ondemand`, which shows no new child to wait
//! for.
//!
//! `cargo test -p nginx-gen-host-tests --test php -- --include-ignored --test-threads=1`.

use std::time::{Duration, Instant};

use nginx_gen_host_tests::{
    Container, OLD_BODY, Out, STATE, Scenario, Snapshot, apply, assert_failed_at, assert_restored,
    assert_same, assert_serves, boot, directive, generated, inputs, script,
};

const POOL: &str = "/etc/php/8.2/fpm/pool.d/www.conf";
const UNIT: &str = "php8.2-fpm";

/// The state a php apply touches: nginx's and PHP-FPM's.
fn tree() -> Vec<&'static str> {
    let mut dirs = STATE.to_vec();
    dirs.push("/etc/php/8.2/fpm");
    dirs.push("/etc/systemd/system/php8.2-fpm.service.d");
    dirs
}

fn php_inputs(name: &str) -> Vec<String> {
    let mut args = inputs(name);
    args.extend(["--workload".into(), "php".into()]);
    args
}

/// A php site `name`: its document root with an index.php naming the site.
fn php_site(c: &Container, name: &str) {
    c.write(
        &format!("/var/www/{name}/index.php"),
        format!("<?php echo '{name}: PHP ', PHP_MAJOR_VERSION, '.', PHP_MINOR_VERSION, \"\\n\";\n")
            .as_bytes(),
    );
}

/// A booted host with the site `php.example` and its index.php.
fn php_host(label: &str) -> Container {
    let c = boot(label, &["php.example"]);
    php_site(&c, "php.example");
    c
}

/// PHP-FPM's master (systemd's `MainPID`) and its pool children.
fn fpm_pids(c: &Container) -> (u32, Vec<u32>) {
    let master: u32 = c
        .ok(&format!("systemctl show -p MainPID --value {UNIT}"))
        .trim()
        .parse()
        .unwrap();
    assert_ne!(master, 0, "{UNIT} has no main process");
    let children = c
        .sh(&format!("pgrep -P {master}"))
        .stdout
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    (master, children)
}

/// Waits (up to 10 s) until PHP-FPM's master has `n` children; the pids.
fn fpm_children_become(c: &Container, n: usize) -> (u32, Vec<u32>) {
    fpm_children_replaced(c, &[], n)
}

/// Waits (up to 10 s) until PHP-FPM's children number `n` (the pool's `pm.start_servers`)
/// and none of them is one of `old`; the master and the children.
fn fpm_children_replaced(c: &Container, old: &[u32], n: usize) -> (u32, Vec<u32>) {
    let start = Instant::now();
    loop {
        let (master, children) = fpm_pids(c);
        if children.len() == n && children.iter().all(|p| !old.contains(p)) {
            return (master, children);
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "PHP-FPM's master {master} has children {children:?}, not {n} new ones (before: {old:?})"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `GET /index.php` of `name` through nginx: (status, body).
fn get_php(c: &Container, name: &str) -> (u16, String) {
    let out = c.sh(&format!(
        "curl -s -o /dev/stdout -w '\\n%{{http_code}}' --max-time 10 --resolve {name}:80:127.0.0.1 http://{name}/index.php"
    ));
    let (body, code) = out.stdout.rsplit_once('\n').unwrap_or(("", "0"));
    (code.trim().parse().unwrap_or(0), body.to_owned())
}

/// `nginx-gen check ARGS --format json`: the exit code and the findings of `php-fpm`.
fn php_findings(c: &Container, args: &[String]) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut all = vec!["check"];
    all.extend(args.iter().map(String::as_str));
    all.extend(["--format", "json"]);
    let out = c.nginx_gen(&all, &[]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("check --format json is not JSON ({e}): {}", out.both()));
    let php = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "php-fpm")
        .cloned()
        .collect();
    (out.code, php)
}

/// `nginx-gen rollback` exits 0, its report says `said`, and every file of nginx and
/// PHP-FPM is as in `files` (taken before the apply).
fn rollback_restores(c: &Container, files: &Snapshot, said: &str) {
    let back = c.nginx_gen(&["rollback"], &[]);
    assert_eq!(back.code, Some(0), "rollback failed: {}", back.both());
    assert!(back.stdout.contains(said), "{said}: {}", back.both());
    assert_same(
        files,
        &c.snapshot(&tree(), &["/var/lib/nginx-gen"]),
        "files after the rollback",
    );
}

/// The state before a failing apply.
struct Before {
    files: Snapshot,
    dump: String,
    fpm: (u32, Vec<u32>),
    tt: String,
}

fn before(c: &Container) -> Before {
    Before {
        files: c.snapshot(&tree(), &[]),
        dump: c.nginx_dump(),
        fpm: fpm_pids(c),
        tt: c.ok("php-fpm8.2 -tt 2>&1 | sed 's/^\\[[^]]*\\] //'"),
    }
}

/// A failed apply: exit 1 at `step`, every file of nginx and PHP-FPM byte for byte as
/// before (the backup sets aside), the same `nginx -T` and `php-fpm8.2 -tt`, both services
/// active, the old site serving, PHP-FPM's master running the stock pool (its
/// `pm.start_servers = 2` children).
fn assert_failed_and_restored(c: &Container, out: &Out, step: &str, was: &Before) {
    assert_failed_at(out, step);
    assert!(
        !out.stderr.contains("ROLLBACK INCOMPLETE") && !out.stderr.contains("failed too"),
        "the rollback completed: {}",
        out.both()
    );
    assert_restored(c, &tree(), &was.files);
    assert_eq!(c.nginx_dump(), was.dump, "nginx -T after the failed apply");
    let tt = c.ok("php-fpm8.2 -tt 2>&1 | sed 's/^\\[[^]]*\\] //'");
    assert_eq!(tt, was.tt, "php-fpm8.2 -tt after the failed apply");
    c.ok("systemctl is-active --quiet nginx");
    c.ok(&format!("systemctl is-active --quiet {UNIT}"));
    assert_serves(c, "old.example", OLD_BODY);
    let (master, _) = fpm_children_become(c, was.fpm.1.len());
    assert_eq!(master, was.fpm.0, "PHP-FPM's master is the one before");
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn php_apply_reloads_php_fpm_with_the_pool_then_check_and_rollback() {
    let s = Scenario::start("php: apply reloads PHP-FPM with the plan's pool; check; rollback");
    let c = php_host("php-apply");
    let files = c.snapshot(&tree(), &["/var/lib/nginx-gen"]);
    let stock_pool = c.read(POOL);
    let (master, stock_children) = fpm_pids(&c);
    assert_eq!(
        stock_children.len(),
        2,
        "Debian's stock pool: pm.start_servers = 2"
    );
    let args = php_inputs("php.example");

    let out = apply(&c, &args, &[]);
    assert_eq!(out.code, Some(0), "apply failed: {}", out.both());
    let text = out.stdout.clone();
    assert!(
        text.contains("validated the staged pool /etc/php/8.2/fpm/pool.d/www.conf with /usr/sbin/php-fpm8.2 -t"),
        "{text}"
    );
    assert!(
        text.contains("php-fpm-reload: systemctl reload php8.2-fpm"),
        "{text}"
    );
    assert!(
        text.contains("php-fpm-probe: systemctl is-active --quiet php8.2-fpm; /run/php/php8.2-fpm.sock accepts connections"),
        "{text}"
    );
    // PHP-FPM after nginx's reload and probes.
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {text}"))
    };
    assert!(at("probe-catch-all:") < at("php-fpm-reload:"), "{text}");

    // The pool in place, byte for byte the plan's; the running master took it: the same
    // master (a reload), new children, as many as the plan's pm.start_servers.
    let pool = String::from_utf8(c.read(POOL)).unwrap();
    assert_eq!(pool, generated(&c, &args, "php-fpm"));
    let max = directive(&pool, "pm.max_children").expect("pm.max_children");
    let start: usize = directive(&pool, "pm.start_servers")
        .unwrap()
        .parse()
        .unwrap();
    assert_ne!(
        start, 2,
        "the plan's pm.start_servers differs from the stock pool's"
    );
    let (now, children) = fpm_children_become(&c, start);
    assert_eq!(now, master, "a reload keeps PHP-FPM's master");
    assert!(
        children.iter().all(|p| !stock_children.contains(p)),
        "the stock pool's children are gone"
    );
    let tt = c.ok("php-fpm8.2 -tt 2>&1");
    assert!(
        tt.lines()
            .any(|l| l.trim_end().ends_with(&format!("pm.max_children = {max}"))),
        "php-fpm8.2 -tt shows pm.max_children = {max}:\n{tt}"
    );
    // A PHP page answers through nginx and the new pool.
    assert_eq!(
        get_php(&c, "php.example"),
        (200, "php.example: PHP 8.2\n".into()),
        "index.php through nginx and PHP-FPM"
    );
    s.note(&format!(
        "pm.max_children {max}, {start} children after the reload (stock: 2), same master"
    ));

    // check: the pool as planned, PHP-FPM running it.
    let (_, php) = php_findings(&c, &[]);
    assert!(php.is_empty(), "no php-fpm finding after apply: {php:#?}");

    // A hand edit of the pool is drift, and so is a pool PHP-FPM has not loaded.
    std::thread::sleep(Duration::from_secs(3));
    c.ok(&format!(
        "sed -i 's/^pm.max_children = .*/pm.max_children = 7/' {POOL}"
    ));
    let (code, php) = php_findings(&c, &[]);
    assert_eq!(code, Some(1), "drift: {php:#?}");
    assert!(
        php.iter().any(|f| f["subject"]
            .as_str()
            .is_some_and(|s| s.ends_with("[www]: pm.max_children"))
            && f["planned"] == max.as_str()
            && f["found"] == "7"),
        "pm.max_children 7 is a finding: {php:#?}"
    );
    assert!(
        php.iter().any(|f| f["subject"] == "php8.2-fpm loaded pool"),
        "the edited pool is newer than PHP-FPM's last reload: {php:#?}"
    );

    // rollback: every file as before the apply (the stock pool included), PHP-FPM reloaded
    // with it (the stock pool's 2 children again, same master).
    rollback_restores(&c, &files, "php-fpm-reload: systemctl reload php8.2-fpm");
    assert_eq!(c.read(POOL), stock_pool, "the stock pool, byte for byte");
    let (after, _) = fpm_children_become(&c, 2);
    assert_eq!(after, master);
    c.ok(&format!("systemctl is-active --quiet {UNIT}"));
    assert_serves(&c, "old.example", OLD_BODY);
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_host_pool_without_idle_children_is_replaced_and_restored() {
    let s = Scenario::start("php: the host's pool is pm = ondemand (no idle children)");
    let c = php_host("php-ondemand");
    // The host's own pool keeps no idle children: after a reload its master runs none.
    c.ok(&format!("sed -i 's/^pm = dynamic$/pm = ondemand/' {POOL}"));
    c.ok(&format!("systemctl reload {UNIT}"));
    let (master, _) = fpm_children_become(&c, 0);
    let files = c.snapshot(&tree(), &["/var/lib/nginx-gen"]);
    let host_pool = c.read(POOL);
    let args = php_inputs("php.example");

    // apply: no old child to wait for; the plan's pool (pm = dynamic) starts its own.
    let out = apply(&c, &args, &[]);
    assert_eq!(out.code, Some(0), "apply failed: {}", out.both());
    assert!(
        out.stdout
            .contains("php-fpm-reload: systemctl reload php8.2-fpm (new children in"),
        "{}",
        out.both()
    );
    let pool = String::from_utf8(c.read(POOL)).unwrap();
    let start: usize = directive(&pool, "pm.start_servers")
        .unwrap()
        .parse()
        .unwrap();
    let (now, children) = fpm_children_become(&c, start);
    assert_eq!(now, master, "a reload keeps PHP-FPM's master");
    assert_eq!(
        get_php(&c, "php.example"),
        (200, "php.example: PHP 8.2\n".into())
    );

    // rollback: the host's pool again, whose master shows no new child; the reload is done
    // once the plan's children are gone and the master stays up.
    rollback_restores(&c, &files, "no idle children to show: pm = ondemand?");
    assert_eq!(c.read(POOL), host_pool, "the host's pool, byte for byte");
    // The plan's children are gone and the master took the host's pool: it starts a child
    // only for a connection (the rollback's probe of the socket makes one).
    let (after, now) = fpm_pids(&c);
    assert_eq!(after, master);
    assert!(
        now.len() <= 1 && now.iter().all(|p| !children.contains(p)),
        "the plan's children {children:?} gone, at most the probe's left: {now:?}"
    );
    assert!(c.ok("php-fpm8.2 -tt 2>&1").contains("pm = ondemand"));
    c.ok(&format!("systemctl is-active --quiet {UNIT}"));
    assert_serves(&c, "old.example", OLD_BODY);
    s.note(&format!(
        "{start} children after apply, none after rollback to pm = ondemand, same master"
    ));
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_pool_php_fpm_rejects_or_php_fpm_missing_changes_nothing() {
    let s = Scenario::start("php faults (real): PHP-FPM missing; a pool php-fpm8.2 -t rejects");
    let c = php_host("php-validate");

    // PHP-FPM's program gone: nothing changes, the message names it.
    c.ok("mv /usr/sbin/php-fpm8.2 /usr/sbin/php-fpm8.2.away");
    let was = before_without_tt(&c);
    let out = apply(&c, &php_inputs("php.example"), &[]);
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr
            .contains("failed at step validate: PHP-FPM is not installed: php-fpm8.2"),
        "{}",
        out.both()
    );
    assert_same(
        &was,
        &c.snapshot(&tree(), &[]),
        "files with PHP-FPM missing",
    );
    c.ok("mv /usr/sbin/php-fpm8.2.away /usr/sbin/php-fpm8.2");

    // A local pool file merging into [www]: valid with the stock pool (start_servers 2,
    // max_spare 2 ≥ min_spare 1), not with the plan's (min_spare 3). PHP-FPM runs with it.
    c.write(
        "/etc/php/8.2/fpm/pool.d/zz-local.conf",
        b"[www]\npm.max_spare_servers = 2\n",
    );
    c.ok(&format!("systemctl reload {UNIT}"));
    std::thread::sleep(Duration::from_millis(500));
    let was = before(&c);
    let out = apply(&c, &php_inputs("php.example"), &[]);
    assert!(
        out.stderr
            .contains("php-fpm8.2 -t rejects the staged pool /etc/php/8.2/fpm/pool.d/www.conf")
            && out
                .stderr
                .contains("pm.max_spare_servers(2) must not be less than pm.min_spare_servers"),
        "{}",
        out.both()
    );
    assert!(out.stderr.contains("nothing was changed"), "{}", out.both());
    assert_failed_and_restored(&c, &out, "validate", &was);
    assert!(
        c.backup_sets().is_empty(),
        "nothing was backed up: no file moved"
    );
    s.note(
        "php-fpm8.2 -t of the staged pool refused pm.max_spare_servers 2 < the plan's min_spare 3",
    );
}

fn before_without_tt(c: &Container) -> Snapshot {
    c.snapshot(&tree(), &[])
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn a_failing_php_fpm_step_restores_nginx_and_the_pool() {
    let s = Scenario::start(
        "php faults: php-fpm-probe (injected), a PHP-FPM reload the unit refuses (real)",
    );
    // Injected: PHP-FPM's probe fails after its reload (nginx reloaded and probed before).
    let c = php_host("php-probe");
    let was = before(&c);
    let out = apply(
        &c,
        &php_inputs("php.example"),
        &[("NGINX_GEN_TEST_FAIL_STEP", "php-fpm-probe")],
    );
    assert!(
        out.stdout
            .contains("php-fpm-reload: systemctl reload php8.2-fpm"),
        "PHP-FPM took the new pool before the probe failed: {}",
        out.both()
    );
    assert!(
        // The first apply creates nginx's drop-in: nginx was restarted, and is again.
        out.stderr
            .contains("nginx was restarted with the previous files")
            && out
                .stderr
                .contains("PHP-FPM was reloaded with the previous pool, and is active"),
        "nginx restarted and PHP-FPM reloaded with the previous files: {}",
        out.both()
    );
    assert_failed_and_restored(&c, &out, "php-fpm-probe", &was);
    drop(c);

    // Real: a drop-in of the host's whose ExecReload refuses once (while
    // /run/fail-next-fpm-reload exists), then reloads as Debian's unit does.
    let c = php_host("php-reload");
    c.write(
        "/etc/systemd/system/php8.2-fpm.service.d/refuse.conf",
        b"[Service]\nExecReload=\nExecReload=/bin/sh -c 'if [ -e /run/fail-next-fpm-reload ]; then rm -f /run/fail-next-fpm-reload; echo reload refused by the test drop-in >&2; exit 1; fi; exec /bin/kill -USR2 $MAINPID'\n",
    );
    c.ok(&format!(
        "systemctl daemon-reload && systemctl reload {UNIT}"
    ));
    std::thread::sleep(Duration::from_millis(500));
    fpm_children_become(&c, 2);
    let was = before(&c);
    c.ok("touch /run/fail-next-fpm-reload");
    let out = apply(&c, &php_inputs("php.example"), &[]);
    assert!(
        !c.path("/run/fail-next-fpm-reload").exists()
            && out
                .stderr
                .contains("systemctl reload php8.2-fpm failed (exit status: 1)"),
        "the reload ran (and refused): {}",
        out.both()
    );
    assert!(
        c.ok(&format!("journalctl -u {UNIT} --no-pager"))
            .contains("reload refused by the test drop-in"),
        "the unit's journal has the refusal"
    );
    assert_failed_and_restored(&c, &out, "php-fpm-reload", &was);
    s.note("both faults: files byte for byte, nginx -T and php-fpm8.2 -tt as before, both active");
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_install_script_checks_the_pool_reloads_php_fpm_and_runs_again() {
    let s = Scenario::start(
        "php: the install script checks the pool, reloads PHP-FPM, runs again, rolls back; a pool php-fpm8.2 -t rejects changes nothing",
    );
    let c = php_host("php-script");
    let (master, stock_children) = fpm_pids(&c);
    let args = php_inputs("php.example");

    let out = script(&c, &args);
    assert_eq!(out.code, Some(0), "the script failed: {}", out.both());
    for said in [
        "php-fpm8.2 -t passed the staged pool /etc/php/8.2/fpm/pool.d/www.conf",
        "reloaded php8.2-fpm with the pool /etc/php/8.2/fpm/pool.d/www.conf; active",
    ] {
        assert!(out.stdout.contains(said), "{said}: {}", out.both());
    }
    let first = String::from_utf8(c.read(POOL)).unwrap();
    assert_eq!(first, generated(&c, &args, "php-fpm"));
    let start: usize = directive(&first, "pm.start_servers")
        .unwrap()
        .parse()
        .unwrap();
    let (now, children) = fpm_children_replaced(&c, &stock_children, start);
    assert_eq!(now, master, "a reload keeps PHP-FPM's master");
    assert_eq!(
        get_php(&c, "php.example"),
        (200, "php.example: PHP 8.2\n".into()),
        "index.php through nginx and the script's pool"
    );

    // Again with larger children: the manifest names the pool, which is the script's own.
    let mut bigger = args.clone();
    bigger.extend(["--php-child-memory".into(), "128M".into()]);
    let out = script(&c, &bigger);
    assert_eq!(out.code, Some(0), "the second run failed: {}", out.both());
    let second = String::from_utf8(c.read(POOL)).unwrap();
    assert_eq!(second, generated(&c, &bigger, "php-fpm"));
    let max = |pool: &str| directive(pool, "pm.max_children").unwrap();
    assert_ne!(max(&second), max(&first), "128M children: fewer of them");
    let start2: usize = directive(&second, "pm.start_servers")
        .unwrap()
        .parse()
        .unwrap();
    let (now, _) = fpm_children_replaced(&c, &children, start2);
    assert_eq!(now, master, "reloaded again, same master");

    // rollback restores the first run's pool and reloads PHP-FPM with it.
    let back = c.nginx_gen(&["rollback"], &[]);
    assert_eq!(back.code, Some(0), "rollback failed: {}", back.both());
    assert!(
        back.stdout
            .contains("php-fpm-reload: systemctl reload php8.2-fpm"),
        "{}",
        back.both()
    );
    assert_eq!(String::from_utf8(c.read(POOL)).unwrap(), first);

    // A local pool file that makes any www pool invalid: the next run changes nothing.
    c.write(
        "/etc/php/8.2/fpm/pool.d/zz-local.conf",
        b"[www]\npm.max_children = 0\n",
    );
    let was = c.snapshot(&tree(), &[]);
    let out = script(&c, &bigger);
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr.contains(
            "failed at step validate: php-fpm8.2 -t rejects the staged pool /etc/php/8.2/fpm/pool.d/www.conf"
        ) && out.stderr.contains("pm.max_children")
            && out.stderr.contains("nothing was changed"),
        "{}",
        out.both()
    );
    assert_same(
        &was,
        &c.snapshot(&tree(), &[]),
        "files after the refused pool",
    );
    c.ok(&format!("systemctl is-active --quiet {UNIT}"));
    s.note(&format!(
        "pm.max_children {} then {}, each taken by a reload of the same master; php-fpm8.2 -t refused pm.max_children = 0",
        max(&first),
        max(&second)
    ));
}
