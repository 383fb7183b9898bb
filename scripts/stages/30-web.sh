#!/usr/bin/env bash
# The web page (web/, index.html, Trunk.toml):
#  1. scripts/build-page.sh: trunk build --release (wasm-release profile: opt-level z, LTO;
#     std rebuilt for size by a pinned nightly; wasm-opt -Oz) -> dist/;
#  2. components and URL state in headless Chromium: wasm-bindgen-test;
#  3. end to end in Debian's Chromium (playwright-core): 24 input combinations byte for
#     byte against the release CLI, share URL, languages, invalid input, .tar.gz, keyboard,
#     themes, offline reload; screenshots in tests/artifacts/web*.png;
#  4. keystroke latency in Chromium (bench/web-latency.mjs; reported, not asserted)
#     -> tests/artifacts/web-latency.txt;
#  5. the size report -> tests/artifacts/web-size.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
for tool in trunk wasm-bindgen wasm-bindgen-test-runner wasm-opt node brotli gzip tar /usr/bin/chromium /usr/bin/chromedriver; do
  command -v "$tool" >/dev/null || { echo "30-web: $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
# trunk, the test runner and the crate must agree on wasm-bindgen: the version pinned in
# Cargo.toml [workspace.dependencies], named again in Trunk.toml, installed on PATH.
bash scripts/wasm-bindgen-version.sh --cli >/dev/null
mkdir -p tests/artifacts

cargo build --release --locked -p nginx-gen
# The browser-only code paths (stage 10 lints the crate natively).
cargo clippy --locked --target wasm32-unknown-unknown --all-targets -p nginx-gen-web -- -D warnings
timeout 1200 bash scripts/build-page.sh
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  timeout 1200 cargo test --locked --target wasm32-unknown-unknown -p nginx-gen-web
timeout 600 node --test tests/e2e/web.test.mjs
timeout 600 node bench/web-latency.mjs
bash scripts/size-report.sh dist | tee tests/artifacts/web-size.txt
