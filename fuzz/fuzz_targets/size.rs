//! The size parser (`8G`, `1.5GiB`, `512 MB` …): never panics, and what it accepts prints
//! back to the same value.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nginx_gen_verify::fuzz::size(data));
