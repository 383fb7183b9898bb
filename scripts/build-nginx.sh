#!/usr/bin/env bash
# Builds nginx 1.26.3 from Debian's source archive (the upstream .orig.tar.gz of Debian 13's
# nginx package) once, and caches the binary. Prints the binary's path on stdout, last line.
#
#   scripts/build-nginx.sh            build if missing, print the path
#   NGINX_GEN_CACHE=/some/dir …       cache directory (default /var/cache/nginx-gen, or
#                                     ~/.cache/nginx-gen when that is not writable)
#
# Exit 0 with the path on success; exit 3 when the source cannot be fetched (the caller skips
# the 1.26 part loudly); any other non-zero exit is a real failure.
set -euo pipefail

VERSION=1.26.3
say() { printf '\033[1mbuild-nginx:\033[0m %s\n' "$*" >&2; }

cache=${NGINX_GEN_CACHE:-/var/cache/nginx-gen}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/nginx-gen"
  mkdir -p "$cache"
fi
prefix="$cache/nginx-$VERSION"
bin="$prefix/sbin/nginx"

# Reuse: the cached binary must run and report the right version.
if [ -x "$bin" ] && "$bin" -v 2>&1 | grep -q "nginx/$VERSION"; then
  say "cached: $bin"
  echo "$bin"
  exit 0
fi

SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# --- build dependencies from Debian -----------------------------------------------------
bash "$(dirname "$0")/apt-missing.sh" build-essential libpcre2-dev libssl-dev zlib1g-dev dpkg-dev

# --- source: Debian 13 (trixie) source archive, download only ------------------------------
# A separate sources file with only a deb-src line, so nothing is ever installed from trixie.
src_list=/etc/apt/sources.list.d/nginx-gen-trixie-src.sources
if [ ! -f "$src_list" ]; then
  # The archive's address is taken from the machine's own Debian sources (the first
  # non-security `URIs:` entry), so this script names no host itself.
  uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
  if [ -z "$uri" ]; then
    uri=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
  fi
  if [ -z "$uri" ]; then
    say "FAILED: no Debian archive address found in the apt sources to derive a deb-src entry from"
    exit 3
  fi
  say "adding a deb-src entry for Debian 13 (trixie) in $src_list"
  $SUDO tee "$src_list" >/dev/null <<SRC
# Written by nginx-gen's scripts/build-nginx.sh: source packages only (apt-get source),
# used to fetch the upstream nginx tarball for the verification build. Nothing is
# installed from this suite.
Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

work="$cache/src"
mkdir -p "$work"
tarball=$(ls "$work"/nginx_"$VERSION".orig.tar.gz 2>/dev/null || true)
if [ -z "$tarball" ]; then
  say "fetching the nginx $VERSION source from Debian's source archive"
  if ! $SUDO apt-get update -qq 2>&1 | tail -5 >&2; then :; fi
  # The trixie nginx source may be 1.26.3-N; ask for exactly that upstream version.
  srcver=$(apt-cache showsrc nginx 2>/dev/null | sed -n 's/^Version: //p' | grep "^$VERSION-" | head -1 || true)
  if [ -z "$srcver" ]; then
    say "FAILED: no nginx $VERSION source package visible to apt (apt-cache showsrc nginx)"
    exit 3
  fi
  if ! (cd "$work" && apt-get source --download-only "nginx=$srcver" >&2); then
    # Debian's packaging files may be unobtainable; the .orig.tar.gz is all we need.
    say "apt-get source failed as a whole; checking whether the .orig.tar.gz arrived"
  fi
  tarball=$(ls "$work"/nginx_"$VERSION".orig.tar.gz 2>/dev/null || true)
  if [ -z "$tarball" ]; then
    say "FAILED: nginx_$VERSION.orig.tar.gz could not be fetched"
    exit 3
  fi
fi

# Verify the tarball against the SHA-256 in the signed Sources index (apt-cache showsrc),
# then check that it unpacks to the expected tree.
want=$(apt-cache showsrc nginx 2>/dev/null | awk -v f="nginx_$VERSION.orig.tar.gz" 'length($1) == 64 && $3 == f {print $1; exit}')
have=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ -z "$want" ]; then
  say "WARNING: no SHA-256 for nginx_$VERSION.orig.tar.gz in apt's Sources index; not verified"
elif [ "$want" != "$have" ]; then
  say "FAILED: checksum mismatch for $tarball (Sources $want, file $have)"
  rm -f "$tarball"
  exit 1
else
  say "sha256 of nginx_$VERSION.orig.tar.gz matches Debian's signed Sources index"
fi

build="$work/build"
rm -rf "$build"
mkdir -p "$build"
tar -xzf "$tarball" -C "$build"
srcdir="$build/nginx-$VERSION"
[ -x "$srcdir/configure" ] || { say "FAILED: $tarball has no nginx-$VERSION/configure"; exit 1; }

say "configuring and building nginx $VERSION (a few minutes on 2 cores)"
cd "$srcdir"
./configure \
  --prefix="$prefix" \
  --conf-path="$prefix/conf/nginx.conf" \
  --error-log-path=stderr \
  --pid-path="$prefix/logs/nginx.pid" \
  --lock-path="$prefix/logs/nginx.lock" \
  --http-log-path="$prefix/logs/access.log" \
  --http-client-body-temp-path="$prefix/temp/body" \
  --http-proxy-temp-path="$prefix/temp/proxy" \
  --http-fastcgi-temp-path="$prefix/temp/fastcgi" \
  --http-uwsgi-temp-path="$prefix/temp/uwsgi" \
  --http-scgi-temp-path="$prefix/temp/scgi" \
  --with-compat --with-threads --with-file-aio --with-pcre-jit \
  --with-http_ssl_module --with-http_v2_module --with-http_v3_module \
  --with-http_realip_module --with-http_gzip_static_module --with-http_stub_status_module \
  >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log" >&2; say "FAILED: configure"; exit 1; }
make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; say "FAILED: make"; exit 1; }
make install >"$work/install.log" 2>&1 || { tail -20 "$work/install.log" >&2; say "FAILED: make install"; exit 1; }
mkdir -p "$prefix/temp" "$prefix/logs"
rm -rf "$build"
"$bin" -V >&2
say "built $bin"
echo "$bin"
