#!/usr/bin/env bash
# Formatting, lints (native and wasm32), and every native Rust test: unit, snapshot,
# property, CLI end-to-end, and `nginx -t` on generated trees with Debian's nginx.
set -euo pipefail
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p nginx-gen-core --target wasm32-unknown-unknown --locked -- -D warnings
cargo build -p nginx-gen-core --target wasm32-unknown-unknown --locked
cargo test --workspace --locked
# Benchmarks compile (and run once, briefly) so they cannot rot; figures: docs/benchmarks.md.
cargo bench -p nginx-gen-core --locked --bench plan -- --test
