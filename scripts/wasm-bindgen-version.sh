#!/usr/bin/env bash
# Prints the wasm-bindgen version pinned in Cargo.toml's [workspace.dependencies]
# (`wasm-bindgen = "=X.Y.Z"`, the one place it is pinned) after checking that Trunk.toml's
# [tools] wasm_bindgen names the same (trunk needs the literal). Exits 1 with a message
# naming both files when the pin is missing or the two disagree.
# With --cli it also checks that `wasm-bindgen --version` on PATH is that version.
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(sed -n '/^\[workspace\.dependencies\]/,/^\[/s/^wasm-bindgen = "=\([0-9][0-9.]*\)".*/\1/p' Cargo.toml)
if [ -z "$want" ]; then
  echo "wasm-bindgen-version: Cargo.toml [workspace.dependencies] has no exact pin \`wasm-bindgen = \"=X.Y.Z\"\`" >&2
  exit 1
fi
trunk=$(sed -n '/^\[tools\]/,/^\[/s/^wasm_bindgen = "\([^"]*\)".*/\1/p' Trunk.toml)
if [ "$trunk" != "$want" ]; then
  echo "wasm-bindgen-version: Trunk.toml [tools] wasm_bindgen = \"${trunk:-<missing>}\" but Cargo.toml [workspace.dependencies] pins wasm-bindgen =$want: make Trunk.toml say \"$want\"" >&2
  exit 1
fi
if [ "${1:-}" = "--cli" ]; then
  have=$(wasm-bindgen --version 2>/dev/null || echo "no wasm-bindgen on PATH")
  case "$have " in
    *" $want "*) ;;
    *) echo "wasm-bindgen-version: the wasm-bindgen CLI is \"$have\", not $want (Cargo.toml [workspace.dependencies]); scripts/setup.sh installs it" >&2; exit 1 ;;
  esac
fi
echo "$want"
