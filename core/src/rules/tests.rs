//! Registry-wide tests: ids, reachability, formulas, documentation links.
use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::inputs::RawInputs;
use crate::plan::Plan;
use crate::policy::default_and_doc;

/// A legal name too long for the stock hash bucket.
const LONG_NAME: &str = "aaaaaaaaaa.bbbbbbbbbb.cccccccccc.dddddddddd.example";

/// Whether a grid plan redirects a second name to the first: with TLS on Debian's layout,
/// and on plain HTTP on RHEL's.
fn canonical(tls: bool, layout: &str) -> bool {
    matches!((tls, layout), (true, "debian") | (false, "rhel"))
}

/// A grid of inputs that switches every branch of the rules.
pub(crate) fn grid() -> Vec<Plan> {
    let mut plans = Vec::new();
    let sizes = [
        (1, "512M", None),
        (2, "2G", Some(100_000)),
        (4, "8G", None),
        (16, "64G", Some(5_000_000)),
        (1, "16T", Some(10_000_000)),
        (128, "256M", None),
    ];
    for workload in ["static", "proxy", "api", "mixed", "php"] {
        for (tls, http3, ocsp, profile) in [
            (false, false, false, "intermediate"),
            (true, false, false, "intermediate"),
            (true, true, true, "modern"),
        ] {
            for (nginx, openssl) in [
                ("1.18.0", "1.1.1"),
                ("1.22.1", "3.0.2"),
                ("1.30.0", "3.5.1"),
            ] {
                for layout in ["debian", "rhel", "docker"] {
                    for (vcpu, ram, clients) in sizes {
                        for (lb, brotli, upstream, files, response, name) in [
                            (false, true, "127.0.0.1:3000", 100, "32K", "example.com"),
                            (true, false, "app.internal:8080", 1_000_000, "4M", LONG_NAME),
                        ] {
                            let raw = RawInputs {
                                vcpu: Some(vcpu.into()),
                                ram: Some(ram.into()),
                                clients: clients.map(Into::into),
                                workload: Some(workload.into()),
                                tls: Some(tls),
                                http3: Some(http3),
                                ocsp_stapling: Some(ocsp),
                                tls_profile: Some(profile.into()),
                                nginx_version: Some(nginx.into()),
                                openssl_version: Some(openssl.into()),
                                layout: Some(layout.into()),
                                behind_lb: Some(lb),
                                brotli: Some(brotli),
                                upstreams: Some(if layout == "docker" && !lb {
                                    vec!["unix:/run/app.sock".into()]
                                } else {
                                    vec![upstream.into(), "127.0.0.1:20000".into()]
                                }),
                                static_files: Some(files.into()),
                                response_size: Some(response.into()),
                                // A second name, sent to the first, where TLS is on
                                // or the layout is RHEL's.
                                server_names: Some(if canonical(tls, layout) {
                                    vec![name.into(), format!("www.{name}")]
                                } else {
                                    vec![name.into()]
                                }),
                                canonical: Some(canonical(tls, layout)),
                                bootstrap: Some(tls && !http3 && lb),
                                resolver: (layout == "rhel").then(|| "192.0.2.53".into()),
                                // Detected facts: a kTLS kernel; a low fs.file-max.
                                ktls: Some(lb),
                                file_max: lb.then(|| 200_000u32.into()),
                                // Every log format; the status server off once.
                                access_log: Some(
                                    match (layout, lb) {
                                        ("debian", _) => "timing",
                                        ("rhel", _) => "json",
                                        ("docker", false) => "combined",
                                        _ => "off",
                                    }
                                    .into(),
                                ),
                                status_port: (layout == "docker").then(|| 0u32.into()),
                                // Micro-caching with and without its header.
                                cache: (workload != "static" && lb != tls).then(|| "micro".into()),
                                cache_status: Some(workload != "static" && !lb && tls),
                                // Cloudflare (alone and before a balancer); the PROXY
                                // protocol where no other source names the client.
                                cdn: (layout == "rhel").then(|| "cloudflare".into()),
                                proxy_protocol: Some(layout == "docker" && !lb && !http3),
                                // The name looked up again (the resolver given on RHEL).
                                upstream_resolve: Some(
                                    lb && nginx == "1.30.0"
                                        && workload != "static"
                                        && workload != "php",
                                ),
                                // A port other than HTTPS's own, at the edge.
                                tls_port: (tls && layout == "docker").then(|| 8443u32.into()),
                                // A single-page application, where it is static.
                                spa: Some(workload == "static" && tls),
                                // Every HSTS scope, with TLS.
                                hsts: tls.then(|| {
                                    match (layout, http3) {
                                        ("debian", _) => "host",
                                        ("rhel", _) => "subdomains",
                                        (_, true) => "preload",
                                        _ => "off",
                                    }
                                    .into()
                                }),
                                rate_limit: Some(layout != "debian"),
                                limit_paths: (layout == "rhel")
                                    .then(|| vec!["/login".into(), "/api/".into()]),
                                ..RawInputs::default()
                            };
                            // HTTP/3 needs nginx ≥ 1.25: such pairs are not inputs.
                            if let Ok(inputs) = Inputs::from_raw(&raw) {
                                plans.push(Plan::new(&inputs));
                            }
                        }
                    }
                }
            }
        }
    }
    plans
}

