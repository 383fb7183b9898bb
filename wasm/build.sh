#!/usr/bin/env bash
# Builds the embeddable module with wasm-pack for every target, then the documentation
# widget (docs/widget/nginx-gen-widget.js + nginx_gen_wasm_bg.wasm).
#   wasm/build.sh              web, bundler, nodejs and the widget
#   wasm/build.sh nodejs       one target only (web, bundler or nodejs)
# Needs: wasm-pack, the wasm-bindgen CLI 0.2.130 and npm binaryen@132 (node_modules/.bin),
# all installed by scripts/setup.sh. Outputs (wasm/pkg*, the two widget files) are not
# committed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
command -v wasm-opt >/dev/null || { echo "wasm/build.sh: wasm-opt (npm binaryen@132) is missing; run scripts/setup.sh" >&2; exit 1; }

# std rebuilt for size by the pinned nightly, as for the page (scripts/small-std.sh).
source scripts/small-std.sh
small_std_env "${CARGO_TARGET_DIR:-$PWD/target/module}"

# wasm-pack --release uses cargo's `release` profile; give it the size settings of the
# workspace's `wasm-release` profile (opt-level z). Keep the `target_features` section so
# wasm-bindgen and wasm-opt see which features the code uses; wasm-opt strips it after.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_STRIP=false

targets=("$@")
((${#targets[@]})) || targets=(web bundler nodejs)
for target in "${targets[@]}"; do
  out="pkg-$target"
  [ "$target" = bundler ] && out=pkg
  echo "wasm/build.sh: wasm-pack build --target $target --out-dir wasm/$out"
  wasm-pack --quiet build --mode no-install --release --target "$target" --out-dir "$out" wasm -- --locked
  node wasm/package.mjs "wasm/$out" "$target"
done
if [[ " ${targets[*]} " == *" web "* ]]; then
  node wasm/build-widget.mjs wasm/pkg-web docs/widget
fi
