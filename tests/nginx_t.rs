//! Real `nginx -t` on generated trees: at least 200 input combinations for nginx 1.22
//! (Debian 12's package, with the brotli modules), written by the CLI with `--out` and
//! checked as a whole with `nginx -t -c DIR/etc/nginx/nginx.conf`.
//!
//! Needs Debian's nginx and the `nginx` system user (for the rhel layout); `scripts/setup.sh`
//! installs both. Fails, never skips, when they are missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const BIN: &str = env!("CARGO_BIN_EXE_nginx-gen");

fn nginx() -> PathBuf {
    for candidate in ["/usr/sbin/nginx", "/usr/bin/nginx"] {
        if Path::new(candidate).exists() {
            return candidate.into();
        }
    }
    panic!("nginx is not installed: run scripts/setup.sh (installs Debian's nginx 1.22)");
}

/// One combination: the CLI flags.
fn combinations(cert: &Path, key: &Path) -> Vec<Vec<String>> {
    let machines = [("1", "512M"), ("4", "8G"), ("64", "256G")];
    let layouts = [("debian", false), ("debian", true), ("rhel", false)];
    let tls_modes: [Option<&str>; 3] = [None, Some("intermediate"), Some("modern")];
    let mut out = Vec::new();
    let mut n = 0;
    for workload in ["static", "proxy", "api", "mixed"] {
        for (vcpu, ram) in machines {
            for (layout, brotli) in layouts {
                for tls in tls_modes {
                    for behind_lb in [false, true] {
                        n += 1;
                        let mut args: Vec<String> = [
                            "--no-detect",
                            "--vcpu",
                            vcpu,
                            "--ram",
                            ram,
                            "--workload",
                            workload,
                            "--layout",
                            layout,
                            "--nginx-version",
                            "1.22.1",
                            "--openssl-version",
                            "3.0.11",
                        ]
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                        if brotli {
                            args.push("--brotli".into());
                        }
                        if behind_lb {
                            args.extend([
                                "--behind-lb".into(),
                                "--trusted-proxy".into(),
                                "10.1.0.0/16".into(),
                            ]);
                        }
                        if let Some(profile) = tls {
                            args.extend(["--tls".into(), "--tls-profile".into(), profile.into()]);
                            args.extend(["--tls-cert".into(), cert.display().to_string()]);
                            args.extend(["--tls-key".into(), key.display().to_string()]);
                        }
                        // Vary the rest so every input takes several values across the grid.
                        match n % 4 {
                            0 => args.extend(
                                [
                                    "--server-name",
                                    "example.com",
                                    "--server-name",
                                    "www.example.com",
                                ]
                                .map(String::from),
                            ),
                            1 => args.extend(
                                [
                                    "--listen",
                                    "127.0.0.1:8080",
                                    "--tls-port",
                                    "8443",
                                    "--clients",
                                    "20000",
                                ]
                                .map(String::from),
                            ),
                            2 => args.extend(
                                [
                                    "--upstream",
                                    "10.0.0.2:9000",
                                    "--upstream",
                                    "unix:/run/app.sock",
                                    "--response-size",
                                    "1M",
                                ]
                                .map(String::from),
                            ),
                            _ => args.extend(
                                [
                                    "--listen",
                                    "[::]:80",
                                    "--static-files",
                                    "500000",
                                    "--root",
                                    "/srv/www/site",
                                ]
                                .map(String::from),
                            ),
                        }
                        // Every access log format; the status server on another port, or none.
                        let log = ["timing", "json", "combined", "off"][(n / 4) % 4];
                        args.extend(["--access-log".into(), log.into()]);
                        match (n / 16) % 3 {
                            1 => args.extend(["--status-port".into(), "8081".into()]),
                            2 => args.extend(["--status-port".into(), "0".into()]),
                            _ => {}
                        }
                        // Micro-caching where there is an application, with its header once in two.
                        if workload != "static" && n % 3 != 0 {
                            args.extend(["--cache".into(), "micro".into()]);
                            if n % 2 == 0 {
                                args.push("--cache-status".into());
                            }
                        }
                        // Cloudflare (alone or before the balancer), or the PROXY protocol.
                        match (n % 3, behind_lb) {
                            (1, _) => args.extend(["--cdn".into(), "cloudflare".into()]),
                            (2, false) => args.push("--proxy-protocol".into()),
                            _ => {}
                        }
                        if n % 2 == 1 {
                            args.push("--rate-limit".into());
                        }
                        if n % 5 < 2 {
                            args.extend(["--limit-path".into(), "/login".into()]);
                            args.extend(["--limit-path".into(), "/api/".into()]);
                        }
                        out.push(args);
                    }
                }
            }
        }
    }
    out
}

