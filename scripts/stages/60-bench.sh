#!/usr/bin/env bash
# Benchmark harness smoke test: `nginx-gen-bench --quick` starts Debian's nginx with the
# stock, guide, peer (nginxconfig.io, h5bp) and nginx-gen configurations on loopback ports,
# checks each answers 200, loads each once per scenario (wrk, h2load, the TLS handshake
# client, the slow upstream) and fails only when the harness breaks (nginx does not start, a
# load tool fails, a request errors). Performance numbers are results, not tests: the
# full run (`cargo run --release -p nginx-gen-bench -- --shaped`) writes docs/benchmarks.md.
# Every loss the CPU can settle is measured again together (2 rounds in the smoke), and
# `--recheck-all` on html runs that path whatever the round said. Then the capacity smoke,
# `nginx-gen-bench capacity --quick` (≈ 20 s, bound: 2 min): one small machine size
# (1 vCPU, 512M), plain HTTP and TLS, the clients nginx-gen plans for it held open on a live
# nginx in a network namespace; fails only when the harness breaks or errors appear at 1.0×
# the planned clients (memory against the estimate is a result).
# And `nginx-gen-bench search --quick` (≤ 60 s): the configuration search's whole path
# (grid, nginx -t of each patch, screen, the confirmation loaded together, report) on 3
# alternatives of html (a fourth, reuseport, listed as not run with one worker); then
# `--try @guide` on h2, a baseline confirmed like a patch.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" -ne 0 ]; then
  echo "60-bench: FATAL: needs root (binds ports, runs nginx workers as www-data)" >&2
  exit 1
fi
for tool in /usr/sbin/nginx wrk h2load /usr/bin/python3 taskset prlimit openssl curl ip ss; do
  command -v "$tool" >/dev/null 2>&1 || { echo "60-bench: FATAL: $tool missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
# The harness pins nginx and wrk to different CPUs when there are two.
if [ "$(nproc)" -ge 2 ]; then cpus=(--nginx-cpus 0 --wrk-cpus 1); else cpus=(--nginx-cpus 0 --wrk-cpus 0); fi
# The capacity mode runs the CLI binary next to the harness's.
cargo build --locked -p nginx-gen-bench -p nginx-gen
bin=${CARGO_TARGET_DIR:-target}/debug
out=tests/artifacts/bench-quick.md
rm -f "$out"
# One patched variant, so editing settings through the renderer's origins runs for real
# (a listen+ edit that found no catch-all listen would leave a directive nginx refuses).
start=$SECONDS
timeout 240 "$bin/nginx-gen-bench" --quick "${cpus[@]}" --patch 'deferred=listen+ deferred' --out "$out"
echo "60-bench: the load test's smoke took $((SECONDS - start)) s, its losses measured again together"
grep -q 'deferred' "$out"
grep -q '^### The losses measured again together' "$out"
# Every scenario ran against the peer baselines (stock takes no part in h2: no HTTP/2).
for sc in html h2 tls-full tls-resume proxy proxy-slow; do
  for v in nginxconfig h5bp nginx-gen; do
    grep -Eq "^\| $sc \| [0-9]+ \| $v \| " "$out" || { echo "60-bench: no $sc figures for $v in $out" >&2; exit 1; }
  done
done
test -s "$out" && test -s "${out%.md}.svg"
# The recheck's whole path whatever the round said: every html baseline measured again.
again=tests/artifacts/bench-recheck-quick.md
rm -f "$again"
timeout 60 "$bin/nginx-gen-bench" --quick "${cpus[@]}" --only html --recheck-all --out "$again"
for v in stock guide nginxconfig h5bp; do
  grep -Eq "^\| html \| 50 \| $v \| [a-z0-9-]+ \| [^|]+ \| [0-9.]+× \([0-9.]+\.\.[0-9.]+\) \| 2 \| " "$again" \
    || { echo "60-bench: html against $v not measured again together in $again" >&2; exit 1; }
done

cap=tests/artifacts/capacity-quick.md
rm -f "$cap"
start=$SECONDS
timeout 120 "$bin/nginx-gen-bench" capacity --quick --out "$cap"
echo "60-bench: the capacity smoke took $((SECONDS - start)) s"
grep -q 'nginx-gen-bench:capacity:end' "$cap"
search=tests/artifacts/bench-search-quick.md
rm -f "$search"
start=$SECONDS
timeout 90 "$bin/nginx-gen-bench" search --quick "${cpus[@]}" --out "$search"
echo "60-bench: search --quick took $((SECONDS - start)) s (budget 60 s)"
grep -q 'nginx-gen-bench-search:end' "$search"
grep -q '| screen | `listen- deferred` |' "$search"
# One worker: the knobs that act only between workers are listed as not run, with why.
grep -q '| not run | `listen+ reuseport` | .*2 or more workers' "$search"
# The confirmation ran its instances together (the search's default since 2026-12-06).
grep -q 'CPU/req, together' "$search"
# A baseline measured together as a candidate (`--try @guide`), and one that does not serve
# the scenario (stock has no HTTP/2) listed as not run instead of scored.
baseline=tests/artifacts/bench-search-baseline.md
rm -f "$baseline"
timeout 60 "$bin/nginx-gen-bench" search --quick "${cpus[@]}" --only h2 --try @guide --try @stock --out "$baseline"
grep -q '| confirmation | `@guide` |' "$baseline"
grep -q '| not run | `@stock` |' "$baseline"
