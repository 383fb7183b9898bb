//! Parse-back over the whole input space, in process (no nginx needed): every rendered
//! file, read back by an nginx-grammar parser, holds exactly the plan's directives: nothing
//! missing, nothing extra, no argument split, joined or cut.
#![allow(
    clippy::disallowed_methods,
    reason = "a test harness reads the environment"
)]

use nginx_gen_core::{Inputs, Plan};
use nginx_gen_verify::{expect, strategy};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("NGINX_GEN_PARSE_BACK_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_file_parses_back_to_the_plan(raw in strategy::any_inputs()) {
        // Combinations validation rejects (HTTP/3 before 1.25, equal ports) are skipped.
        if let Ok(inputs) = Inputs::from_raw(&raw) {
            let plan = Plan::new(&inputs);
            if let Err(e) = expect::check(&plan) {
                panic!("input {}\n{e}", serde_json::to_string(&raw).unwrap());
            }
        }
    }
}

#[test]
fn the_check_catches_a_tampered_file() {
    let plan = Plan::new(&Inputs::default());
    let mut files = nginx_gen_core::render::files(&plan);
    assert!(expect::check_files(&plan, &files).is_ok());
    // An injected directive, a dropped one, a split argument: each is caught.
    for (from, to) in [
        ("server_tokens off;", "server_tokens off; autoindex on;"),
        ("server_tokens off;", "# server_tokens off;"),
        ("gzip_min_length 256;", "gzip_min_length 2 56;"),
        ("events {", "events { }"),
    ] {
        let original = files[0].contents.clone();
        files[0].contents = original.replacen(from, to, 1);
        assert_ne!(files[0].contents, original, "{from}");
        assert!(
            expect::check_files(&plan, &files).is_err(),
            "tampering not caught: {to}"
        );
        files[0].contents = original;
    }
    let original = files[1].contents.clone();
    files[1].contents = original.replacen("return 444;", "return 444; }\nserver { listen 81;", 1);
    assert!(expect::check_files(&plan, &files).is_err());
}
