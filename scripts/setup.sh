#!/usr/bin/env bash
# Installs what the build and the tests need, skipping everything already present.
# Idempotent: a second run installs nothing. Downloads only from the package registries
# (Debian, crates.io, npm, PyPI); never from anywhere else.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------------------
# nginx 1.22 with the brotli modules (the real nginx -t in the tests), openssl (test
# certificates), chromium + chromedriver (browser tests), brotli (size reports),
# wrk + hyperfine (benchmarks), nghttp2-client (h2load, the benchmark's HTTP/2 load),
# python3-venv (gixy-ng and crossplane; its python3 runs the benchmark's TLS handshake client),
# libssl-dev + pkg-config (the capacity bench's TLS client links the system's OpenSSL, as
# nginx does), debootstrap + systemd-container (the booted-host tests: scripts/host-root.sh's
# Debian 12 root, booted by systemd-nspawn), php8.2-fpm (its own -t of the php pool in
# tests/apply.rs; stage 55 installs it too).
# Never binaryen: Debian's 108 corrupts current wasm-bindgen output (see README).
packages=(nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static openssl
          chromium chromium-driver brotli wrk hyperfine python3-venv iproute2 curl
          nghttp2-client libssl-dev pkg-config debootstrap systemd-container php8.2-fpm)
bash scripts/apt-missing.sh "${packages[@]}"
# The service the package starts is not ours: the tests run their own nginx processes.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then
  systemctl stop nginx || true
fi

# The rhel, nginx-org and docker layouts run workers as user nginx; the nginx -t tests need it.
if ! getent passwd nginx >/dev/null; then
  say "creating the nginx system user (for nginx -t of non-Debian layouts)"
  useradd --system --no-create-home --shell /usr/sbin/nologin nginx
fi

# --- Rust ------------------------------------------------------------------------------
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || {
    echo "setup: FATAL: cannot add the wasm32-unknown-unknown target (rustup target add failed)" >&2
    exit 1
  }
fi

# The page's release build rebuilds std with a pinned nightly (scripts/build-page.sh).
bash scripts/build-page.sh --install

# cargo install TOOL VERSION-CHECK ARGS…: skipped when `TOOL --version` already matches.
cargo_tool() {
  local bin=$1 want=$2; shift 2
  if command -v "$bin" >/dev/null 2>&1 && "$bin" --version 2>/dev/null | grep -q -- "$want"; then
    return
  fi
  say "cargo install $* (several minutes, once)"
  cargo install --quiet "$@"
}
# The wasm-bindgen CLI must equal the crate pinned in Cargo.toml [workspace.dependencies]
# (the script also checks that Trunk.toml names the same version).
wb_version=$(bash scripts/wasm-bindgen-version.sh)
# trunk and wasm-pack only drive cargo, wasm-bindgen and wasm-opt, so they are built without
# optimisation (--debug): trunk then compiles in 5.4 min where its release profile (fat LTO,
# one codegen unit) takes over 12, and builds the page as fast (1 min 35 s against 1 min
# 33 s; measured 2026-12-05). wasm-bindgen does the work itself and stays optimised.
cargo_tool trunk "trunk 0.21.14" --debug --locked trunk --version 0.21.14
# No --locked: its own lockfile names a crate version the registry no longer has.
cargo_tool wasm-bindgen "wasm-bindgen $wb_version" wasm-bindgen-cli --version "$wb_version"
cargo_tool wasm-pack "wasm-pack" --debug --locked wasm-pack

# --- npm: wasm-opt (binaryen 132) and playwright-core ---------------------------------------
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund --silent
fi

# --- crates for offline builds (trunk runs cargo with --offline) ---------------------------
cargo fetch --quiet

say "ready"
