//! The fuzz targets' bodies on stable: over the committed seed corpus (fuzz/corpus/) and
//! over proptest-generated inputs, so their properties are checked on every run even
//! where no nightly toolchain exists for cargo-fuzz.
#![allow(clippy::disallowed_methods, reason = "test harness reads the corpus")]

use std::path::Path;

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
