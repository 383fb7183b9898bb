#!/usr/bin/env bash
# Benchmark harness smoke test: `nginx-gen-bench --quick` (≤ 30 s of load) starts Debian's
# nginx with the stock, guide and nginx-gen configurations on loopback ports, checks each
# answers 200, loads each once with wrk and fails only when the harness breaks (nginx does
# not start, wrk fails, a request errors). Performance numbers are results, not tests: the
# full run (`cargo run --release -p nginx-gen-bench -- --shaped`) writes docs/benchmarks.md.
# Then `nginx-gen-bench search --quick` (≤ 60 s): the configuration search's whole path
# (grid, nginx -t of each patch, screen, confirmation, report) on 3 alternatives of html.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" -ne 0 ]; then
  echo "60-bench: FATAL: needs root (binds ports, runs nginx workers as www-data)" >&2
  exit 1
fi
for tool in /usr/sbin/nginx wrk taskset prlimit openssl curl ip; do
  command -v "$tool" >/dev/null 2>&1 || { echo "60-bench: FATAL: $tool missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
# The harness pins nginx and wrk to different CPUs when there are two.
if [ "$(nproc)" -ge 2 ]; then cpus=(--nginx-cpus 0 --wrk-cpus 1); else cpus=(--nginx-cpus 0 --wrk-cpus 0); fi
cargo build --locked -p nginx-gen-bench
bin="${CARGO_TARGET_DIR:-target}/debug/nginx-gen-bench"
out=tests/artifacts/bench-quick.md
rm -f "$out"
# One patched variant, so editing settings through the renderer's origins runs for real
# (a listen+ edit that found no catch-all listen would leave a directive nginx refuses).
timeout 150 "$bin" --quick "${cpus[@]}" --patch 'deferred=listen+ deferred' --out "$out"
grep -q 'deferred' "$out"
test -s "$out" && test -s "${out%.md}.svg"

search=tests/artifacts/bench-search-quick.md
rm -f "$search"
start=$SECONDS
timeout 90 "$bin" search --quick "${cpus[@]}" --out "$search"
echo "60-bench: search --quick took $((SECONDS - start)) s (budget 60 s)"
grep -q 'nginx-gen-bench-search:end' "$search"
grep -q 'listen+ reuseport' "$search"