fn check(nginx: &Path, dir: &Path, args: &[String]) -> Result<(), String> {
    let out = Command::new(BIN)
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .expect("nginx-gen runs");
    if !out.status.success() {
        return Err(format!(
            "nginx-gen {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let conf = dir.join("etc/nginx/nginx.conf");
    let test = Command::new(nginx)
        .arg("-t")
        .arg("-c")
        .arg(&conf)
        .output()
        .expect("nginx runs");
    let stderr = String::from_utf8_lossy(&test.stderr);
    // Zero warnings, too: a config that nginx merely tolerates is not good enough.
    if !test.status.success() || !stderr.contains("test is successful") || stderr.contains("[warn]")
    {
        return Err(format!(
            "nginx -t rejected the output of\n  nginx-gen {}\n{stderr}",
            args.join(" ")
        ));
    }
    Ok(())
}

/// The README's command, on this Debian 12 host with Debian's nginx 1.22.1, without any
/// version flag: detection (nginx -V, layout, brotli, Debian's default site) is not switched
/// off by --vcpu/--ram, so the tree loads; and with nothing detected (--no-detect) the
/// portable form loads too.
#[test]
fn the_readme_command_and_the_portable_form_pass_nginx_t() {
    let nginx = nginx();
    let tmp = tempfile::tempdir().expect("temp dir");
    let nginx_gen_testsupport::Certificate { cert, key } =
        nginx_gen_testsupport::self_signed(tmp.path(), "example.com").expect("test certificate");
    let readme: Vec<String> = nginx_gen_testsupport::README_PROXY_TLS
        .iter()
        .copied()
        .chain(["--upstream", "127.0.0.1:3000"])
        .map(String::from)
        .chain([
            "--tls-cert".into(),
            cert.display().to_string(),
            "--tls-key".into(),
            key.display().to_string(),
        ])
        .collect();
    let mut failures = Vec::new();
    for (i, extra) in [
        &[][..],
        &["--no-detect"][..],
        &["--no-detect", "--release", "ubuntu-22.04"][..],
    ]
    .iter()
    .enumerate()
    {
        let mut args = readme.clone();
        args.extend(extra.iter().map(ToString::to_string));
        if let Err(e) = check(&nginx, &tmp.path().join(format!("readme-{i}")), &args) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let nginx_conf =
        std::fs::read_to_string(tmp.path().join("readme-0/etc/nginx/nginx.conf")).unwrap();
    assert!(
        nginx_conf.contains("Written for nginx 1.22.1 with OpenSSL"),
        "{nginx_conf}"
    );
    assert!(
        nginx_conf.contains("include sites-enabled/*;"),
        "{nginx_conf}"
    );
    let portable =
        std::fs::read_to_string(tmp.path().join("readme-1/etc/nginx/nginx.conf")).unwrap();
    assert!(
        portable.contains("Written for nginx 1.18.0 or any later version"),
        "{portable}"
    );
}

#[test]
fn nginx_1_22_accepts_every_generated_tree() {
    let nginx = nginx();
    assert!(
        Command::new("getent")
            .args(["passwd", "nginx"])
            .output()
            .is_ok_and(|o| o.status.success()),
        "the rhel layout runs workers as user nginx: run scripts/setup.sh (creates the system user)"
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let nginx_gen_testsupport::Certificate { cert, key } =
        nginx_gen_testsupport::self_signed(tmp.path(), "example.com").expect("test certificate");
    let cases = combinations(&cert, &key);
    assert!(cases.len() >= 200, "only {} combinations", cases.len());

    let next = Mutex::new(cases.iter().enumerate());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let Some((i, args)) = next.lock().unwrap().next() else {
                        break;
                    };
                    let dir = tmp.path().join(format!("case-{i}"));
                    if let Err(e) = check(&nginx, &dir, args) {
                        failures.lock().unwrap().push(e);
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} trees failed nginx -t:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("nginx -t passed on {} generated trees", cases.len());
}
