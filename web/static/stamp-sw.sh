#!/bin/sh
# trunk post_build hook: write this build's file list and a hash of their contents into
# the staged sw.js, so each build uses a fresh cache and drops the previous one. The
# language catalogues (i18n/) count for the hash but are not precached: the page fetches
# one when it is chosen, and the worker keeps it then. The install script's functions
# (script/install-steps.sh) are precached: the page fetches them only when the install.sh
# tab is shown, and it should work offline.
set -eu
cd "${TRUNK_STAGING_DIR:?run by trunk}"
files=$(find . -type f ! -name sw.js | sed 's|^\./||' | LC_ALL=C sort)
hash=$(for f in $files; do sha256sum "$f"; done | sha256sum | cut -c1-16)
list=$(for f in $files; do case "$f" in i18n/*) ;; *) printf '"./%s",' "$f" ;; esac; done)
sed -i "s|__BUILD__|$hash|; s|\"__FILES__\"|${list%,}|" sw.js
grep -q "$hash" sw.js
