#!/usr/bin/env bash
# Fleet (docs/fleet.md): nginx-gen fleet on 120 synthetic hosts (under a second, the table
# equal to per-host runs: scripts/fleet-bench.sh), ansible-lint on deploy/ansible, and a real
# ansible-playbook over three hosts — the booted Debian 12 of stage 57 (with python3:
# scripts/fleet-root.sh) and two local roots — by tests/host/tests/fleet.rs: first run,
# second run changed=0, --check --diff, an injected failure rolled back and stopping the
# rolling play, the drift check; and scripts/release.sh's artifacts (tests/host/tests/release.rs):
# the .deb installed in the booted Debian 12, the static binary there and in an empty root.
# ansible-core and ansible-lint (pinned below) are installed once into a venv in
# ${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/fleet-venv; a second run only checks the stamp.
# Results: tests/artifacts/fleet.md. Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."

ANSIBLE_CORE=2.19.14
ANSIBLE_LINT=26.10.1

say() { printf '\033[1mfleet:\033[0m %s\n' "$*"; }
if [ "$(id -u)" -ne 0 ]; then
  echo "58-fleet: FATAL: needs root (overlay mounts, systemd-nspawn, nsenter)" >&2
  exit 1
fi
bash scripts/apt-missing.sh debootstrap systemd-container util-linux python3-venv
start=$SECONDS

# --- ansible-core and ansible-lint in a cached venv --------------------------------------------
venv="${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/fleet-venv"
want="ansible-core==$ANSIBLE_CORE ansible-lint==$ANSIBLE_LINT $(python3 --version)"
if [ "$(cat "$venv/.nginx-gen-stamp" 2>/dev/null)" != "$want" ]; then
  say "installing ansible-core $ANSIBLE_CORE and ansible-lint $ANSIBLE_LINT into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "ansible-core==$ANSIBLE_CORE" "ansible-lint==$ANSIBLE_LINT"
  printf '%s' "$want" >"$venv/.nginx-gen-stamp"
fi
versions=$("$venv/bin/ansible-playbook" --version)
echo "${versions%%$'\n'*}"
say "venv ready ($((SECONDS - start)) s)"

root=$(bash scripts/fleet-root.sh)
say "root: $root ($((SECONDS - start)) s)"

cargo build --release --locked -p nginx-gen
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/nginx-gen"

mkdir -p tests/artifacts
report=tests/artifacts/fleet.md
bench=$(bash scripts/fleet-bench.sh 120 "$bin")
echo "$bench"

say "ansible-lint deploy/ansible"
lint_out=$(cd deploy/ansible && ANSIBLE_CONFIG=ansible.cfg "$venv/bin/ansible-lint" --offline \
  --nocolor roles/nginx_gen playbooks 2>&1) || { echo "$lint_out"; echo "58-fleet: ansible-lint failed" >&2; exit 1; }
lint=$(echo "$lint_out" | grep -E 'Passed|Failed' | tail -1)
echo "$lint"

say "scripts/release.sh: the static binary and the Debian package"
dist="${CARGO_TARGET_DIR:-$PWD/target}/dist"
artifacts=$(bash scripts/release.sh "$dist")
static=$(echo "$artifacts" | sed -n 1p)
deb=$(echo "$artifacts" | sed -n 2p)

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
suite=$SECONDS
set +e
NGINX_GEN_HOST_ROOT="$root" NGINX_GEN_BIN="$bin" NGINX_GEN_ANSIBLE="$venv/bin" \
  NGINX_GEN_STATIC="$static" NGINX_GEN_DEB="$deb" NGINX_GEN_HOST_REPORT="$raw" \
  cargo test --locked --no-fail-fast -p nginx-gen-host-tests --test fleet --test release -- \
  --include-ignored --test-threads=1
rc=$?
set -e
{
  echo "# Fleet"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ): $( [ $rc -eq 0 ] && echo passed || echo FAILED); stage $((SECONDS - start)) s, the booted scenarios $((SECONDS - suite)) s."
  echo
  echo "- $bench"
  echo "- ansible-lint $ANSIBLE_LINT (ansible-core $ANSIBLE_CORE): $lint"
  echo
  echo "| scenario | result | seconds | notes |"
  echo "|---|---|---|---|"
  cat "$raw"
} >"$report"
cat "$report"
exit $rc
