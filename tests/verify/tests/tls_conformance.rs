//! TLS conformance against a running server: generated TLS trees for the intermediate and
//! modern profiles are started with a real nginx inside a network namespace of their own
//! (`unshare -n`, loopback up, so ports 80 and 443 are free and nothing leaves the
//! namespace) and scanned by sslyze with `--mozilla_config=<profile>`.
//!
//! Builds: Debian's nginx 1.22.1 (OpenSSL 3.0) and the OpenSSL 3.5 build of
//! `scripts/build-nginx.sh` (`NGINX_GEN_NGINX_1_30_OPENSSL_3_5`, else the stand-in
//! `NGINX_GEN_NGINX_1_26_OPENSSL_3_5`), whose trees carry the post-quantum group list.
//!
//! The one exclusion: sslyze's `certificate_path_validation`, because the test certificate
//! (`nginx_gen_testsupport::self_signed`, ECDSA P-256, two days) is self-signed and no
//! public trust store can know it. Every other check of sslyze's Mozilla profile must pass:
//! TLS versions, TLS 1.2 and 1.3 suites, key-exchange groups, ECDH size, certificate type,
//! curve, signature and lifespan, and the vulnerability checks (compression, CCS injection,
//! fallback SCSV, Heartbleed, ROBOT, secure renegotiation, extended master secret).
//!
//! Needs root (network namespace), `ip`, and sslyze in `.venv/` (`NGINX_GEN_SSLYZE`):
//! `#[ignore]`d, run by `scripts/stages/50-verify.sh`.
#![allow(clippy::format_push_string, reason = "failure reports only")]
#![allow(
    clippy::disallowed_methods,
    reason = "a test harness reads files, the environment and runs processes"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use nginx_gen_core::{Inputs, Plan, RawInputs, render};
use nginx_gen_verify::nginx::{self, Nginx};

/// sslyze issues that a self-signed test certificate causes by nature, not the
/// configuration.
const CERTIFICATE_ONLY: &[&str] = &["certificate_path_validation"];

fn sslyze() -> PathBuf {
    std::env::var_os("NGINX_GEN_SSLYZE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/sslyze"),
        PathBuf::from,
    )
}

/// The OpenSSL 3.5 build the stage names, if any.
fn openssl_3_5_build() -> Option<Nginx> {
    Nginx::built("NGINX_GEN_NGINX_1_30_OPENSSL_3_5")
        .or_else(|| Nginx::built("NGINX_GEN_NGINX_1_26_OPENSSL_3_5"))
}

struct Scan {
    issues: Vec<String>,
    protocols: Vec<String>,
    curves: String,
    output: String,
}

/// Issue names (`* name: text` lines) of sslyze's compliance section; empty when compliant.
fn parse(output: &str) -> Scan {
    let compliance = output
        .split("COMPLIANCE AGAINST")
        .nth(1)
        .unwrap_or_default();
    let issues = compliance
        .lines()
        .filter_map(|l| l.trim().strip_prefix("* "))
        .filter_map(|l| l.split_once(':').map(|(name, _)| name.trim().to_owned()))
        .collect();
    let mut protocols = Vec::new();
    let mut section = "";
    for line in output.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("* ") {
            section = rest.trim_end_matches(':');
            continue;
        }
        if t.starts_with("The server accepted the following") {
            protocols.push(section.replace(" Cipher Suites", ""));
        }
    }
    let curves = output
        .lines()
        .find_map(|l| l.trim().strip_prefix("Supported curves:"))
        .unwrap_or("?")
        .trim()
        .to_owned();
    Scan {
        issues,
        protocols,
        curves,
        output: output.to_owned(),
    }
}

