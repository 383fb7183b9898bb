//! JSON input → validation → plan → render → parse-back: errors name a field, valid
//! documents render files whose directive tree equals the plan.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nginx_gen_verify::fuzz::json(data));
