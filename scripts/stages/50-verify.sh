#!/usr/bin/env bash
# Verification harness (docs/verification.md): what nginx-gen emits is valid, safe and
# faithful to its inputs.
#   1. a property grid of NGINX_GEN_VERIFY_CASES (default 2000) input sets per nginx build,
#      each tree checked by the real `nginx -t`: Debian's 1.22.1, and 1.26.3, 1.30.x and
#      1.30.x + OpenSSL 3.5 built from Debian's source archive (scripts/build-nginx.sh --all,
#      cached in /var/cache/nginx-gen);
#   2. gixy-ng and Gixy-Next over every tree and over trees for every OpenSSL version gate
#      (no MEDIUM/HIGH, no allow-list), crossplane re-parsing a sample; sslyze against live
#      TLS servers (intermediate and modern, Debian's 1.22 and the OpenSSL 3.5 build);
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
# The nginx-org and docker packages' data directory, where their trees keep the micro-cache
# (nginx -t creates the cache's own directory inside it, as on those hosts).
[ -d /var/cache/nginx ] || $SUDO mkdir -p /var/cache/nginx
command -v openssl >/dev/null || { echo "verify: openssl is missing (scripts/setup.sh installs it)" >&2; exit 1; }
[ -x /usr/sbin/nginx ] || { echo "verify: Debian's nginx is missing (scripts/setup.sh installs it)" >&2; exit 1; }

# --- Python virtualenvs, pinned: gixy-ng, crossplane, sslyze; Gixy-Next on its own -------------
# (gixy-ng and Gixy-Next both install the Python package `gixy`.)
venv() { # DIR REQUIREMENTS CHECK-BINARY
  if [ ! -x "$1/bin/$3" ] || ! cmp -s "$2" "$1/.requirements" 2>/dev/null; then
    say "creating $1 with $(grep -v '^#' "$2" | tr '\n' ' ')"
    rm -rf "$1"
    python3 -m venv "$1"
    "$1/bin/pip" install --quiet --disable-pip-version-check -r "$2"
    cp "$2" "$1/.requirements"
  fi
}
venv .venv tests/verify/requirements.txt sslyze
venv .venv-next tests/verify/requirements-next.txt gixy-next
export NGINX_GEN_GIXY="$root/.venv/bin/gixy"
export NGINX_GEN_GIXY_NEXT="$root/.venv-next/bin/gixy-next"
export NGINX_GEN_SSLYZE="$root/.venv/bin/sslyze"

# --- nginx builds from Debian's source archive (cached) -----------------------------------
# `build-nginx.sh --all` prints `LABEL PATH` per nginx available; a label whose source
# Debian's archive does not serve here is missing (exit 3 of that build), and its grid is
# skipped loudly. Labels → variables: 1.30-openssl3.5 → NGINX_GEN_NGINX_1_30_OPENSSL_3_5.
skips=()
builds=$(bash scripts/build-nginx.sh --all) || { echo "verify: scripts/build-nginx.sh --all failed" >&2; exit 1; }
say "nginx builds:"; printf '  %s\n' "$builds"
for label in 1.26 1.30 1.30-openssl3.5 1.26-openssl3.5; do
  var=NGINX_GEN_NGINX_$(echo "$label" | tr 'a-z.-' 'A-Z__' | sed 's/OPENSSL3_5/OPENSSL_3_5/')
  test=grid_nginx_$(echo "$label" | tr '.-' '__' | sed 's/openssl3_5/openssl_3_5/')
  path=$(awk -v l="$label" '$1 == l {print $2}' <<<"$builds")
  if [ -n "$path" ]; then
    export "$var=$path"
  else
    skips+=(--skip "$test")
    if [ "$label" != 1.26-openssl3.5 ]; then
      loud "nginx $label: its source could not be fetched from Debian's source archive:" \
           "SKIPPING $test. Everything else runs."
    fi
  fi
done
if [ -z "${NGINX_GEN_NGINX_1_30_OPENSSL_3_5:-}" ] && [ -z "${NGINX_GEN_NGINX_1_26_OPENSSL_3_5:-}" ]; then
  loud "no OpenSSL 3.5 build: the post-quantum gate is not exercised by a real nginx, and" \
       "sslyze runs on Debian's 1.22 only."
  export NGINX_GEN_VERIFY_NO_OPENSSL_3_5=1
fi

# --- the harness ---------------------------------------------------------------------------
cargo build -p nginx-gen --locked --quiet
export NGINX_GEN_BIN="$root/target/debug/nginx-gen"
export NGINX_GEN_PARSE_BACK_CASES=${NGINX_GEN_PARSE_BACK_CASES:-3000}
export NGINX_GEN_FUZZ_BODY_CASES=${NGINX_GEN_FUZZ_BODY_CASES:-1000}
say "grid: ${NGINX_GEN_VERIFY_CASES:-2000} cases per nginx build, ${NGINX_GEN_VERIFY_JOBS:-$(nproc)} jobs"
cargo test -p nginx-gen-verify --locked -- --include-ignored --test-threads 1 --nocapture --exact "${skips[@]}"

# --- fuzzing (cargo-fuzz needs nightly) ----------------------------------------------------------
fuzz_secs=${NGINX_GEN_FUZZ_SECONDS:-15}
if cargo +nightly --version >/dev/null 2>&1; then
  if ! command -v cargo-fuzz >/dev/null 2>&1; then
    # It only drives cargo: unoptimised, it compiles in a fraction of the time (setup.sh).
    say "cargo install cargo-fuzz (once)"
    cargo install --debug --locked --quiet cargo-fuzz
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
