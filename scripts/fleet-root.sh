#!/usr/bin/env bash
# The Debian 12 root stage 58-fleet boots for Ansible: scripts/host-root.sh's root (systemd,
# Debian's nginx, a site of its own, the guide's sysctl file) plus python3, which Ansible's
# modules need on the managed host. Built once: a copy of the host root, python3 installed
# into it with apt-get in a chroot (from the mirror the root's own sources.list names).
# Cached in ${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/fleet-root/root with a stamp of this
# script's digest and the host root's stamp: a second run changes nothing and prints the
# path; a rebuilt host root or an edit of this script rebuilds it. Needs root.
# Prints the root's path on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1mfleet-root:\033[0m %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { echo "fleet-root: FATAL: needs root (chroot, apt-get)" >&2; exit 1; }

host_root=$(bash scripts/host-root.sh)
cache="${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/fleet-root"
root="$cache/root"
stamp_want="$(sha256sum scripts/fleet-root.sh | cut -d' ' -f1) $(cat "$host_root/.nginx-gen-host-root")"
if [ -f "$root/.nginx-gen-fleet-root" ] && [ "$(cat "$root/.nginx-gen-fleet-root")" = "$stamp_want" ]; then
  echo "$root"
  exit 0
fi

mkdir -p "$cache"
tmp="$cache/root.tmp"
rm -rf "$tmp"
say "copying $host_root and installing python3 into it (once)"
start=$SECONDS
cp -a "$host_root/." "$tmp"
cp /etc/resolv.conf "$tmp/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$tmp/proc"
set +e
chroot "$tmp" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends python3 && apt-get clean' \
  >"$cache/apt.log" 2>&1
rc=$?
set -e
umount "$tmp/proc"
if [ $rc -ne 0 ]; then
  tail -20 "$cache/apt.log" >&2
  echo "fleet-root: FATAL: apt-get install python3 failed in the chroot (log: $cache/apt.log)" >&2
  exit 1
fi
rm -rf "$tmp/var/lib/apt/lists/"*
printf '%s' "$stamp_want" >"$tmp/.nginx-gen-fleet-root"
rm -rf "$root"
mv "$tmp" "$root"
say "built in $((SECONDS - start)) s"
echo "$root"
