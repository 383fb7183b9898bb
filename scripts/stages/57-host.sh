#!/usr/bin/env bash
# Booted-host suite (docs/verification.md, "Booted-host tests"): nginx-gen apply on a Debian
# 12 root booted with systemd-nspawn (systemd as PID 1, Debian's nginx running, a site and
# the guide's sysctl file there before), one fresh overlay of the cached root per scenario,
# the release binary bound in read-only, checked by curl, /proc/PID/limits, sysctl -n, byte
# comparisons and nginx -T inside the container. Faults: real ones (a tree nginx -t
# rejects, a sysctl file the kernel rejects, a reload the unit refuses, a host site that
# closes the probe's connection, a restart the unit refuses) and injected ones
# (NGINX_GEN_TEST_FAIL_STEP=probe-http, in apply and in rollback); nginx-gen rollback;
# nginx-gen check on the stock host, after apply, after a sysctl and a limit changed; the
# install script of --format script, run with sh (tests/host/tests/script.rs); the php
# workload with Debian's php8.2-fpm (tests/host/tests/php.rs): the pool checked with
# php-fpm8.2 -t, PHP-FPM reloaded after nginx and probed, a pool PHP-FPM rejects, PHP-FPM
# missing, an injected php-fpm-probe and a PHP-FPM reload the unit refuses, check of a pool
# edited by hand, rollback of the pool.
# The root is built once by scripts/host-root.sh (cached in ${NGINX_GEN_CACHE:-/var/cache/nginx-gen}).
# Results: tests/artifacts/host.md. Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { printf '\033[1mhost:\033[0m %s\n' "$*"; }
if [ "$(id -u)" -ne 0 ]; then
  echo "57-host: FATAL: needs root (debootstrap, overlay mounts, systemd-nspawn)" >&2
  exit 1
fi
bash scripts/apt-missing.sh debootstrap systemd-container util-linux
for tool in systemd-nspawn nsenter mount umount timeout; do
  command -v "$tool" >/dev/null 2>&1 || { echo "57-host: FATAL: $tool missing" >&2; exit 1; }
done

start=$SECONDS
root=$(bash scripts/host-root.sh)
export NGINX_GEN_HOST_ROOT="$root"
say "root: $root ($((SECONDS - start)) s)"

cargo build --release --locked -p nginx-gen
export NGINX_GEN_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/nginx-gen"

# What a killed earlier run left: containers (by the PID each recorded), mounts, directories.
runs="${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/host-runs"
if [ -d "$runs" ]; then
  for dir in "$runs"/*/; do
    [ -d "$dir" ] || continue
    # ngh-PID-…: the test process that booted it; a live one is another run's.
    owner=$(basename "$dir" | cut -d- -f2)
    [ -n "$owner" ] && [ -e "/proc/$owner" ] && continue
    say "removing the leftover $dir"
    pid=$(cat "$dir/nspawn.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = systemd-nspawn ]; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do [ -e "/proc/$pid" ] || break; sleep 0.2; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    umount "$dir/merged" 2>/dev/null || umount -l "$dir/merged" 2>/dev/null || true
    rm -rf "$dir"
  done
fi

mkdir -p tests/artifacts
report=tests/artifacts/host.md
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
suite=$SECONDS
set +e
# The fleet and release tests of the same crate need stage 58's artifacts: they run there.
NGINX_GEN_HOST_REPORT="$raw" cargo test --locked --no-fail-fast -p nginx-gen-host-tests \
  --test host --test rollback --test check --test php --test script -- --include-ignored --test-threads=1
rc=$?
set -e
took=$((SECONDS - suite))
{
  echo "# Booted-host suite"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kernel $(uname -r), root $(cut -c1-12 "$root/.nginx-gen-host-root"): $( [ $rc -eq 0 ] && echo passed || echo FAILED) in $took s (build of the test crate, boots and teardown included)."
  echo
  echo "| scenario | result | seconds | notes |"
  echo "|---|---|---|---|"
  cat "$raw"
} >"$report"
cat "$report"
exit $rc
