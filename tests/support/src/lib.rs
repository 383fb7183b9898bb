//! # nginx-gen-testsupport
//!
//! Shared by the CLI's `nginx -t` test (`tests/nginx_t.rs`), the verification harness
//! (`tests/verify`) and the benchmark harness (`bench/`), so each does not keep its own copy:
//! a self-signed certificate made by the real `openssl req`, never a fixture or a mock; the
//! README's command; running a program with its stderr in the error.
#![allow(
    clippy::disallowed_methods,
    reason = "test support: it runs openssl and writes files"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A certificate and its private key, both PEM files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Writes `cert.pem` and `key.pem` into `dir` (which must exist): a self-signed ECDSA P-256
/// certificate for `common_name`, valid two days, made by `openssl req`. Good for
/// `nginx -t` and for TLS under load (wrk and curl -k do not verify it); not trusted by
/// anything, so stapling warnings about its missing issuer are expected.
pub fn self_signed(dir: &Path, common_name: &str) -> Result<Certificate, String> {
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    let out = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
        ])
        .arg(format!("/CN={common_name}"))
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .map_err(|e| format!("cannot run openssl (scripts/setup.sh installs it): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "openssl req failed in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(Certificate { cert, key })
}

/// The README's proxy-and-TLS command (README.md, "Using the CLI"), without the upstream
/// (`--upstream` follows, each test names its application) and the certificate flags.
pub const README_PROXY_TLS: &[&str] = &[
    "--vcpu",
    "2",
    "--ram",
    "4G",
    "--workload",
    "proxy",
    "--tls",
    "--server-name",
    "example.com",
];

/// Runs `program` with `args` (stdin closed) and waits; when it fails, the error names the
/// command and carries its stderr.
pub fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openssl(args: &[&str], file: &Path) -> String {
        let out = Command::new("openssl")
            .args(args)
            .arg(file)
            .output()
            .expect("openssl runs");
        assert!(out.status.success(), "openssl {args:?} failed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[test]
    fn makes_a_matching_p256_pair_for_the_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let c = self_signed(dir.path(), "bench.test").expect("certificate");
        assert_eq!(c.cert, dir.path().join("cert.pem"));
        assert_eq!(c.key, dir.path().join("key.pem"));
        let subject = openssl(&["x509", "-noout", "-subject", "-in"], &c.cert);
        assert!(
            subject.contains("CN = bench.test") || subject.contains("CN=bench.test"),
            "{subject}"
        );
        let text = openssl(&["x509", "-noout", "-text", "-in"], &c.cert);
        assert!(
            text.contains("prime256v1") || text.contains("P-256"),
            "{text}"
        );
        // The key is the certificate's: both give the same public key.
        let from_cert = openssl(&["x509", "-noout", "-pubkey", "-in"], &c.cert);
        let from_key = openssl(&["pkey", "-pubout", "-in"], &c.key);
        assert_eq!(from_cert, from_key);
        // Valid now and for a day at least (two days requested).
        openssl(&["x509", "-noout", "-checkend", "86400", "-in"], &c.cert);
    }

    #[test]
    fn says_why_when_openssl_fails() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("no-such-dir");
        let e = self_signed(&missing, "x.test").expect_err("no directory to write into");
        assert!(e.starts_with("openssl req failed in "), "{e}");
        assert!(e.contains("no-such-dir"), "{e}");
    }
}