#[test]
fn reason_ids_are_unique_or_identical_copies() {
    let mut by_id: BTreeMap<&str, &Text> = BTreeMap::new();
    for text in RULES
        .iter()
        .flat_map(|r| r.texts.iter())
        .chain(warnings::TEXTS)
    {
        if let Some(other) = by_id.insert(text.id, text) {
            assert_eq!(other, text, "two different reasons share id {}", text.id);
        }
    }
}

#[test]
fn every_rule_and_reason_is_reachable_and_every_formula_holds() {
    let mut files: BTreeMap<u16, BTreeSet<crate::plan::FileKind>> = BTreeMap::new();
    let mut rules_seen = BTreeSet::new();
    let mut reasons_seen = BTreeSet::new();
    for plan in grid() {
        for s in &plan.settings {
            assert_eq!(RULES[usize::from(s.rule)].name, s.name);
            files.entry(s.rule).or_default().insert(s.scope.file());
            rules_seen.insert(s.rule);
            reasons_seen.insert(s.reason.id);
            if let Some(f) = &s.reason.formula {
                let results = formula::eval::check(f)
                    .unwrap_or_else(|e| panic!("{}: formula «{f}»: {e}", s.name));
                for r in results {
                    assert!(
                        s.value().contains(&r),
                        "{}: formula «{f}» ends in {r}, the value is {}",
                        s.name,
                        s.value()
                    );
                }
            }
        }
        for o in &plan.omitted {
            assert_eq!(RULES[usize::from(o.rule)].name, o.name);
            files.entry(o.rule).or_default().insert(o.scope.file());
            rules_seen.insert(o.rule);
            reasons_seen.insert(o.reason.id);
        }
    }
    for (index, rule) in RULES.iter().enumerate() {
        assert!(
            rules_seen.contains(&(index as u16)),
            "rule {} never fires",
            rule.name
        );
        for t in rule.texts {
            assert!(
                reasons_seen.contains(t.id),
                "reason {} is never given",
                t.id
            );
        }
    }
    for (index, files) in files {
        assert_eq!(
            files.len(),
            1,
            "rule {} writes to {files:?}",
            RULES[usize::from(index)].name
        );
    }
}

#[test]
fn every_name_has_a_documentation_link() {
    for rule in RULES {
        let (_, doc) = default_and_doc(&lookup_name(rule), crate::version::Version::new(1, 30, 0));
        assert!(doc.starts_with("https://"), "{}: {doc}", rule.name);
        // An nginx directive links to its own entry: its module's page, its name as anchor.
        if doc.starts_with("https://nginx.org/") {
            let directive = rule.name.split(' ').next().unwrap_or_default();
            assert!(
                doc.ends_with(&format!(".html#{directive}")),
                "{}: {doc}",
                rule.name
            );
        }
    }
}

#[test]
fn every_documentation_link_belongs_to_a_rule() {
    let modules = crate::policy::NGINX_MODULES
        .iter()
        .flat_map(|(_, names)| names.iter());
    for name in crate::policy::DOC_LINKS
        .iter()
        .map(|(name, _)| name)
        .chain(modules)
    {
        assert!(
            RULES.iter().any(|r| lookup_name(r) == *name),
            "documentation link for {name}, which no rule decides"
        );
    }
}

/// Every rule has a test beside it: the tests of its family's file name its setting.
#[test]
fn every_rule_is_tested_in_its_family_file() {
    let families = [
        ("process.rs", include_str!("process.rs")),
        ("events.rs", include_str!("events.rs")),
        ("http.rs", include_str!("http.rs")),
        ("files.rs", include_str!("files.rs")),
        ("compression.rs", include_str!("compression.rs")),
        ("tls.rs", include_str!("tls.rs")),
        ("proxy.rs", include_str!("proxy.rs")),
        ("headers.rs", include_str!("headers.rs")),
        ("listen.rs", include_str!("listen.rs")),
        ("site.rs", include_str!("site.rs")),
        ("kernel.rs", include_str!("kernel.rs")),
        ("limits.rs", include_str!("limits.rs")),
        ("cache.rs", include_str!("cache.rs")),
        ("php.rs", include_str!("php.rs")),
        ("ratelimit.rs", include_str!("ratelimit.rs")),
    ];
    let mut defined = 0;
    for (file, source) in families {
        let (rules, tests) = source
            .split_once("#[cfg(test)]")
            .unwrap_or_else(|| panic!("{file} has no tests"));
        for name in rules
            .split("    name: \"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
        {
            defined += 1;
            assert!(
                tests.contains(&format!("\"{name}\"")),
                "{file}: no test names {name}"
            );
        }
    }
    assert_eq!(defined, RULES.len(), "every rule lives in a family file");
}
