//! `nginx-gen --format script` on a booted Debian 12 (systemd as PID 1, Debian's nginx
//! running, a site of its own there before): the generated script, run with `sh` inside the
//! container, does apply's steps — a first run installs and restarts, a second does
//! nothing, another server name replaces the script's own site file, a tree the real
//! `nginx -t` rejects changes nothing, a probe that gets no answer restores every file —
//! and `nginx-gen rollback` restores a script's run.
//!
//! Every test is `#[ignore]`d (root, the cached root, the release binary);
//! `scripts/stages/57-host.sh` runs them:
//! `cargo test -p nginx-gen-host-tests --test script -- --include-ignored --test-threads=1`.

use nginx_gen_host_tests::{
    Container, OLD_BODY, STATE, Scenario, applied, assert_same, assert_serves, body, boot,
    directive, generated, inputs, script,
};

const DROPIN: &str = "/etc/systemd/system/nginx.service.d/nginx-gen.conf";

/// The state a rollback restores (the backup sets and the manifest's directory aside).
const TREE: [&str; 4] = [
    "/etc/nginx",
    "/etc/sysctl.d",
    "/etc/systemd/system/nginx.service.d",
    "/var/www",
];

/// A script run that must succeed: both streams.
fn ran(c: &Container, args: &[String]) -> String {
    let out = script(c, args);
    assert_eq!(out.code, Some(0), "the script failed: {}", out.both());
    out.stdout + &out.stderr
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_script_installs_then_has_nothing_to_do_and_rollback_restores_it() {
    let s = Scenario::start("script: first run, second run, rollback");
    let c = boot("script-first", &["new.example"]);
    let args = inputs("new.example");
    let files = c.snapshot(&TREE, &[]);
    let dump = c.nginx_dump();
    let (master_before, _) = c.nginx_pids();
    let stock = c.nofile(master_before);

    let out = ran(&c, &args);
    assert!(out.contains("nginx -t passed the staged tree"), "{out}");
    assert!(out.contains("restarted nginx"), "a restart, said so: {out}");
    assert!(out.contains("probes: nginx is active"), "{out}");
    assert_serves(&c, "old.example", OLD_BODY);
    assert_serves(&c, "new.example", &body("new.example"));
    for (path, format) in [
        ("/etc/nginx/nginx.conf", "nginx"),
        ("/etc/nginx/conf.d/new.example.conf", "site"),
        ("/etc/sysctl.d/99-nginx-gen.conf", "sysctl"),
        (DROPIN, "systemd"),
    ] {
        assert_eq!(
            String::from_utf8(c.read(path)).unwrap(),
            generated(&c, &args, format),
            "{path}"
        );
    }
    // The drop-in's limit on a new master (clamped to PID 1's hard limit, as in host.rs).
    let limit: u64 = directive(&String::from_utf8(c.read(DROPIN)).unwrap(), "LimitNOFILE")
        .unwrap()
        .parse()
        .unwrap();
    let ceiling: u64 = c.nofile(1).1.parse().unwrap_or(u64::MAX);
    let want = limit.min(ceiling).to_string();
    let (master, _) = c.nginx_pids();
    assert_ne!(master, master_before, "restarted");
    assert_eq!(c.nofile(master), (want.clone(), want), "stock: {stock:?}");
    // The manifest and the backup set are apply's: sha256sum's digests, the set's lists.
    let manifest: serde_json::Value =
        serde_json::from_slice(&c.read("/var/lib/nginx-gen/manifest.json")).unwrap();
    let listed = manifest["files"].as_array().unwrap();
    assert_eq!(listed.len(), 4, "{manifest:#}");
    for f in listed {
        let path = f["path"].as_str().unwrap();
        let sum = c.ok(&format!("sha256sum {path}"));
        assert_eq!(
            sum.split_whitespace().next(),
            f["sha256"].as_str(),
            "{path}"
        );
    }
    let sets = c.backup_sets();
    assert_eq!(sets.len(), 1);
    assert_eq!(manifest["backup"].as_str(), Some(sets[0].as_str()));
    let set: serde_json::Value = serde_json::from_slice(
        &c.read(&format!("/var/lib/nginx-gen/backups/{}/set.json", sets[0])),
    )
    .unwrap();
    assert_eq!(
        set["replaced"],
        serde_json::json!(["/etc/nginx/nginx.conf"]),
        "{set:#}"
    );
    assert_eq!(set["created"].as_array().unwrap().len(), 4, "{set:#}");
    s.note(&format!(
        "set.json: replaced {}, created_dirs {}",
        set["replaced"], set["created_dirs"]
    ));

    // Again: nothing to do, nothing touched.
    let after = c.snapshot(&STATE, &[]);
    let out = ran(&c, &args);
    assert!(out.contains("nothing to do"), "{out}");
    assert_same(
        &after,
        &c.snapshot(&STATE, &[]),
        "files after the second run",
    );
    assert_eq!(c.nginx_pids().0, master, "neither restarted nor replaced");

    // apply reads the script's manifest as its own: the same inputs, nothing to do.
    let out = applied(&c, &args);
    assert!(out.contains("nothing to do"), "{out}");
    assert_eq!(c.backup_sets(), sets, "no new backup set");

    // nginx-gen rollback restores the script's run.
    let out = c.nginx_gen(&["rollback"], &[]);
    assert_eq!(out.code, Some(0), "rollback failed: {}", out.both());
    assert_same(&files, &c.snapshot(&TREE, &[]), "files after the rollback");
    assert!(!c.path("/var/lib/nginx-gen/manifest.json").exists());
    assert_eq!(c.nginx_dump(), dump, "nginx -T after the rollback");
    let (master, _) = c.nginx_pids();
    assert_eq!(c.nofile(master), stock, "the stock limits again");
    assert_serves(&c, "old.example", OLD_BODY);
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_script_with_another_server_name_replaces_its_own_site() {
    let _s = Scenario::start("script: another server name replaces its site, a reload");
    let c = boot("script-rename", &["new.example", "other.example"]);
    ran(&c, &inputs("new.example"));
    let (master, _) = c.nginx_pids();
    // Piped into sh, as the README shows it.
    c.write(
        "/root/install.sh",
        generated(&c, &inputs("other.example"), "script").as_bytes(),
    );
    let piped = c.sh("cat /root/install.sh | sh");
    assert_eq!(piped.code, Some(0), "{}", piped.both());
    let out = piped.stdout + &piped.stderr;
    assert!(
        !c.path("/etc/nginx/conf.d/new.example.conf").exists(),
        "the old site file is gone: {out}"
    );
    assert!(
        out.contains("removed /etc/nginx/conf.d/new.example.conf"),
        "{out}"
    );
    assert!(out.contains("reloaded nginx"), "{out}");
    assert!(!out.contains("restarted"), "no restart: {out}");
    assert!(
        !out.contains("sysctl --system"),
        "no sysctl --system: {out}"
    );
    assert_eq!(c.nginx_pids().0, master, "a reload keeps the master");
    assert_serves(&c, "other.example", &body("other.example"));
    assert_serves(&c, "old.example", OLD_BODY);
    assert_eq!(
        String::from_utf8(c.read(DROPIN)).unwrap(),
        generated(&c, &inputs("other.example"), "systemd")
    );
    assert_eq!(c.backup_sets().len(), 2);
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_script_changes_nothing_when_nginx_rejects_the_tree() {
    let _s = Scenario::start("script: tree nginx -t rejects, nothing changed");
    let c = boot("script-broken", &["new.example"]);
    let was = c.snapshot(&STATE, &[]);
    let dump = c.nginx_dump();
    // A second default server beside Debian's default site.
    let args: Vec<String> = inputs("new.example")
        .into_iter()
        .filter(|a| a != "--existing-default-server")
        .collect();
    let out = script(&c, &args);
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr.contains("failed at step validate")
            && out.stderr.contains("duplicate default server")
            && out.stderr.contains("nothing was changed"),
        "{}",
        out.both()
    );
    assert!(
        !out.stderr.contains(".nginx-gen-stage"),
        "install paths: {}",
        out.both()
    );
    assert_same(
        &was,
        &c.snapshot(&STATE, &[]),
        "files after the rejected run",
    );
    assert_eq!(c.nginx_dump(), dump);
    assert!(c.backup_sets().is_empty());
    assert_eq!(
        c.sh("ls -a /etc | grep -c nginx-gen-stage").stdout.trim(),
        "0"
    );
    assert_serves(&c, "old.example", OLD_BODY);
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_script_restores_every_file_when_a_probe_gets_no_answer() {
    let s = Scenario::start("script: probe-http gets no answer after the restart, restored");
    let c = boot("script-probe", &["new.example"]);
    // A site of the host's owns 127.0.0.1:80 and closes every connection (444): nginx -t
    // passes, the probe of new.example gets no status line (as host.rs's real probe fault).
    c.write(
        "/etc/nginx/sites-available/loopback-guard",
        b"server {\n    listen 127.0.0.1:80 default_server;\n    return 444;\n}\n",
    );
    c.ok("ln -s ../sites-available/loopback-guard /etc/nginx/sites-enabled/ && systemctl reload nginx");
    let was = c.snapshot(&STATE, &["/var/lib/nginx-gen"]);
    let dump = c.nginx_dump();
    let (master, _) = c.nginx_pids();
    let stock = c.nofile(master);
    let out = script(&c, &inputs("new.example"));
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr.contains("failed at step probe-http")
            && out
                .stderr
                .contains("rolled back: every file restored byte for byte")
            && out.stderr.contains("restore: systemctl daemon-reload")
            && out.stderr.contains("restore: systemctl restart nginx")
            && !out.stderr.contains("failed too"),
        "{}",
        out.both()
    );
    assert_same(
        &was,
        &c.snapshot(&STATE, &["/var/lib/nginx-gen"]),
        "files after the failed run",
    );
    assert!(!c.path("/var/lib/nginx-gen/manifest.json").exists());
    assert_eq!(c.nginx_dump(), dump);
    c.ok("systemctl is-active --quiet nginx");
    assert_eq!(
        c.ok("systemctl show -p NeedDaemonReload --value nginx")
            .trim(),
        "no"
    );
    let (after, _) = c.nginx_pids();
    assert_ne!(after, master, "restarted with the previous files");
    assert_eq!(c.nofile(after), stock, "the stock limits again");
    assert_eq!(c.get_v6("old.example"), (200, OLD_BODY.to_owned()));
    s.note("restored byte for byte; daemon-reload and restart: stock limits");
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn the_script_restores_every_file_when_sysctl_fails_for_another_reason() {
    let _s = Scenario::start("script: sysctl --system fails (EINVAL), restored");
    let c = boot("script-sysctl", &["new.example"]);
    // A value the kernel rejects: not an error the environment causes.
    c.write(
        "/etc/sysctl.d/60-broken.conf",
        b"net.core.somaxconn = not-a-number\n",
    );
    let was = c.snapshot(&STATE, &["/var/lib/nginx-gen"]);
    let (master, _) = c.nginx_pids();
    let out = script(&c, &inputs("new.example"));
    assert_eq!(out.code, Some(1), "{}", out.both());
    assert!(
        out.stderr.contains("failed at step sysctl")
            && out.stderr.contains("Invalid argument")
            && out
                .stderr
                .contains("rolled back: every file restored byte for byte")
            && out.stderr.contains("restore: systemctl daemon-reload")
            && !out.stderr.contains("restore: systemctl restart"),
        "{}",
        out.both()
    );
    assert_same(
        &was,
        &c.snapshot(&STATE, &["/var/lib/nginx-gen"]),
        "files after the failed run",
    );
    assert_eq!(c.nginx_pids().0, master, "nginx was not touched");
    assert_serves(&c, "old.example", OLD_BODY);
}

#[test]
#[ignore = "needs root, scripts/host-root.sh's root and the release binary (stage 57-host)"]
fn without_systemd_as_pid_1_the_script_installs_and_says_what_to_run() {
    let _s = Scenario::start("script: no systemd as PID 1, files installed, a note");
    let c = boot("script-nosystemd", &["new.example"]);
    let (master, _) = c.nginx_pids();
    let args = inputs("new.example");
    c.write(
        "/root/install.sh",
        generated(&c, &args, "script").as_bytes(),
    );
    // /run/systemd/system hidden in a mount namespace of its own: as in a container
    // without systemd.
    let out = c.sh("unshare -m sh -c 'mount -t tmpfs none /run/systemd && sh /root/install.sh'");
    assert_eq!(out.code, Some(0), "{}", out.both());
    assert!(
        out.stdout.contains(
            "note: systemd is not PID 1 here: no reload, restart or probes; run systemctl daemon-reload; systemctl restart nginx where it is"
        ),
        "{}",
        out.both()
    );
    assert!(!out.stdout.contains("probes:"), "{}", out.both());
    assert_eq!(
        String::from_utf8(c.read(DROPIN)).unwrap(),
        generated(&c, &args, "systemd")
    );
    assert!(c.path("/var/lib/nginx-gen/manifest.json").exists());
    assert_eq!(c.nginx_pids().0, master, "nginx was not touched");
    // The next run, with systemd, has nothing to do: the files are installed.
    let again = c.sh("sh /root/install.sh");
    assert!(again.stdout.contains("nothing to do"), "{}", again.both());
}
