//! # nginx-gen-verify
//!
//! The verification harness of nginx-gen (not published). What nginx-gen emits must be
//! valid, safe and faithful to its inputs; this crate proves it on every change:
//!
//! - [`strategy`]: proptest strategies over every input, for each real nginx target;
//! - [`nginx`]: generated trees on disk, checked by a real `nginx -t` in parallel;
//! - [`parse`] and [`expect`]: an independent parser of nginx's grammar and the check that
//!   the parsed directive tree equals the [`Plan`](nginx_gen_core::Plan);
//! - [`gixy`]: the security analysers gixy-ng and Gixy-Next (no allow-list);
//! - [`fuzz`]: the bodies of the cargo-fuzz targets, also run on stable over seeds.
//!
//! `scripts/stages/50-verify.sh` runs it all; docs/verification.md explains it.
#![allow(
    clippy::disallowed_methods,
    reason = "a test harness reads files, the environment and runs processes"
)]
#![allow(
    clippy::missing_panics_doc,
    reason = "a test harness: panicking on a broken property is its job"
)]
#![allow(clippy::format_push_string, reason = "failure reports only")]

pub mod expect;
pub mod fuzz;
pub mod gixy;
pub mod nginx;
pub mod parse;
pub mod strategy;

/// Number of grid cases per nginx version: `NGINX_GEN_VERIFY_CASES`, default 2000.
pub fn cases() -> usize {
    std::env::var("NGINX_GEN_VERIFY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

/// Seed of the grid: `NGINX_GEN_VERIFY_SEED`, default fixed so that runs are reproducible.
pub fn seed() -> u64 {
    std::env::var("NGINX_GEN_VERIFY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6e67_696e_7867_656e)
}
