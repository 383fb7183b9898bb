#!/usr/bin/env bash
# The embeddable module (wasm/) and the documentation widget (docs/widget/):
#  1. wasm-pack builds for --target web, bundler and nodejs, and the widget bundle;
#  2. the API contract inside a wasm engine: wasm-pack test --node;
#  3. the nodejs package against the CLI's output on 26 input combinations;
#  4. the example page in Debian's Chromium (playwright-core), both widgets against the CLI;
#     screenshots in tests/artifacts/;
#  5. the module's size (raw, gzip, brotli) in tests/artifacts/wasm-size.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
for tool in wasm-pack wasm-bindgen wasm-bindgen-test-runner wasm-opt node brotli gzip /usr/bin/chromium; do
  command -v "$tool" >/dev/null || { echo "40-wasm: $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
# wasm-pack and the test runner use the wasm-bindgen CLI on PATH: it must equal the crate.
bash scripts/wasm-bindgen-version.sh --cli >/dev/null
mkdir -p tests/artifacts

cargo build --release --locked -p nginx-gen
bash wasm/build.sh
# (cargo options after -- would reach the test binary, not cargo: the build above was --locked)
wasm-pack test --node --mode no-install wasm
node --test wasm/node-test/
node --test tests/e2e/widget.test.mjs

{
  echo "nginx-gen-wasm module size (wasm-pack --release, opt-level z, LTO, std rebuilt by the pinned nightly, wasm-opt -Oz)"
  for f in wasm/pkg-web/nginx_gen_wasm_bg.wasm docs/widget/nginx-gen-widget.js; do
    raw=$(wc -c <"$f"); gz=$(gzip -9c "$f" | wc -c); br=$(brotli -c -q 11 "$f" | wc -c)
    printf '%-40s raw %7d B  gzip -9 %7d B  brotli -q 11 %7d B (%d KiB)\n' "$f" "$raw" "$gz" "$br" $(((br + 1023) / 1024))
  done
} | tee tests/artifacts/wasm-size.txt
