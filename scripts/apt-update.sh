#!/usr/bin/env bash
# `apt-get update` that waits up to 10 minutes for apt's lists lock instead of failing.
# Bookworm's apt-get update does not honour DPkg::Lock::Timeout (with the lock held elsewhere
# it fails at once), and the background builds of scripts/test.sh may update beside a stage.
# Used by scripts/apt-missing.sh and scripts/build-nginx.sh.
set -euo pipefail
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
for ((waited = 0; ; waited += 5)); do
  if out=$($SUDO apt-get update -qq 2>&1); then
    [ -z "$out" ] || printf '%s\n' "$out" >&2
    exit 0
  fi
  if ! grep -q 'Could not get lock' <<<"$out" || ((waited >= 600)); then
    printf '%s\n' "$out" >&2
    exit 1
  fi
  ((waited % 60)) || echo "apt-update: waiting for apt's lists lock (held by another apt)" >&2
  sleep 5
done