/// Generates the tree, starts nginx in a fresh network namespace, scans it, stops nginx.
fn scan(nginx: &Nginx, nginx_version: &str, openssl: &str, profile: &str) -> Scan {
    let dir = tempfile::Builder::new()
        .prefix("nginx-gen-sslyze-")
        .tempdir()
        .expect("temp dir");
    let cert = nginx_gen_testsupport::self_signed(dir.path(), "example.com").expect("certificate");
    let raw: RawInputs = serde_json::from_value(serde_json::json!({
        "vcpu": 2, "ram": "2G", "workload": "static",
        "nginx_version": nginx_version, "openssl_version": openssl,
        "tls": true, "tls_profile": profile,
        "tls_cert": cert.cert.display().to_string(), "tls_key": cert.key.display().to_string(),
        "server_names": ["example.com"], "layout": "nginx-org", "listen": ["80"],
        "root": dir.path().join("www").display().to_string(),
    }))
    .expect("input document");
    let inputs = Inputs::from_raw(&raw).expect("valid inputs");
    let files = render::files(&Plan::new(&inputs));
    let conf = nginx::write_tree(&dir.path().join("tree"), &files).expect("write tree");
    // Only where the running server keeps its pid file and error log moves into the temp
    // directory (the tree's own point at the distribution's paths); nothing else changes.
    let pid = dir.path().join("nginx.pid");
    let text = std::fs::read_to_string(&conf).expect("read nginx.conf");
    let patched: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("pid ") {
                format!("pid {};", pid.display())
            } else if l.starts_with("error_log ") {
                format!("error_log {} warn;", dir.path().join("error.log").display())
            } else {
                l.to_owned()
            }
        })
        .collect();
    std::fs::write(&conf, patched.join("\n") + "\n").expect("write nginx.conf");
    std::fs::create_dir_all(dir.path().join("www")).expect("docroot");

    let prefix = nginx
        .prefix
        .as_ref()
        .map(|p| format!("-p '{}'", p.display()))
        .unwrap_or_default();
    let script = format!(
        "set -e
ip link set lo up
'{bin}' {prefix} -c '{conf}'
trap 'kill $(cat {pid}) 2>/dev/null || true' EXIT
for i in $(seq 50); do [ -s '{pid}' ] && break; sleep 0.1; done
'{sslyze}' --mozilla_config={profile} 'example.com:443{{127.0.0.1}}' || true
",
        bin = nginx.bin.display(),
        conf = conf.display(),
        pid = pid.display(),
        sslyze = sslyze().display(),
    );
    let out = Command::new("unshare")
        .args(["-n", "sh", "-c", &script])
        .output()
        .expect("unshare runs (root, util-linux)");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && output.contains("SCANS COMPLETED"),
        "nginx or sslyze did not run ({}):\n{output}\nerror log:\n{}",
        out.status,
        std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default()
    );
    parse(&output)
}

#[test]
#[ignore = "needs root, Debian's nginx 1.22, the OpenSSL 3.5 build and sslyze: run by scripts/stages/50-verify.sh"]
fn tls_conformance_sslyze() {
    let mut builds = vec![Nginx::debian()];
    builds.extend(openssl_3_5_build());
    assert!(
        builds.len() == 2 || std::env::var_os("NGINX_GEN_VERIFY_NO_OPENSSL_3_5").is_some(),
        "no OpenSSL 3.5 build named (NGINX_GEN_NGINX_1_30_OPENSSL_3_5 or NGINX_GEN_NGINX_1_26_OPENSSL_3_5)"
    );
    let mut failures = String::new();
    for nginx in &builds {
        let version = nginx.version().expect("nginx -v");
        let version = version.trim_start_matches("nginx/");
        let openssl = nginx.openssl().expect("nginx -V");
        let openssl_input = openssl.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        for profile in ["intermediate", "modern"] {
            let s = scan(nginx, version, openssl_input, profile);
            let real: Vec<&String> = s
                .issues
                .iter()
                .filter(|i| !CERTIFICATE_ONLY.contains(&i.as_str()))
                .collect();
            eprintln!(
                "sslyze --mozilla_config={profile}: nginx {version} (OpenSSL {openssl}): {} (protocols {}; curves {}; excluded: {:?})",
                if real.is_empty() {
                    "compliant"
                } else {
                    "NOT compliant"
                },
                s.protocols.join(", "),
                s.curves,
                s.issues
                    .iter()
                    .filter(|i| CERTIFICATE_ONLY.contains(&i.as_str()))
                    .collect::<Vec<_>>()
            );
            if !real.is_empty() {
                failures.push_str(&format!(
                    "\n--- nginx {version}, OpenSSL {openssl}, {profile}: {real:?}\n{}\n",
                    s.output
                ));
            }
        }
    }
    assert!(failures.is_empty(), "sslyze: not compliant{failures}");
}

#[test]
fn compliance_section_is_read() {
    let out = " * TLS 1.2 Cipher Suites:\n     The server accepted the following 6 cipher suites:\n \
               * TLS 1.3 Cipher Suites:\n     The server accepted the following 3 cipher suites:\n \
               * Elliptic Curve Key Exchange:\n       Supported curves:   X25519, secp256r1\n \
               COMPLIANCE AGAINST TLS CONFIGURATION\n    example.com:443: FAILED - Not compliant.\n        \
               * certificate_path_validation: Certificate path validation failed for CN=x.\n        \
               * tls_versions: TLS versions {'TLSv1.1'} are supported, but should be rejected.\n";
    let s = parse(out);
    assert_eq!(s.issues, ["certificate_path_validation", "tls_versions"]);
    assert_eq!(s.protocols, ["TLS 1.2", "TLS 1.3"]);
    assert_eq!(s.curves, "X25519, secp256r1");
    assert!(
        parse("COMPLIANCE AGAINST\n  example.com:443: OK - Compliant.\n")
            .issues
            .is_empty()
    );
}
