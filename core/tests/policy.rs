//! Output changes come with a policy version: the fingerprint of what a fixed grid of
//! inputs generates must equal the one recorded for the current [`POLICY_VERSION`].
//! After an intended change of output, add a row to `POLICY_HISTORY` (core/src/lib.rs)
//! with a new version and the fingerprint this test prints.
#![allow(
    clippy::disallowed_methods,
    reason = "tests may use the host; the library may not"
)]

use std::fmt::Write as _;

use nginx_gen_core::{Inputs, POLICY_HISTORY, POLICY_VERSION, Plan};

/// FNV-1a over the canonical text of the plans.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn canonical(plan: &Plan, out: &mut String) {
    for s in &plan.settings {
        let _ = writeln!(
            out,
            "{:?} {} {} | {} | {} | {:?} | {:?}",
            s.scope,
            s.name,
            s.value(),
            s.reason.id,
            s.reason.why,
            s.reason.formula,
            s.reason.default
        );
    }
    for o in &plan.omitted {
        let _ = writeln!(
            out,
            "omit {:?} {} | {} | {}",
            o.scope, o.name, o.reason.id, o.reason.why
        );
    }
    for w in &plan.warnings {
        let _ = writeln!(out, "warn {} {:?} {}", w.id, w.field, w.message);
    }
    let _ = writeln!(out, "{:?} {}", plan.capacity, plan.command);
}

fn grid() -> String {
    let mut out = String::new();
    for workload in ["static", "proxy", "api", "mixed", "php"] {
        // The micro-cache wherever there is an application (proxied or PHP).
        let cache = if workload == "static" {
            ""
        } else {
            r#", "cache": "micro", "cache_status": true"#
        };
        for (vcpu, ram, clients) in [
            (1, "512M", "null"),
            (4, "8G", "null"),
            (16, "32G", "100000"),
            (64, "1T", "10000000"),
        ] {
            for tls in [
                r#""tls": false"#,
                r#""tls": true, "nginx_version": "1.22.1", "openssl_version": "3.0.2""#,
                r#""tls": true, "http3": true, "tls_profile": "modern", "openssl_version": "3.5.1", "ocsp_stapling": true"#,
            ] {
                for extra in [
                    r#""layout": "debian", "brotli": true, "release": "debian-13""#,
                    r#""layout": "docker", "behind_lb": true, "trusted_proxies": ["10.1.0.0/16"], "upstreams": ["10.0.0.2:8080", "127.0.0.1:20000"], "rate_limit": true, "limit_paths": ["/login"]"#,
                    r#""layout": "rhel", "lang": "de", "static_files": 200000, "response_size": "4M", "nginx_version": "1.18.0""#,
                ] {
                    let cache = if extra.contains("rhel") { cache } else { "" };
                    let json = format!(
                        r#"{{"vcpu": {vcpu}, "ram": "{ram}", "clients": {clients}, "workload": "{workload}", {tls}, {extra}{cache}}}"#
                    );
                    // Some pairs are not inputs (HTTP/3 with nginx 1.18): they generate nothing.
                    if let Ok(inputs) = Inputs::from_json(&json) {
                        canonical(&Plan::new(&inputs), &mut out);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn output_changes_come_with_a_policy_version() {
    let (version, recorded) = POLICY_HISTORY[POLICY_HISTORY.len() - 1];
    assert_eq!(version, POLICY_VERSION);
    let fingerprint = fnv(&grid());
    assert!(
        fingerprint == recorded,
        "the generated output changed: add a row (\"NEW.VERSION\", {fingerprint:#018x}) to \
         POLICY_HISTORY in core/src/lib.rs, or undo the change"
    );
}

#[test]
fn policy_history_is_a_history() {
    for pair in POLICY_HISTORY.windows(2) {
        assert!(
            pair[0].0 < pair[1].0,
            "versions ascend: {} then {}",
            pair[0].0,
            pair[1].0
        );
        assert_ne!(
            pair[0].1, pair[1].1,
            "two versions generate the same: {}",
            pair[1].0
        );
    }
}
