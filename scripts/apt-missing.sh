#!/usr/bin/env bash
# Installs those of the Debian packages named as arguments that are not installed yet
# (apt-get update first, only when something is missing); prints what it installs on stderr.
# Used by scripts/setup.sh and scripts/build-nginx.sh.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
printf '\033[1mapt-missing:\033[0m installing Debian packages: %s\n' "${missing[*]}" >&2
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
# Background builds (scripts/test.sh) may use apt at the same time: wait for its locks.
bash "$(dirname "$0")/apt-update.sh"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
