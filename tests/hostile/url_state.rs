//! The URL-state cases of the hostile corpus (`tests/hostile/url.jsonl`) through the web
//! page's own parser, `nginx_gen_web::share::ShareState::from_query`, natively.
//!
//! The page is forgiving by design: a bad parameter does not stop it, it falls back to the
//! default for that field and shows a notice naming the parameter. So for each case: no
//! panic, the resulting inputs are valid and survive the page's own `to_query` round trip,
//! and — where the case has `web_field` — a notice names that parameter. Cases without
//! `web_field` are values the page accepts by its own rules (`on` for a flag, a blank value
//! meaning "not given"); `web_pending` marks a finding reported to the web front end. A case
//! marked `"accept": true` is a valid state: the page restores it without any notice.
#![allow(clippy::disallowed_methods, reason = "test harness reads the corpus")]

use std::path::Path;

use nginx_gen_core::Inputs;
use nginx_gen_web::share::ShareState;
use serde_json::Value;

#[test]
fn url_states_through_the_web_parser() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hostile/url.jsonl");
    let text = std::fs::read_to_string(&path).expect("url.jsonl");
    let strict = std::env::var("NGINX_GEN_VERIFY_STRICT").is_ok_and(|v| v == "1");
    let (mut named, mut accepted, mut pending, mut valid) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).expect("a JSON line");
        let state = case["state"].as_str().expect("state");
        let parsed = std::panic::catch_unwind(|| ShareState::from_query(&format!("?{state}")));
        let Ok(parsed) = parsed else {
            failures.push(format!("{state:?}: panicked"));
            continue;
        };
        // Valid inputs that the page's own share link reproduces.
        let again = ShareState::from_query(&ShareState::to_query(&parsed.inputs));
        if again.inputs != parsed.inputs || !again.notices.is_empty() {
            failures.push(format!(
                "{state:?}: the share link of the result does not reproduce it"
            ));
        }
        if Inputs::from_raw(&parsed.inputs.to_raw()).as_ref() != Ok(&parsed.inputs) {
            failures.push(format!("{state:?}: the result is not valid inputs"));
        }
        if case["accept"].as_bool() == Some(true) {
            if parsed.notices.is_empty() {
                valid += 1;
            } else {
                failures.push(format!(
                    "{state:?}: a valid state, yet notices: {:?}",
                    parsed.notices
                ));
            }
            continue;
        }
        match (case["web_field"].as_str(), case["web_pending"].as_str()) {
            (Some(field), _) if parsed.notices.iter().any(|n| n.param == field) => named += 1,
            (Some(_), Some(finding)) if !strict => {
                eprintln!(
                    "PENDING {finding}: {state:?} gives no notice naming the field: {:?}",
                    parsed.notices
                );
                pending += 1;
            }
            (Some(field), _) => failures.push(format!(
                "{state:?}: no notice names {field}: {:?}",
                parsed.notices
            )),
            (None, _) => accepted += 1,
        }
    }
    assert!(
        failures.is_empty(),
        "{} URL states mishandled:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "url states (web parser): {named} with a notice naming the field, {accepted} accepted by the page's rules, {valid} valid and restored without a notice, {pending} pending"
    );
    assert!(
        named >= 40,
        "most URL-state cases must be reported ({named})"
    );
}
