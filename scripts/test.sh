#!/usr/bin/env bash
# The one test command: installs what is missing (scripts/setup.sh), then runs every stage
# in scripts/stages/ in order. Stops at the first failing stage.
#   scripts/test.sh            everything
#   scripts/test.sh rust web   only the stages whose names contain these words
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=never
mkdir -p tests/artifacts

# Whether stage NAME runs: every stage, or those whose names contain a word given.
wanted() {
  (($# > 1)) || return 0
  local name=$1 want
  shift
  for want in "$@"; do [[ $name == *"$want"* ]] && return 0; done
  return 1
}

# The booted-host root (debootstrap: network and disk, little CPU; minutes on a fresh
# machine, nothing once cached) is built beside the first stages; stage 57 waits for it
# (scripts/host-root.sh builds under a lock). A failure here shows again in stage 57.
if [ "$(id -u)" -eq 0 ] && wanted 57-host "$@"; then
  bash scripts/host-root.sh >/dev/null 2>tests/artifacts/host-root.log &
fi

# The nginx and OpenSSL builds from Debian's source archive (stages 50 and 55; several
# minutes of compiling on a fresh machine, nothing once cached) start beside the first
# stages too, at the lowest priority, so they take the CPU those stages leave idle; the
# stages that need them wait for them (scripts/build-nginx.sh builds under a lock). A failure
# here shows again in stage 50. Only as root, like the twin above: elsewhere build-nginx.sh
# asks sudo, and its password prompt would land in the middle of stage 10.
if [ "$(id -u)" -eq 0 ] && { wanted 50-verify "$@" || wanted 55-behaviour "$@"; }; then
  nice -n 19 bash scripts/build-nginx.sh --all >/dev/null 2>tests/artifacts/build-nginx.log &
fi

passed=0
failed=0
for stage in scripts/stages/*.sh; do
  name=$(basename "$stage" .sh)
  wanted "$name" "$@" || continue
  printf '\n\033[1m=== stage %s ===\033[0m\n' "$name"
  start=$SECONDS
  if bash "$stage"; then
    passed=$((passed + 1))
    printf '=== stage %s passed in %ss ===\n' "$name" $((SECONDS - start))
  else
    failed=$((failed + 1))
    printf '=== stage %s FAILED after %ss ===\n' "$name" $((SECONDS - start))
    break
  fi
done
wait || true # the background builds (a failure, if any, showed in stage 50 or 57)
echo
echo "stages: $passed passed, $failed failed"
((failed == 0))
