#!/usr/bin/env bash
# Builds nginx from Debian's source archive (the upstream .orig.tar.gz of Debian's source
# packages) once per label, and caches the build. Nothing is ever installed from another
# suite: a deb-src entry per suite is used for downloads only.
#
#   scripts/build-nginx.sh [LABEL]   build LABEL if missing (default 1.26); the binary's path
#                                    is the last line on stdout
#   scripts/build-nginx.sh --all     build every label if missing; print one `LABEL PATH` line
#                                    per nginx available here, Debian's own first
#                                    (`1.22 /usr/sbin/nginx`); labels whose source cannot be
#                                    fetched are named on stderr and left out
#   scripts/build-nginx.sh --list    the labels, one a line
#   scripts/build-nginx.sh --modules LABEL
#                                    the directory of LABEL's dynamic modules (brotli);
#                                    for 1.22 Debian's /usr/lib/nginx/modules
#
# Labels:
#   1.26              nginx 1.26.x of Debian 13 (trixie), system OpenSSL (Debian 12's 3.0)
#   1.30              nginx 1.30.x of Debian unstable (sid), system OpenSSL
#   1.30-openssl3.5   the same nginx linked statically with OpenSSL 3.5.x of trixie
#                     (`--with-openssl=DIR`)
#   1.26-openssl3.5   nginx 1.26.x with OpenSSL 3.5.x: the OpenSSL 3.5 build used where
#                     unstable's nginx source cannot be fetched (50-verify falls back to it)
#
# Every build: Debian's module set (as `nginx -V` of Debian 12's package: ssl, v2, v3 where
# nginx has it, realip, gzip_static, stub_status, auth_request, sub, …; stream and mail as
# dynamic modules), plus ngx_brotli (filter and static) as dynamic modules from Debian's
# libnginx-mod-http-brotli source package, against Debian 12's libbrotli. Paths inside the
# build are relative to the prefix, so `nginx -p DIR -c CONF` runs anywhere; the error log
# goes to stderr. Layout under NGINX_GEN_CACHE (default /var/cache/nginx-gen, else
# ~/.cache/nginx-gen): `nginx-<label>/sbin/nginx`, `nginx-<label>/modules/*.so`,
# `nginx-<label>/build-info` (versions, configure arguments, build seconds).
#
# Exit 0 with the path on success; exit 3 when a source cannot be fetched (the caller skips
# that build loudly); any other non-zero exit is a real failure.
set -euo pipefail

say() { printf '\033[1mbuild-nginx:\033[0m %s\n' "$*" >&2; }
here=$(cd "$(dirname "$0")" && pwd)
LABELS=(1.26 1.30 1.30-openssl3.5 1.26-openssl3.5)
# Bump when the configure arguments or the layout change: cached builds are then rebuilt.
RECIPE=2

cache=${NGINX_GEN_CACHE:-/var/cache/nginx-gen}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/nginx-gen"
  mkdir -p "$cache"
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# LABEL -> "nginx-suite nginx-upstream-glob openssl-suite openssl-upstream-glob"
spec() {
  case $1 in
    1.26) echo "trixie 1.26.3 - -" ;;
    1.30) echo "sid 1.30.* - -" ;;
    1.30-openssl3.5) echo "sid 1.30.* trixie 3.5.*" ;;
    1.26-openssl3.5) echo "trixie 1.26.3 trixie 3.5.*" ;;
    *) return 1 ;;
  esac
}

# --- the deb-src entries: download only ------------------------------------------------------
ensure_src_entry() { # SUITE
  local suite=$1 list=/etc/apt/sources.list.d/nginx-gen-$1-src.sources uri
  [ -f "$list" ] && return 0
  # The archive's address is taken from the machine's own Debian sources (the first
  # non-security `URIs:` entry), so this script names no host itself.
  uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
  if [ -z "$uri" ]; then
    uri=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | grep -i debian | head -1 | awk '{print $2}')
  fi
  if [ -z "$uri" ]; then
    say "FAILED: no Debian archive address found in the apt sources to derive a deb-src entry from"
    return 3
  fi
  say "adding a deb-src entry for Debian $suite in $list"
  $SUDO tee "$list" >/dev/null <<SRC
# Written by nginx-gen's scripts/build-nginx.sh: source packages only (apt-get source
# --print-uris), used to fetch upstream tarballs for the verification builds. Nothing is
# installed from this suite.
Types: deb-src
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  touch "$cache/.apt-update-needed"
}

