#!/usr/bin/env bash
# Size report of the web page: raw, gzip -9 and brotli -q 11 of every file in dist/, and the
# total of the first load (every file but the service worker, which loads after the page,
# the language catalogues in i18n/, one of which loads when its language is chosen, and
# script/install-steps.sh, which loads when the install.sh tab is first shown or when the
# service worker precaches it after the page).
#   scripts/size-report.sh [DIST]        (after `trunk build --release`)
# Target: first load <= 150 KB brotli. Reported, not asserted.
set -euo pipefail
dist=${1:-dist}
[ -f "$dist/index.html" ] || { echo "size-report: $dist/index.html missing; run trunk build --release" >&2; exit 1; }
command -v brotli >/dev/null || { echo "size-report: brotli is missing (apt-get install brotli)" >&2; exit 1; }
total_raw=0; total_gz=0; total_br=0
printf '%-44s %9s %9s %9s\n' "file" "raw" "gzip" "brotli"
while IFS= read -r f; do
  raw=$(wc -c <"$f"); gz=$(gzip -9c "$f" | wc -c); br=$(brotli -c -q 11 "$f" | wc -c)
  printf '%-44s %9d %9d %9d\n' "${f#"$dist"/}" "$raw" "$gz" "$br"
  dir=$(basename "$(dirname "$f")")
  if [ "$(basename "$f")" != sw.js ] && [ "$dir" != i18n ] && [ "$dir" != script ]; then
    total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz)); total_br=$((total_br + br))
  fi
done < <(find "$dist" -type f | LC_ALL=C sort)
printf '%-44s %9d %9d %9d\n' "first load (all but sw.js, i18n/, script/)" "$total_raw" "$total_gz" "$total_br"
printf 'first load brotli: %d KB (target <= 150 KB)%s\n' $(((total_br + 999) / 1000)) \
  "$( ((total_br <= 150000)) && echo '' || echo ' - OVER TARGET')"
