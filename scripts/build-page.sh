#!/usr/bin/env bash
# The page's release build: `trunk build --release --locked` with the standard library
# rebuilt for size by a pinned nightly (scripts/small-std.sh): the first load is about
# 14 KB brotli smaller than stable's (docs/web.md, "Size").
#
#   scripts/build-page.sh [TRUNK ARGS…]   -> dist/ (or trunk's --dist)
#   scripts/build-page.sh --install       installs the pinned toolchain (scripts/setup.sh)
#
# A plain `trunk build --release` on stable Rust builds the same page, only larger.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/small-std.sh

if [ "${1:-}" = --install ]; then
  small_std_install
  exit 0
fi
small_std_env "${CARGO_TARGET_DIR:-$PWD/target/page}"
exec trunk build --release --locked "$@"