apt_update_once() { # SUITE…: update when a suite's Sources index is missing
  local suite need=""
  [ -f "$cache/.apt-update-needed" ] && need=1
  for suite in "$@"; do
    compgen -G "/var/lib/apt/lists/*_dists_${suite}_main_source_Sources*" >/dev/null || need=1
  done
  if [ -n "$need" ]; then
    say "apt-get update (new deb-src entries)"
    $SUDO apt-get update -qq >&2 || true
    rm -f "$cache/.apt-update-needed"
  fi
}

# fetch_orig PACKAGE SUITE UPSTREAM-GLOB: the upstream tarball of SUITE's source package whose
# upstream version matches GLOB, checked against the SHA-256 of apt's signed Sources index
# (apt-helper verifies it while downloading). Tries the suite's version first, then every other
# version of that upstream series the indexes list, newest first (a mirror may lag behind its
# index). Prints the tarball's path; returns 3 when none can be fetched.
fetch_orig() {
  local pkg=$1 suite=$2 glob=$3 dir=$cache/src cand line uri file size hash tried=" "
  mkdir -p "$dir"
  # shellcheck disable=SC2207 # versions hold no white space
  local cands=("$pkg/$suite" $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -u | sort -rV | sed "s/^/$pkg=/"))
  for cand in "${cands[@]}"; do
    line=$(apt-get source --print-uris "$cand" 2>/dev/null | grep -E "^'[^']*/${pkg}_[^']*\.orig\.tar\.(gz|xz|bz2)' " | head -1 || true)
    [ -n "$line" ] || continue
    read -r uri file size hash <<<"$line"
    uri=${uri//\'/}
    # shellcheck disable=SC2254 # GLOB is a pattern on purpose
    case ${file#"${pkg}"_} in $glob.orig.tar.*) ;; *) continue ;; esac
    case $tried in *" $file "*) continue ;; esac
    tried="$tried$file "
    if [ -s "$dir/$file" ] && [ "$(sha256sum "$dir/$file" | cut -d' ' -f1)" = "${hash#SHA256:}" ]; then
      echo "$dir/$file"; return 0
    fi
    say "fetching $file ($size bytes) from Debian's source archive ($cand)"
    if /usr/lib/apt/apt-helper download-file "$uri" "$dir/$file.part" "$hash" >&2 2>"$dir/fetch.log"; then
      mv "$dir/$file.part" "$dir/$file"
      say "sha256 of $file matches Debian's signed Sources index"
      echo "$dir/$file"; return 0
    fi
    rm -f "$dir/$file.part"
    say "not obtainable: $file ($(grep -m1 -oE '[0-9]{3} [A-Za-z ]+' "$dir/fetch.log" || echo 'download failed'))"
  done
  return 3
}

unpack() { # TARBALL DEST -> the single top directory
  rm -rf "$2"; mkdir -p "$2"
  tar -xf "$1" -C "$2"
  find "$2" -mindepth 1 -maxdepth 1 -type d | head -1
}

