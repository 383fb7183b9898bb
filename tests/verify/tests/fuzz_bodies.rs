//! The fuzz targets' bodies on stable: over the committed seed corpus (fuzz/corpus/) and
//! over proptest-generated inputs, so their properties are checked on every run even
//! where no nightly toolchain exists for cargo-fuzz.
#![allow(clippy::disallowed_methods, reason = "test harness reads the corpus")]

use std::path::Path;

use nginx_gen_core::RawInputs;
use nginx_gen_verify::{fuzz, strategy};
use proptest::prelude::*;

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read(e.expect("entry").path()).expect("read seed"))
        .collect();
    out.sort();
    out
}

#[test]
fn size_seeds() {
    let seeds = corpus("size");
    assert!(seeds.len() >= 10);
    for s in seeds {
        fuzz::size(&s);
    }
}

#[test]
fn json_seeds() {
    let seeds = corpus("json_pipeline");
    assert!(seeds.len() >= 10);
    for s in seeds {
        fuzz::json(&s);
    }
}

/// The inputs added after the first corpus, over valid and invalid values, in the forms the
/// front ends send them (a repeated `--listen` as a list, switches as booleans, text):
/// listen lists (duplicates and other spellings of one socket among them), `max_body_size`,
/// `bootstrap`, `resolver`, `release`, `existing_default_server` and `any` versions.
fn with_new_inputs() -> impl Strategy<Value = RawInputs> {
    let port = prop_oneof![
        Just(80u32),
        Just(443),
        Just(8080),
        Just(8443),
        1u32..=65535,
        Just(0),
        Just(65536)
    ];
    let listen_entry = prop_oneof![
        3 => port.clone().prop_map(|p| p.to_string()),
        1 => port.clone().prop_map(|p| format!("*:{p}")),
        1 => port.clone().prop_map(|p| format!("0.0.0.0:{p}")),
        1 => port.clone().prop_map(|p| format!("127.0.0.1:{p}")),
        1 => port.clone().prop_map(|p| format!("[::]:{p}")),
        1 => port.clone().prop_map(|p| format!("[::1]:{p}")),
        1 => port.prop_map(|p| format!("+{p}")),
        1 => "[0-9:\\[\\]*.a-f%;{ ]{0,12}",
    ];
    let size = prop_oneof![
        Just("1K".to_owned()),
        Just("16M".to_owned()),
        Just("64G".to_owned()),
        Just("65G".to_owned()),
        Just("1023".to_owned()),
        (1u64..=70).prop_map(|g| format!("{g}G")),
        (1u64..=4096).prop_map(|m| format!("{m}MiB")),
        "[0-9. KMGTiBb;]{0,8}",
    ];
    let resolver = prop_oneof![
        Just("127.0.0.53".to_owned()),
        Just("::1".to_owned()),
        Just("[::1]".to_owned()),
        Just("[127.0.0.1]".to_owned()),
        Just("fe80::1%eth0".to_owned()),
        Just("127.0.0.1:53".to_owned()),
        (0u8..=255, 0u8..=255).prop_map(|(a, b)| format!("192.0.{a}.{b}")),
        "[0-9a-f:.\\[\\]%;$ ]{0,16}",
    ];
    let release = prop_oneof![
        Just("any"),
        Just("debian-12"),
        Just("debian-13"),
        Just("ubuntu-22.04"),
        Just("ubuntu-24.04"),
        Just("rhel-9"),
        Just("rhel-10"),
        Just("nginx-org-stable"),
        Just("nginx-org-mainline"),
        Just("docker-stable"),
        Just("docker-mainline"),
        Just("debian-14"),
        Just("DEBIAN-12"),
        Just(" any"),
    ];
    let version = prop_oneof![
        Just("any"),
        Just("ANY"),
        Just("any;"),
        Just("1.22.1"),
        Just("1.26.3"),
        Just("3.0")
    ];
    (
        strategy::any_inputs(),
        proptest::option::of(proptest::collection::vec(listen_entry, 0..=4)),
        proptest::option::of(size),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        proptest::option::of(resolver),
        proptest::option::of(release),
        (
            proptest::option::of(version.clone()),
            proptest::option::of(version),
        ),
    )
        .prop_map(
            |(
                mut raw,
                listen,
                body,
                (bootstrap, tls, existing),
                resolver,
                release,
                (nginx, openssl),
            )| {
                if listen.is_some() {
                    raw.listen = listen;
                }
                raw.max_body_size = body.or(raw.max_body_size);
                // bootstrap without tls is an error; half the time tls goes with it.
                raw.bootstrap = Some(bootstrap);
                if bootstrap && tls {
                    raw.tls = Some(true);
                }
                raw.existing_default_server = Some(existing);
                raw.resolver = resolver.or(raw.resolver);
                raw.release = release.map(str::to_owned);
                if let Some(v) = nginx {
                    raw.nginx_version = Some(v.to_owned());
                }
                if let Some(v) = openssl {
                    raw.openssl_version = Some(v.to_owned());
                }
                raw
            },
        )
}

