//! End-to-end tests of the `nginx-gen` binary: output snapshots, bad input, `--out`,
//! `explain`, completions, man page and host detection.

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use insta_cmd::assert_cmd_snapshot;

const BIN: &str = env!("CARGO_BIN_EXE_nginx-gen");

fn cli() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("NO_COLOR", "1");
    cmd
}

fn run(args: &[&str]) -> std::process::Output {
    cli().args(args).output().expect("nginx-gen runs")
}

fn files_under(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path.display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

mod snapshots {
    use super::*;

    #[test]
    fn guide_machine_all_files() {
        // Snapshots do not depend on the host: detection has tests of its own below.
        assert_cmd_snapshot!(cli().args(["--vcpu", "4", "--ram", "8G", "--no-detect"]));
    }

    #[test]
    fn proxy_with_tls_for_debian_12() {
        assert_cmd_snapshot!(cli().args([
            "--vcpu",
            "2",
            "--ram",
            "2G",
            "--workload",
            "proxy",
            "--tls",
            "--server-name",
            "example.org",
            "--upstream",
            "127.0.0.1:3000",
            "--no-detect",
            "--release",
            "debian-12",
            "--format",
            "site",
        ]));
    }

    #[test]
    fn explain_one_directive() {
        assert_cmd_snapshot!(cli().args([
            "explain",
            "worker_rlimit_nofile",
            "--vcpu",
            "4",
            "--ram",
            "8G"
        ]));
    }

    #[test]
    fn explain_an_omitted_sysctl() {
        assert_cmd_snapshot!(cli().args(["explain", "fs.file-max", "--vcpu", "4", "--ram", "8G"]));
    }

    #[test]
    fn bad_input_names_every_field() {
        assert_cmd_snapshot!(cli().args(["--vcpu", "0", "--ram", "8Q", "--server-name", "a;b"]));
    }
}

mod bad_input {
    use super::*;

    /// Each case: flags, the field its message must name.
    const CASES: &[(&[&str], &str)] = &[
        (&["--vcpu", "0", "--ram", "8G"], "--vcpu"),
        (&["--vcpu", "2000", "--ram", "8G"], "--vcpu"),
        (&["--vcpu", "four", "--ram", "8G"], "--vcpu"),
        (&["--vcpu", "4", "--ram", "8Q"], "--ram"),
        (&["--vcpu", "4", "--ram", "-1G"], "--ram"),
        (&["--vcpu", "4", "--ram", "99999T"], "--ram"),
        (&["--vcpu", "4", "--ram", "100M"], "--ram"),
        (
            &["--vcpu", "4", "--ram", "8G", "--workload", "foo"],
            "--workload",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--server-name", "a;b"],
            "--server-name",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--server-name", "a{"],
            "--server-name",
        ),
        (
            &[
                "--vcpu",
                "4",
                "--ram",
                "8G",
                "--server-name",
                "evil.com; include /etc/passwd",
            ],
            "--server-name",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--root", "/var/www;"],
            "--root",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--upstream", "10.0.0.1"],
            "--upstream",
        ),
        (&["--vcpu", "4", "--ram", "8G", "--listen", "0"], "--listen"),
        (
            &[
                "--vcpu",
                "4",
                "--ram",
                "8G",
                "--http3",
                "--tls",
                "--nginx-version",
                "1.22",
            ],
            "--http3",
        ),
        (&["--vcpu", "4", "--ram", "8G", "--http3"], "--http3"),
        (
            &["--vcpu", "4", "--ram", "8G", "--nginx-version", "1.2.3.4"],
            "--nginx-version",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--clients", "-5"],
            "--clients",
        ),
        (
            &["--vcpu", "4", "--ram", "8G", "--format", "yaml"],
            "--format",
        ),
    ];

    #[test]
    fn every_case_exits_2_naming_the_field_and_writes_nothing() {
        for (args, field) in CASES {
            let out_dir = tempfile::tempdir().unwrap();
            let out = cli()
                .args(*args)
                .arg("--out")
                .arg(out_dir.path())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains(field),
                "{args:?} should name {field}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
            assert!(
                files_under(out_dir.path()).is_empty(),
                "{args:?} wrote files"
            );
        }
    }

    fn with_input(json: &str) -> (std::process::Output, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.json");
        std::fs::write(&input, json).unwrap();
        let out_dir = dir.path().join("out");
        let out = cli()
            .arg("--input")
            .arg(&input)
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        (out, files_under(&out_dir))
    }

    #[test]
    fn malformed_and_unknown_json() {
        for (json, field) in [
            ("{\"vcpu\": 4, ", "input"),
            ("not json", "input"),
            (r#"{"vcpu": 4, "ram": "8G", "cpus": 4}"#, "cpus"),
            (r#"{"vcpu": 4, "ram": "8G", "tls": "yes"}"#, "tls"),
            (
                r#"{"vcpu": 4, "ram": "8G", "server_names": ["ok.example", "x{y"]}"#,
                "server_names",
            ),
            (r#"{"vcpu": 4.5, "ram": "8G"}"#, "vcpu"),
        ] {
            let (out, written) = with_input(json);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{json}: {stderr}");
            assert!(
                stderr.contains(field),
                "{json} should name {field}: {stderr}"
            );
            assert!(written.is_empty(), "{json} wrote {written:?}");
        }
    }

    #[test]
    fn unreadable_input_file_is_a_usage_error() {
        let out = run(&["--input", "/nonexistent/in.json"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--input"));
    }
}

mod output {
    use super::*;

    #[test]
    fn out_writes_the_four_files_that_stdout_shows() {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            "--vcpu",
            "2",
            "--ram",
            "4G",
            "--workload",
            "mixed",
            "--server-name",
            "shop.example",
        ];
        let out = cli()
            .args(args)
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let mut written = files_under(dir.path());
        written.sort();
        let rel: Vec<_> = written
            .iter()
            .map(|p| {
                p.trim_start_matches(&dir.path().display().to_string())
                    .to_owned()
            })
            .collect();
        assert_eq!(
            rel,
            [
                "/etc/nginx/conf.d/shop.example.conf",
                "/etc/nginx/nginx.conf",
                "/etc/sysctl.d/99-nginx-gen.conf",
                "/etc/systemd/system/nginx.service.d/nginx-gen.conf",
            ]
        );
        let all = String::from_utf8(run(&args).stdout).unwrap();
        for path in &rel {
            let contents =
                std::fs::read_to_string(format!("{}{path}", dir.path().display())).unwrap();
            assert!(
                all.contains(&format!("==> {path} <==\n{contents}")),
                "{path} differs from stdout"
            );
        }
    }

    #[test]
    fn out_into_an_unwritable_place_fails_with_1_and_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        // A file where a directory must go: creating etc/sysctl.d fails after nginx's files.
        std::fs::create_dir_all(dir.path().join("etc/nginx")).unwrap();
        std::fs::write(dir.path().join("etc/sysctl.d"), "in the way").unwrap();
        let out = cli()
            .args(["--vcpu", "1", "--ram", "1G", "--out"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let left: Vec<_> = files_under(dir.path())
            .into_iter()
            .filter(|p| !p.ends_with("etc/sysctl.d"))
            .collect();
        assert!(left.is_empty(), "half-written: {left:?}");
    }

    #[test]
    fn every_format_prints_and_json_round_trips_as_input() {
        let json = String::from_utf8(
            run(&[
                "--vcpu",
                "8",
                "--ram",
                "16G",
                "--workload",
                "api",
                "--tls",
                "--format",
                "json",
            ])
            .stdout,
        )
        .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(doc["schema_version"], 1);
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("inputs.json");
        std::fs::write(&input, doc["inputs"].to_string()).unwrap();
        let again = cli()
            .arg("--input")
            .arg(&input)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(again.stdout).unwrap(),
            json,
            "the JSON's inputs reproduce it"
        );
        for format in [
            "all", "nginx", "site", "sysctl", "systemd", "explain", "script",
        ] {
            let out = run(&["--vcpu", "1", "--ram", "1G", "--format", format]);
            assert!(out.status.success() && !out.stdout.is_empty(), "{format}");
        }
    }

    #[test]
    fn stdin_input_and_flag_override() {
        let mut child = cli()
            .args(["--input", "-", "--ram", "2G", "--format", "json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(br#"{"vcpu": 3, "ram": "64G"}"#)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["inputs"]["vcpu"], 3);
        assert_eq!(doc["inputs"]["ram"], "2G", "flags win over the file");
    }

    #[test]
    fn unknown_explain_name_lists_known_ones() {
        let out = run(&["explain", "worker_conections", "--vcpu", "1", "--ram", "1G"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("worker_connections"));
    }

    #[test]
    fn completions_man_help_schema_version() {
        for shell in ["bash", "zsh", "fish"] {
            let out = run(&["completions", shell]);
            assert!(
                out.status.success() && String::from_utf8_lossy(&out.stdout).contains("vcpu"),
                "{shell}"
            );
        }
        let man = run(&["man"]);
        assert!(String::from_utf8_lossy(&man.stdout).contains(".TH nginx-gen"));
        let help = String::from_utf8(run(&["--help"]).stdout).unwrap();
        assert!(help.contains("Examples:") && help.contains("--workload"));
        let schema: serde_json::Value = serde_json::from_slice(&run(&["schema"]).stdout).unwrap();
        assert_eq!(schema["properties"]["ram"]["type"], "string");
        assert_eq!(schema["additionalProperties"], false);
        let version = String::from_utf8(run(&["--version"]).stdout).unwrap();
        assert_eq!(
            version.trim(),
            format!("nginx-gen {}", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn detects_the_host_when_the_machine_is_not_described() {
        let out = run(&["--format", "json"]);
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("detected") && stderr.contains("vCPU") && stderr.contains("RAM"),
            "{stderr}"
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let cpus = std::thread::available_parallelism().unwrap().get() as u64;
        assert!(doc["inputs"]["vcpu"].as_u64().unwrap() <= cpus);
        assert!(doc["command"].as_str().unwrap().contains("--ram "));
    }

    /// Machine-size flags do not switch software detection off: on this Debian 12 host the
    /// nginx and OpenSSL versions, the layout, the brotli modules and Debian's default site
    /// are still detected and used; `--no-detect` gives the portable form.
    #[test]
    fn software_is_detected_when_the_machine_is_described() {
        let out = run(&["--vcpu", "2", "--ram", "4G", "--format", "json"]);
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("nginx 1.22.1 with OpenSSL") && !stderr.contains("vCPU"),
            "{stderr}"
        );
        assert!(
            stderr.contains("debian layout (/etc/nginx/sites-enabled)"),
            "{stderr}"
        );
        assert!(
            stderr.contains(
                "an existing default server (/etc/nginx/sites-enabled/default on port 80)"
            ),
            "{stderr}"
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["inputs"]["nginx_version"], "1.22.1");
        assert_eq!(doc["inputs"]["existing_default_server"], true);
        assert_eq!(doc["inputs"]["vcpu"], 2);
        // A given version wins over the detected one, the rest is still detected.
        let given = run(&[
            "--vcpu",
            "2",
            "--ram",
            "4G",
            "--nginx-version",
            "1.26",
            "--format",
            "json",
        ]);
        let doc: serde_json::Value = serde_json::from_slice(&given.stdout).unwrap();
        assert_eq!(doc["inputs"]["nginx_version"], "1.26.0");
        assert_eq!(doc["inputs"]["layout"], "debian");
        let portable = run(&[
            "--no-detect",
            "--vcpu",
            "2",
            "--ram",
            "4G",
            "--format",
            "json",
        ]);
        assert!(portable.stderr.is_empty());
        let doc: serde_json::Value = serde_json::from_slice(&portable.stdout).unwrap();
        assert_eq!(doc["inputs"]["nginx_version"], "any");
        assert_eq!(doc["inputs"]["release"], "any");
    }

    #[test]
    fn no_color_means_no_escape_codes() {
        let out = run(&["--vcpu", "0"]);
        assert!(!out.stderr.contains(&0x1b), "escape codes despite NO_COLOR");
    }
}

/// The "Reproduce with" command of a file reproduces every file byte for byte, on this host
/// and without it: it carries every input, `--no-detect` and the policy.
#[test]
fn the_reproduce_command_reproduces_the_output() {
    let first = run(&[
        "--vcpu",
        "2",
        "--ram",
        "3G",
        "--workload",
        "mixed",
        "--tls",
        "--http3",
        "--server-name",
        "example.org",
        "--brotli",
        "--clients",
        "5000",
        // HTTP/3 needs 1.25 or later; this host's nginx is detected otherwise.
        "--nginx-version",
        "1.30",
    ]);
    assert!(first.status.success());
    let text = String::from_utf8(first.stdout).unwrap();
    let command = text
        .lines()
        .skip_while(|l| !l.starts_with("# Reproduce with:"))
        .nth(1)
        .and_then(|l| l.strip_prefix("#   nginx-gen "))
        .expect("the header names the command");
    assert!(
        command.starts_with("--no-detect ") && command.contains(" --policy "),
        "{command}"
    );
    let again = run(&command.split(' ').collect::<Vec<_>>());
    assert!(again.status.success());
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

/// Inputs written for another tuning policy still generate, with a warning naming both.
#[test]
fn another_policy_is_warned_about() {
    let out = run(&[
        "--vcpu", "2", "--ram", "2G", "--policy", "2026.11", "--format", "json",
    ]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warning = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "policy")
        .expect("a policy warning");
    assert_eq!(warning["field"], "policy");
    assert!(warning["message"].as_str().unwrap().contains("2026.11"));
    assert_eq!(doc["inputs"]["policy"], "2026.11");
    let bad = run(&["--policy", "next"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The CDN ranges' age is checked against the clock, or `--today`; the files do not change.
#[test]
fn stale_cdn_ranges_are_warned_about() {
    let args = ["--no-detect", "--cdn", "cloudflare", "--format", "json"];
    let ids = |today: &str| {
        let out = run(&[&args[..], &["--today", today]].concat());
        assert!(out.status.success(), "{out:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let ids: Vec<String> = doc["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["id"].as_str().unwrap().to_owned())
            .collect();
        (ids, doc["settings"].clone())
    };
    let (fresh, settings) = ids("2026-12-31");
    assert!(fresh.is_empty(), "{fresh:?}");
    let (stale, same) = ids("2027-12-31");
    assert_eq!(stale, ["cdn_ranges"]);
    assert_eq!(settings, same);
    assert_eq!(
        run(&[&args[..], &["--today", "12/31/2027"]].concat())
            .status
            .code(),
        Some(2)
    );
    // The PROXY protocol names the client itself: not with a second source.
    let both = run(&["--no-detect", "--proxy-protocol", "--cdn", "cloudflare"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("proxy_protocol"));
}