build() { # LABEL
  local label=$1 nsuite nglob osuite oglob
  spec "$label" >/dev/null || { say "unknown label $label (known: ${LABELS[*]})"; return 2; }
  read -r nsuite nglob osuite oglob <<<"$(spec "$label")"
  local prefix=$cache/nginx-$label bin=$cache/nginx-$label/sbin/nginx
  if [ -x "$bin" ] && [ -f "$prefix/build-info" ] && grep -qx "recipe=$RECIPE" "$prefix/build-info" \
     && "$bin" -v 2>&1 | grep -q "nginx/$nglob" 2>/dev/null; then
    say "cached: $bin"
    echo "$bin"; return 0
  fi
  local start=$SECONDS
  bash "$here/apt-missing.sh" build-essential libpcre2-dev libssl-dev zlib1g-dev libbrotli-dev >&2
  ensure_src_entry "$nsuite" || return $?
  [ "$osuite" = - ] || ensure_src_entry "$osuite" || return $?
  apt_update_once "$nsuite" ${osuite/#-/}

  local ntar otar btar
  ntar=$(fetch_orig nginx "$nsuite" "$nglob") || { say "FAILED: no nginx $nglob source of Debian $nsuite could be fetched"; return 3; }
  btar=$(fetch_orig libnginx-mod-http-brotli "$nsuite" '*') || btar=""
  if [ "$osuite" != - ]; then
    otar=$(fetch_orig openssl "$osuite" "$oglob") || { say "FAILED: no OpenSSL $oglob source of Debian $osuite could be fetched"; return 3; }
  fi

  local work=$cache/build-$label
  rm -rf "$work"; mkdir -p "$work"
  local srcdir ossldir="" brotlidir=""
  srcdir=$(unpack "$ntar" "$work/nginx")
  [ -x "$srcdir/configure" ] || { say "FAILED: $ntar has no configure"; return 1; }
  local version; version=$(sed -n 's/^#define NGINX_VERSION *"\(.*\)"/\1/p' "$srcdir/src/core/nginx.h")
  local args=(
    --prefix="$prefix" --error-log-path=stderr
    # Debian 12's nginx -V, less the modules that need further libraries (geoip, image
    # filter, perl, xslt) and --with-debug.
    --with-compat --with-pcre-jit --with-threads --with-file-aio
    --with-http_ssl_module --with-http_stub_status_module --with-http_realip_module
    --with-http_auth_request_module --with-http_v2_module --with-http_dav_module
    --with-http_slice_module --with-http_addition_module --with-http_flv_module
    --with-http_gunzip_module --with-http_gzip_static_module --with-http_mp4_module
    --with-http_random_index_module --with-http_secure_link_module --with-http_sub_module
    --with-stream=dynamic --with-stream_ssl_module --with-stream_ssl_preread_module
    --with-stream_realip_module --with-mail=dynamic --with-mail_ssl_module
  )
  grep -q http_v3 "$srcdir/auto/options" && args+=(--with-http_v3_module)
  if [ -n "$btar" ]; then
    brotlidir=$(unpack "$btar" "$work/brotli")
    args+=(--add-dynamic-module="$brotlidir")
  else
    say "WARNING: ngx_brotli (libnginx-mod-http-brotli) source not obtainable: building without brotli"
  fi
  local osslver=""
  if [ -n "${otar:-}" ]; then
    ossldir=$(unpack "$otar" "$work/openssl")
    osslver=$(basename "$ossldir"); osslver=${osslver#openssl-}
    # Static, lean: no tests, docs, command-line tools, legacy provider or loadable modules.
    args+=(--with-openssl="$ossldir" --with-openssl-opt="no-tests no-docs no-apps no-legacy no-module")
  fi

  say "building nginx $version ($label)${osslver:+ with OpenSSL $osslver} on $(nproc) cores"
  (cd "$srcdir" && ./configure "${args[@]}") >"$work/configure.log" 2>&1 \
    || { tail -30 "$work/configure.log" >&2; say "FAILED: configure ($work/configure.log)"; return 1; }
  make -C "$srcdir" -j"$(nproc)" >"$work/make.log" 2>&1 \
    || { tail -40 "$work/make.log" >&2; say "FAILED: make ($work/make.log)"; return 1; }
  rm -rf "$prefix"
  make -C "$srcdir" install >"$work/install.log" 2>&1 \
    || { tail -20 "$work/install.log" >&2; say "FAILED: make install"; return 1; }
  mkdir -p "$prefix/logs" "$prefix/temp"
  local secs=$((SECONDS - start))
  {
    echo "recipe=$RECIPE"
    echo "label=$label"
    echo "nginx=$version"
    echo "nginx_source=$(basename "$ntar") (Debian $nsuite)"
    echo "openssl=${osslver:-system}"
    [ -z "$osslver" ] || echo "openssl_source=$(basename "$otar") (Debian $osuite), static"
    echo "brotli=$([ -n "$brotlidir" ] && echo "$prefix/modules" || echo no)"
    echo "modules=$prefix/modules"
    echo "build_seconds=$secs"
    echo "configure=${args[*]}"
  } >"$prefix/build-info"
  rm -rf "$work"
  "$bin" -V >&2
  say "built $bin in ${secs}s"
  echo "$bin"
}

modules_of() { # LABEL
  if [ "$1" = 1.22 ]; then echo /usr/lib/nginx/modules; return; fi
  local info=$cache/nginx-$1/build-info
  [ -f "$info" ] || { say "no build for $1 (run scripts/build-nginx.sh $1)"; return 1; }
  sed -n 's/^modules=//p' "$info"
}

case ${1:-1.26} in
  --list) printf '%s\n' 1.22 "${LABELS[@]}" ;;
  --modules) modules_of "${2:?--modules LABEL}" ;;
  --all)
    lines=()
    [ -x /usr/sbin/nginx ] && lines+=("1.22 /usr/sbin/nginx")
    for label in "${LABELS[@]}"; do
      # The 1.26 + OpenSSL 3.5 build stands in only where unstable's nginx is unobtainable.
      if [ "$label" = 1.26-openssl3.5 ] && printf '%s\n' "${lines[@]}" | grep -q '^1.30-openssl3.5 '; then
        continue
      fi
      set +e; path=$(build "$label" | tail -1); rc=$?; set -e
      case $rc in
        0) lines+=("$label $path") ;;
        3) say "SKIPPED $label: its source cannot be fetched from Debian's source archive" ;;
        *) say "FAILED $label (exit $rc)"; exit "$rc" ;;
      esac
    done
    printf '%s\n' "${lines[@]}"
    ;;
  -*) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2 ;;
  *) build "$1" ;;
esac
