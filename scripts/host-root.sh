#!/usr/bin/env bash
# Builds, once, the Debian 12 root the booted-host tests boot with systemd-nspawn
# (tests/host/, stage 57-host): debootstrap bookworm with systemd, dbus, nginx, curl,
# iproute2, procps, openssl and php8.2-fpm (Debian's PHP-FPM, running its stock www pool,
# for apply and check of the php workload's pool file), plus
#   - a site of its own, old.example, in sites-enabled beside Debian's default site,
#     answering "old.example: the site that was here before\n";
#   - the guide's sysctl file /etc/sysctl.d/99-nginx-tuning.conf.
# Cached as a directory in ${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/host-root/root, with a
# stamp holding this script's digest: a second run changes nothing and prints the path;
# an edit of this script rebuilds it. The tests never write into it (each one boots an
# overlay or a copy of it). Needs root. The mirror is the one apt already uses here.
# Prints the root's path on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1mhost-root:\033[0m %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { echo "host-root: FATAL: needs root (debootstrap)" >&2; exit 1; }

cache="${NGINX_GEN_CACHE:-/var/cache/nginx-gen}/host-root"
root="$cache/root"
stamp_want=$(sha256sum scripts/host-root.sh | cut -d' ' -f1)
if [ -f "$root/.nginx-gen-host-root" ] && [ "$(cat "$root/.nginx-gen-host-root")" = "$stamp_want" ]; then
  echo "$root"
  exit 0
fi

# One build at a time: scripts/test.sh starts one beside the first stages, and stage 57
# waits here for it (then finds the stamp and prints the path).
mkdir -p "$cache"
exec 9>"$cache.lock"
flock 9
if [ -f "$root/.nginx-gen-host-root" ] && [ "$(cat "$root/.nginx-gen-host-root")" = "$stamp_want" ]; then
  echo "$root"
  exit 0
fi

bash scripts/apt-missing.sh debootstrap systemd-container
command -v debootstrap >/dev/null || { echo "host-root: FATAL: debootstrap missing" >&2; exit 1; }

# The Debian mirror apt uses on this machine (deb822 sources first, then sources.list).
mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  mirror=$(awk '
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print uri; exit } }
  ' "$f")
  [ -n "$mirror" ] && break
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "host-root: FATAL: no bookworm mirror in /etc/apt/sources.list(.d)" >&2; exit 1; }

mkdir -p "$cache"
tmp="$cache/root.tmp"
rm -rf "$tmp"
say "debootstrap bookworm into $tmp (a few minutes, once)"
start=$SECONDS
debootstrap --variant=minbase \
  --include=systemd,systemd-sysv,dbus,nginx,curl,iproute2,procps,openssl,ca-certificates,php8.2-fpm \
  bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
  tail -30 "$cache/debootstrap.log" >&2
  echo "host-root: FATAL: debootstrap failed (log: $cache/debootstrap.log)" >&2
  exit 1
}
say "debootstrap took $((SECONDS - start)) s"

# --- the pre-existing state the tests start from ---------------------------------------------
mkdir -p "$tmp/var/www/old.example"
printf 'old.example: the site that was here before\n' >"$tmp/var/www/old.example/index.html"
cat >"$tmp/etc/nginx/sites-available/old.example" <<'SITE'
# A site that was here before nginx-gen: apply must keep it serving.
server {
    listen 80;
    listen [::]:80;
    server_name old.example;
    root /var/www/old.example;
    index index.html;
    location / {
        try_files $uri $uri/ =404;
    }
}
SITE
ln -sf ../sites-available/old.example "$tmp/etc/nginx/sites-enabled/old.example"
cat >"$tmp/etc/sysctl.d/99-nginx-tuning.conf" <<'SYSCTL'
# The guide's own tuning file, there before nginx-gen.
net.core.somaxconn = 65535
net.ipv4.tcp_max_syn_backlog = 65535
fs.file-max = 2097152
SYSCTL
echo nginx-gen-host >"$tmp/etc/hostname"
# A fresh machine id on each boot.
: >"$tmp/etc/machine-id"
# nginx starts at boot (debootstrap's policy-rc.d kept it from starting in the chroot, the
# enablement link is made by its postinst; make sure).
mkdir -p "$tmp/etc/systemd/system/multi-user.target.wants"
ln -sf /lib/systemd/system/nginx.service "$tmp/etc/systemd/system/multi-user.target.wants/nginx.service"
# So does PHP-FPM, with Debian's stock pool /etc/php/8.2/fpm/pool.d/www.conf.
[ -x "$tmp/usr/sbin/php-fpm8.2" ] || { echo "host-root: FATAL: php8.2-fpm not installed" >&2; exit 1; }
ln -sf /lib/systemd/system/php8.2-fpm.service "$tmp/etc/systemd/system/multi-user.target.wants/php8.2-fpm.service"
# Nothing in the container needs a login prompt or the network's time.
for unit in console-getty.service getty@.service systemd-timesyncd.service apt-daily.timer \
            apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer; do
  ln -sf /dev/null "$tmp/etc/systemd/system/$unit"
done
rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*

echo "$stamp_want" >"$tmp/.nginx-gen-host-root"
rm -rf "$root"
mv "$tmp" "$root"
say "ready: $root ($(du -sh "$root" | cut -f1)) in $((SECONDS - start)) s"
echo "$root"
