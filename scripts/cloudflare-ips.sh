#!/usr/bin/env bash
# Refreshes the Cloudflare address ranges nginx-gen ships (core/src/policy/cdn.rs) from
# Cloudflare's own lists, with network access:
#
#   bash scripts/cloudflare-ips.sh            # prints the `CLOUDFLARE` table with today's date
#   bash scripts/cloudflare-ips.sh --check    # exit 1 when the lists differ from the shipped ones
#
# Without nginx-gen's sources, the same lists are: curl -fsS https://www.cloudflare.com/ips-v4
# https://www.cloudflare.com/ips-v6 — compare them with the set_real_ip_from lines of the
# generated nginx.conf (or generate again with a newer nginx-gen).
set -euo pipefail
cd "$(dirname "$0")/.."
lists=$(for family in v4 v6; do
  curl -fsS "https://www.cloudflare.com/ips-$family"
  echo
done | tr -d '\r' | grep -E '^[0-9a-f.:]+/[0-9]+$')
[ -n "$lists" ] || { echo "cloudflare-ips: no ranges fetched" >&2; exit 1; }
if [ "${1:-}" = --check ]; then
  shipped=$(sed -n '/^pub const CLOUDFLARE/,/^};/p' core/src/policy/cdn.rs | grep -oE '"[0-9a-f.:]+/[0-9]+"' | tr -d '"')
  if [ "$(sort <<<"$lists")" = "$(sort <<<"$shipped")" ]; then
    echo "cloudflare-ips: the shipped ranges are current"
    exit 0
  fi
  diff <(sort <<<"$shipped") <(sort <<<"$lists") || true
  exit 1
fi
echo "pub const CLOUDFLARE: CdnRanges = CdnRanges {"
echo "    taken: \"$(date -u +%F)\","
echo "    networks: &["
sed 's/.*/        "&",/' <<<"$lists"
echo "    ],"
echo "};"