/// The hostile corpus's documents (tests/hostile/json.jsonl) through the JSON body: errors
/// name a field in one clean line, accepted ones parse back.
#[test]
fn hostile_documents() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hostile/json.jsonl");
    let text = std::fs::read_to_string(&path).expect("json.jsonl");
    let mut n = 0;
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        fuzz::json(case["doc"].as_str().expect("doc").as_bytes());
        n += 1;
    }
    assert!(n >= 1000, "{n} documents");
}

/// Random cases per property: `NGINX_GEN_FUZZ_BODY_CASES`, default 500 (the verify stage
/// runs 5000 in release).
fn random_cases() -> u32 {
    std::env::var("NGINX_GEN_FUZZ_BODY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: random_cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn size_random_text(s in "[ +\\-.0-9a-zA-Z\u{0}-\u{7f}\u{a0}-\u{2ff}]{0,24}") {
        fuzz::size(s.as_bytes());
    }

    #[test]
    fn size_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..32)) {
        fuzz::size(&b);
    }

    #[test]
    fn json_random_documents(raw in strategy::any_inputs(), cut in 0usize..400, junk in "[\\[\\]{}\",:0-9a-z\\\\ ]{0,8}") {
        let text = serde_json::to_string(&raw).unwrap();
        fuzz::json(text.as_bytes());
        // Truncated and spliced documents: errors, never panics.
        let at = text.char_indices().map(|(i, _)| i).nth(cut % text.chars().count().max(1)).unwrap_or(0);
        fuzz::json(format!("{}{junk}{}", &text[..at], &text[at..]).as_bytes());
        fuzz::json(&text.as_bytes()[..at]);
    }

    #[test]
    fn json_random_new_inputs(raw in with_new_inputs(), cut in 0usize..400, junk in "[\\[\\]{}\",:0-9a-z\\\\ ]{0,8}") {
        let text = serde_json::to_string(&raw).unwrap();
        fuzz::json(text.as_bytes());
        let at = text.char_indices().map(|(i, _)| i).nth(cut % text.chars().count().max(1)).unwrap_or(0);
        fuzz::json(format!("{}{junk}{}", &text[..at], &text[at..]).as_bytes());
    }
}

/// Finding F1 (docs/verification.md), fixed in core: unknown keys are escaped.
#[test]
fn f1_unknown_keys_are_escaped() {
    for doc in [r#"{"": 1}"#, r#"{"a\nb": 1}"#, r#"{"a\u001b[31m": 1}"#] {
        let errors = nginx_gen_core::Inputs::from_json(doc).expect_err("unknown field");
        let e = &errors.0[0];
        assert!(!e.field.is_empty(), "{doc}: {e:?}");
        for text in [&e.field, &e.message] {
            assert!(!text.chars().any(char::is_control), "{doc}: {e:?}");
        }
    }
}
