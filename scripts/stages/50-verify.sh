#!/usr/bin/env bash
# Verification harness (docs/verification.md): what nginx-gen emits is valid, safe and
# faithful to its inputs.
#   1. a property grid of NGINX_GEN_VERIFY_CASES (default 2000) input sets per nginx version,
#      each tree checked by the real `nginx -t`: Debian's 1.22.1 and 1.26.3 built from
#      Debian's source archive (scripts/build-nginx.sh, cached);
#   2. gixy-ng over every tree (no MEDIUM/HIGH; LOW only if reviewed in gixy-allow.txt),
#      crossplane re-parsing a sample;
#   3. parse-back of every file against the plan, hostile strings in every field;
#   4. the hostile-input corpus (tests/hostile/) against the CLI binary;
#   5. the fuzz targets, briefly, when a nightly toolchain exists.
# Long mode: NGINX_GEN_VERIFY_CASES=20000 scripts/test.sh verify (see docs/verification.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

say() { printf '\033[1mverify:\033[0m %s\n' "$*"; }
loud() {
  printf '\n\033[1;33m!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n'
  printf '!!! verify: %s\n' "$@"
  printf '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\033[0m\n\n'
}
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# --- the account the rhel/nginx-org/docker layouts run workers as (nginx -t checks it) ----
if ! getent passwd nginx >/dev/null; then
  say "creating the system user 'nginx'"
  $SUDO useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group nginx
fi
command -v openssl >/dev/null || { echo "verify: openssl is missing (scripts/setup.sh installs it)" >&2; exit 1; }
[ -x /usr/sbin/nginx ] || { echo "verify: Debian's nginx is missing (scripts/setup.sh installs it)" >&2; exit 1; }

# --- Python virtualenv: gixy-ng and crossplane, pinned -----------------------------------
req=tests/verify/requirements.txt
if [ ! -x .venv/bin/gixy ] || [ ! -x .venv/bin/crossplane ] || ! cmp -s "$req" .venv/.requirements 2>/dev/null; then
  say "creating .venv with $(grep -v '^#' "$req" | tr '\n' ' ')"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r "$req"
  cp "$req" .venv/.requirements
fi
export NGINX_GEN_GIXY="$root/.venv/bin/gixy"

# --- nginx 1.26.3 from source (cached) ---------------------------------------------------
skip_126=""
set +e
nginx126=$(bash scripts/build-nginx.sh | tail -1)
rc=$?
set -e
if [ $rc -eq 0 ] && [ -x "$nginx126" ]; then
  export NGINX_GEN_NGINX_1_26="$nginx126"
elif [ $rc -eq 3 ]; then
  loud "nginx 1.26.3 source could not be fetched from Debian's source archive:" \
       "SKIPPING the nginx 1.26 grid (http2 on, HTTP/3, 1.26 syntax). Everything else runs."
  skip_126="--skip grid_nginx_1_26"
else
  echo "verify: scripts/build-nginx.sh failed (exit $rc)" >&2
  exit 1
fi

# --- the harness ---------------------------------------------------------------------------
cargo build -p nginx-gen --locked --quiet
export NGINX_GEN_BIN="$root/target/debug/nginx-gen"
export NGINX_GEN_PARSE_BACK_CASES=${NGINX_GEN_PARSE_BACK_CASES:-3000}
export NGINX_GEN_FUZZ_BODY_CASES=${NGINX_GEN_FUZZ_BODY_CASES:-1000}
say "grid: ${NGINX_GEN_VERIFY_CASES:-2000} cases per nginx version, ${NGINX_GEN_VERIFY_JOBS:-$(nproc)} jobs"
# shellcheck disable=SC2086 # $skip_126 is empty or two words
cargo test -p nginx-gen-verify --locked -- --include-ignored --test-threads 1 --nocapture $skip_126

# --- fuzzing (cargo-fuzz needs nightly) ----------------------------------------------------------
fuzz_secs=${NGINX_GEN_FUZZ_SECONDS:-15}
if cargo +nightly --version >/dev/null 2>&1; then
  if ! command -v cargo-fuzz >/dev/null 2>&1; then
    say "cargo install cargo-fuzz (once)"
    cargo install --locked --quiet cargo-fuzz
  fi
  # Built objects are cached outside the clone, so CI's fresh checkout reuses them.
  fuzz_target="${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/fuzz-target"
  mkdir -p "$fuzz_target" 2>/dev/null || fuzz_target="$HOME/.cache/nginx-gen/fuzz-target"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for target in size json_pipeline; do
    say "fuzzing $target for ${fuzz_secs}s (new inputs go to a scratch corpus, not the repository)"
    mkdir -p "$work/$target"
    (cd fuzz && cargo +nightly fuzz run --target-dir "$fuzz_target" "$target" "$work/$target" "corpus/$target" \
      -- -max_total_time="$fuzz_secs" -print_final_stats=1 2>&1 | tail -4)
  done
  if compgen -G "fuzz/artifacts/*/*" >/dev/null; then
    echo "verify: the fuzzer found crashes: $(ls fuzz/artifacts/*/*)" >&2
    exit 1
  fi
else
  loud "no nightly toolchain (cargo +nightly): SKIPPING the cargo-fuzz runs." \
       "Their bodies still ran on stable above (tests/verify/tests/fuzz_bodies.rs)."
fi
say "all checks passed"
