//! Bodies of the cargo-fuzz targets in `fuzz/` (which need a nightly toolchain). The same
//! functions run on stable over the seed corpus and random inputs (`tests/fuzz_bodies.rs`),
//! so the properties are checked on every run even where libFuzzer is unavailable.
//!
//! Each body panics when a property does not hold; that is what the fuzzer reports.

use nginx_gen_core::{ByteSize, Inputs, Plan, render};

use crate::expect;

/// The size parser never panics; what it accepts prints back to the same value.
pub fn size(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(size) = text.parse::<ByteSize>() {
        let shown = size.to_string();
        assert_eq!(
            shown.parse::<ByteSize>().ok(),
            Some(size),
            "{text:?} → {shown:?} does not parse back"
        );
        if let Some(n) = size.nginx() {
            assert!(
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric()),
                "nginx form {n:?}"
            );
        }
    }
}

/// JSON document → validation → plan → render → parse-back. Invalid documents give
/// errors naming a field; valid ones give files whose directive tree equals the plan, and
/// the inputs survive their own round trip.
pub fn json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Inputs::from_json(text) {
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an error list is never empty");
            for e in &errors.0 {
                assert!(!e.message.is_empty(), "{e:?}");
                assert!(!e.field.is_empty(), "the error names no field: {e:?}");
                for text in [&e.field, &e.message, &e.accepted] {
                    assert!(
                        !text.chars().any(char::is_control),
                        "control character in an error: {e:?}"
                    );
                }
            }
        }
        Ok(inputs) => {
            let again = Inputs::from_raw(&inputs.to_raw()).expect("to_raw validates");
            assert_eq!(again, inputs, "to_raw round trip");
            let plan = Plan::new(&inputs);
            if let Err(e) = expect::check(&plan) {
                panic!("parse-back failed for {text:?}:\n{e}");
            }
            let json = render::json(&plan);
            assert!(
                serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                "the JSON output parses"
            );
        }
    }
}
