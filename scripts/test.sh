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

passed=0
failed=0
for stage in scripts/stages/*.sh; do
  name=$(basename "$stage" .sh)
  if (($#)); then
    keep=0
    for want in "$@"; do [[ $name == *"$want"* ]] && keep=1; done
    ((keep)) || continue
  fi
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
echo
echo "stages: $passed passed, $failed failed"
((failed == 0))
