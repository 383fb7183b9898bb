#!/usr/bin/env bash
# The page's release build: `trunk build --release --locked` with the standard library
# rebuilt for size by a pinned nightly (-Zbuild-std, panic strategy immediate-abort).
# std then compiles with the page's own profile (opt-level z, LTO) and without the panic
# message machinery: the first load is about 14 KB brotli smaller than stable's
# (docs/web.md, "Size"). A panic, which no input can cause, still stops the app, without
# its message in the console.
#
#   scripts/build-page.sh [TRUNK ARGS…]   -> dist/ (or trunk's --dist)
#   scripts/build-page.sh --install       installs the pinned toolchain (scripts/setup.sh)
#
# A plain `trunk build --release` on stable Rust builds the same page, only larger.
# The build uses its own target directory (target/page/): switching toolchains in one
# directory would rebuild everything each time.
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain=nightly-2026-05-20

if [ "${1:-}" = --install ]; then
  if rustup run "$toolchain" rustc --print sysroot >/dev/null 2>&1 \
     && [ -d "$(rustup run "$toolchain" rustc --print sysroot)/lib/rustlib/src/rust/library" ] \
     && rustup target list --toolchain "$toolchain" --installed | grep -qx wasm32-unknown-unknown; then
    exit 0
  fi
  echo "build-page: installing $toolchain with rust-src and wasm32-unknown-unknown (once)"
  rustup toolchain install "$toolchain" --profile minimal --component rust-src \
    --target wasm32-unknown-unknown
  exit 0
fi

sysroot=$(rustup run "$toolchain" rustc --print sysroot 2>/dev/null) || {
  echo "build-page: the toolchain $toolchain is missing: run scripts/setup.sh (or" \
    "scripts/build-page.sh --install); \`trunk build --release\` builds a larger page on stable" >&2
  exit 1
}
# trunk runs cargo offline: fetch std's own dependencies first (a no-op once cached).
cargo "+$toolchain" fetch --locked --quiet \
  --manifest-path "$sysroot/lib/rustlib/src/rust/library/Cargo.toml"

export RUSTUP_TOOLCHAIN=$toolchain
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/page}
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
exec trunk build --release --locked "$@"
