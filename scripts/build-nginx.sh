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
#                                    fetched (and that have no fallback) are named on stderr
#                                    and left out; no binary is listed twice
#   scripts/build-nginx.sh --list    the labels, one a line
#   scripts/build-nginx.sh --modules LABEL
#                                    the directory of LABEL's dynamic modules (brotli);
#                                    for 1.22 Debian's /usr/lib/nginx/modules
#
# Labels:
#   1.26              nginx 1.26.x of Debian 13 (trixie), system OpenSSL (Debian 12's 3.0)
#   1.30              nginx 1.30.x of Debian unstable (sid), system OpenSSL. When the archive
#                     does not serve its source: Debian unstable's own nginx 1.30.x BINARY
#                     package instead (below), with unstable's OpenSSL
#   1.30-openssl3.5   the same nginx linked statically with OpenSSL 3.5.x of trixie
#                     (`--with-openssl=DIR`); without the source, unstable's binary only if
#                     it is linked with OpenSSL 3.5 (--all never lists one binary twice)
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
# The fallback for 1.30 (nothing from unstable is installed on this host): a private apt
# configuration under CACHE/apt-sid (a `deb` line for sid, its own state, lists and cache
# dirs; the host's apt state is untouched) downloads the `nginx` package (it holds
# /usr/sbin/nginx), unstable's brotli, stream and mail module packages and the runtime
# libraries they depend on (resolved recursively from Depends, checked with the loader's
# --list); `dpkg-deb -x` extracts them into CACHE/nginx-1.30/root. `sbin/nginx` is then a
# wrapper that runs the real binary with unstable's own dynamic loader and libraries
# (`ld.so --library-path`) and, unless the caller gives `-p`, with `-p CACHE/nginx-1.30/` so
# that `load_module modules/…` finds unstable's modules (CACHE/nginx-1.30/modules) and not
# the host's. Its compiled-in paths stay Debian's (/etc/nginx, /var/lib/nginx, /run).
# `build-info` says what it is. Delete CACHE/nginx-1.30 to try the source again.
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
archive_uri() {
  # The archive's address is taken from the machine's own Debian sources (the first
  # non-security `URIs:` entry), so this script names no host itself.
  local uri
  uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
  if [ -z "$uri" ]; then
    uri=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | grep -i debian | head -1 | awk '{print $2}')
  fi
  if [ -z "$uri" ]; then
    say "FAILED: no Debian archive address found in the apt sources"
    return 3
  fi
  echo "$uri"
}

ensure_src_entry() { # SUITE
  local suite=$1 list=/etc/apt/sources.list.d/nginx-gen-$1-src.sources uri
  [ -f "$list" ] && return 0
  uri=$(archive_uri) || return 3
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
    bash "$here/apt-update.sh" || true
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
  ntar=$(fetch_orig nginx "$nsuite" "$nglob") || {
    case $label in
      1.30)
        say "no nginx $nglob source of Debian $nsuite can be fetched: using Debian unstable's nginx binary package instead"
        sid_binary "$prefix" "$nglob"; return $? ;;
      1.30-openssl3.5) sid_binary_openssl35; return $? ;;
    esac
    say "FAILED: no nginx $nglob source of Debian $nsuite could be fetched"; return 3
  }
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

# --- the fallback for 1.30: Debian unstable's binary package, extracted, never installed ------
# Packages whose files are extracted besides their runtime dependencies: the binary (`nginx`
# holds /usr/sbin/nginx in 1.30.x; nginx-core and nginx-full are metapackages), the dynamic
# modules the builds from source have (brotli filter and static, stream, mail) where unstable
# has them. Dependencies not followed: configuration and maintainer-script packages.
SID_BINARY=nginx
SID_MODULES=(libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static libnginx-mod-stream libnginx-mod-mail)
SID_NOT_FOLLOWED=" nginx-common debconf debconf-2.0 "

sid_apt_setup() { # -> fills the global SID_APT (apt options of a private sid configuration)
  local d=$cache/apt-sid uri
  uri=$(archive_uri) || return 3
  mkdir -p "$d/sources.list.d" "$d/preferences.d" "$d/state/lists/partial" "$d/cache/archives/partial"
  : >"$d/state/status" # no package is installed in this configuration
  cat >"$d/sources.list" <<LIST
# Written by nginx-gen's scripts/build-nginx.sh: a private apt configuration (its own state,
# lists and cache) used to download Debian unstable's nginx binary package; nothing is installed.
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg target=Packages] $uri sid main
LIST
  SID_APT=(
    -o "Dir::Etc::SourceList=$d/sources.list" -o "Dir::Etc::SourceParts=$d/sources.list.d"
    -o "Dir::Etc::Preferences=$d/preferences" -o "Dir::Etc::PreferencesParts=$d/preferences.d"
    -o "Dir::State=$d/state" -o "Dir::State::Lists=$d/state/lists" -o "Dir::State::status=$d/state/status"
    -o "Dir::Cache=$d/cache" -o "Dir::Cache::Archives=$d/cache/archives"
    -o "Dir::Cache::pkgcache=$d/cache/pkgcache.bin" -o "Dir::Cache::srcpkgcache=$d/cache/srcpkgcache.bin"
    -o "APT::Architectures::=amd64" -o "APT::Default-Release=" -o "Acquire::Languages=none"
    -o "APT::Sandbox::User=root"
  )
}

sid_closure() { # PACKAGE… -> the packages to extract: these and their Depends, recursively
  local queue=("$@") p info dep seen=" "
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}; queue=("${queue[@]:1}")
    case "$seen$SID_NOT_FOLLOWED" in *" $p "*) continue ;; esac
    seen="$seen$p "
    info=$(apt-cache "${SID_APT[@]}" show --no-all-versions "$p" 2>/dev/null) || info=""
    [ -n "$info" ] || continue # a virtual package (nginx-abi-…): its provider is in the list
    echo "$p"
    # Depends and Pre-Depends, the first of each set of alternatives, without versions.
    for dep in $(printf '%s\n' "$info" | sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' | tr ',' '\n' \
                 | sed 's/|.*//; s/(.*//; s/:any//; s/[[:space:]]//g'); do
      queue+=("$dep")
    done
  done
}

sid_binary() { # PREFIX UPSTREAM-GLOB: extract unstable's nginx binary package into PREFIX
  local prefix=$1 glob=$2 start=$SECONDS
  [ "$(dpkg --print-architecture)" = amd64 ] || { say "FAILED: the unstable fallback is for amd64 only"; return 3; }
  sid_apt_setup || return 3
  say "apt-get update of a private configuration for Debian unstable (binary packages; the host's apt state is untouched)"
  apt-get "${SID_APT[@]}" update -qq >&2 || { say "FAILED: the Packages index of Debian unstable could not be fetched"; return 3; }
  local version
  version=$(apt-cache "${SID_APT[@]}" show --no-all-versions "$SID_BINARY" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
  # shellcheck disable=SC2254 # GLOB is a pattern on purpose
  case ${version%-*} in
    $glob) ;;
    *) say "FAILED: Debian unstable's $SID_BINARY is '${version:-missing}', not $glob"; return 3 ;;
  esac
  local mods=() m
  for m in "${SID_MODULES[@]}"; do
    if [ -n "$(apt-cache "${SID_APT[@]}" show --no-all-versions "$m" 2>/dev/null)" ]; then mods+=("$m")
    else say "Debian unstable has no $m: left out"; fi
  done
  local pkgs; mapfile -t pkgs < <(sid_closure "$SID_BINARY" "${mods[@]}")
  local work=$cache/build-1.30-sid
  rm -rf "$work"; mkdir -p "$work/debs" "$work/p/root"
  say "downloading (not installing) ${#pkgs[@]} packages of Debian unstable: ${pkgs[*]}"
  # apt-get download checks every file against the SHA-256 of the signed Packages index.
  (cd "$work/debs" && apt-get "${SID_APT[@]}" download "${pkgs[@]}" >"$work/download.log" 2>&1) \
    || { tail -5 "$work/download.log" >&2; say "FAILED: the binary packages could not be downloaded"; return 3; }
  local deb list=""
  for deb in "$work"/debs/*.deb; do
    dpkg-deb -x "$deb" "$work/p/root"
    list="$list $(dpkg-deb -f "$deb" Package)=$(dpkg-deb -f "$deb" Version)"
  done
  local root=$prefix/root libs="" d ld
  for d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do
    [ -d "$work/p/root/$d" ] && libs="${libs:+$libs:}$root/$d"
  done
  for d in usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2 usr/lib64/ld-linux-x86-64.so.2; do
    [ -e "$work/p/root/$d" ] && { ld=$root/$d; break; }
  done
  [ -n "${ld:-}" ] && [ -x "$work/p/root/usr/sbin/nginx" ] \
    || { say "FAILED: the extracted packages hold no loader or no /usr/sbin/nginx"; return 1; }
  mkdir -p "$work/p/sbin" "$work/p/libexec" "$work/p/logs" "$work/p/temp"
  ln -s root/usr/lib/nginx/modules "$work/p/modules"
  # The loader under the name `nginx`, so the processes are named nginx (ps -C, pgrep).
  ln -s "../root/${ld#"$root/"}" "$work/p/libexec/nginx"
  cat >"$work/p/sbin/nginx" <<WRAP
#!/bin/sh
# Debian unstable's nginx package $version, extracted by nginx-gen's scripts/build-nginx.sh
# into $root: not installed, not built. It runs with unstable's own dynamic loader and
# libraries. Without -p it gets -p $prefix/, whose modules/ are unstable's
# modules, built for this binary (its compiled-in prefix would reach the host's 1.22 modules).
# The loader is ${ld#"$prefix/"}, run as libexec/nginx.
# \`-V\` names the prefix and modules path in effect here, not the package's /usr/share/nginx
# and /usr/lib/nginx/modules (whose modules are the host's 1.22 ones), and says so.
run() { exec "$prefix/libexec/nginx" --library-path "$libs" --argv0 "\$0" "$root/usr/sbin/nginx" "\$@"; }
for a in "\$@"; do case \$a in -p*) run "\$@" ;; esac; done
if [ "\$#" -eq 1 ] && [ "\$1" = -V ]; then
  out=\$("$prefix/libexec/nginx" --library-path "$libs" --argv0 "\$0" "$root/usr/sbin/nginx" -V 2>&1); rc=\$?
  printf '%s\\n' "\$out" | sed -e 's|--prefix=/usr/share/nginx |--prefix=$prefix/ |' \\
    -e 's|--modules-path=/usr/lib/nginx/modules |--modules-path=$prefix/modules |' >&2
  echo "(nginx-gen: Debian unstable's nginx package $version, extracted, not built, not installed; run by this wrapper with -p $prefix/; as packaged: prefix /usr/share/nginx, modules path /usr/lib/nginx/modules)" >&2
  exit "\$rc"
fi
run -p "$prefix/" "\$@"
WRAP
  chmod 755 "$work/p/sbin/nginx"
  rm -rf "$prefix"; mv "$work/p" "$prefix"
  # ldd's check, with unstable's loader: every library of the binary and its modules resolves.
  local f missing=""
  for f in "$root/usr/sbin/nginx" "$prefix"/modules/*.so; do
    [ -e "$f" ] || continue
    missing="$missing$("$ld" --library-path "$libs" --list "$f" 2>&1 | grep 'not found' || true)"
  done
  [ -z "$missing" ] || { printf '%s\n' "$missing" >&2; say "FAILED: libraries missing from the extracted root"; return 1; }
  local v nver built running
  v=$("$prefix/sbin/nginx" -V 2>&1) || { printf '%s\n' "$v" >&2; say "FAILED: the extracted nginx does not run"; return 1; }
  v=$("$ld" --library-path "$libs" "$root/usr/sbin/nginx" -V 2>&1) # as packaged, for build-info
  nver=$(sed -n 's|^nginx version: nginx/||p' <<<"$v")
  built=$(sed -n 's/^built with OpenSSL \([^ ]*\).*/\1/p' <<<"$v")
  running=$(sed -n 's/.*running with OpenSSL \([^ ]*\).*/\1/p' <<<"$v")
  local secs=$((SECONDS - start))
  {
    echo "recipe=$RECIPE"
    echo "label=1.30"
    echo "kind=debian-binary"
    echo "what=Debian unstable's nginx $version binary package, extracted, not built"
    echo "nginx=$nver"
    echo "nginx_package=$SID_BINARY $version (Debian sid, amd64)"
    echo "packages=${list# }"
    echo "openssl=${running:-$built}"
    echo "openssl_built_with=$built"
    echo "brotli=$([ -e "$prefix/modules/ngx_http_brotli_static_module.so" ] && echo "$prefix/modules" || echo no)"
    echo "modules=$prefix/modules"
    echo "root=$root"
    echo "loader=$ld"
    echo "library_path=$libs"
    echo "build_seconds=$secs"
    echo "configure=$(sed -n 's/^configure arguments: //p' <<<"$v") (as packaged; the wrapper's -V shows its -p)"
  } >"$prefix/build-info"
  rm -rf "$work" "$cache/apt-sid" # the private apt configuration is made anew on each extraction
  printf '%s\n' "$v" >&2
  say "extracted Debian unstable's nginx $version into $prefix in ${secs}s (packages:${list})"
  echo "$prefix/sbin/nginx"
}

sid_binary_openssl35() { # 1.30-openssl3.5 without its source: unstable's binary, if linked with 3.5
  local path info ossl
  path=$(build 1.30 | tail -1) || return $?
  info=$cache/nginx-1.30/build-info
  grep -qx 'kind=debian-binary' "$info" 2>/dev/null || { say "FAILED: no nginx 1.30 source of Debian sid could be fetched"; return 3; }
  ossl=$(sed -n 's/^openssl_built_with=//p' "$info")
  case $ossl in
    3.5.*) say "Debian unstable's nginx binary is linked with OpenSSL $ossl: it stands for 1.30-openssl3.5"
           echo "$path" ;;
    *) say "no 1.30-openssl3.5: its source cannot be fetched and Debian unstable's nginx binary is linked with OpenSSL $ossl, not 3.5"
       return 3 ;;
  esac
}

modules_of() { # LABEL
  if [ "$1" = 1.22 ]; then echo /usr/lib/nginx/modules; return; fi
  local info=$cache/nginx-$1/build-info
  [ -f "$info" ] || { say "no build for $1 (run scripts/build-nginx.sh $1)"; return 1; }
  sed -n 's/^modules=//p' "$info"
}

# One build at a time: scripts/test.sh starts `--all` beside the first stages, and the
# stages that need the builds wait here for it rather than build the same tree twice.
lock_builds() {
  exec 9>"$cache/build.lock"
  flock -n 9 || { say "waiting for the build already running (scripts/test.sh starts it beside the first stages)"; flock 9; }
}

case ${1:-1.26} in
  --list) printf '%s\n' 1.22 "${LABELS[@]}" ;;
  --modules) modules_of "${2:?--modules LABEL}" ;;
  --all)
    lock_builds
    lines=()
    [ -x /usr/sbin/nginx ] && lines+=("1.22 /usr/sbin/nginx")
    for label in "${LABELS[@]}"; do
      # The 1.26 + OpenSSL 3.5 build stands in only where unstable's nginx is unobtainable.
      if [ "$label" = 1.26-openssl3.5 ] && printf '%s\n' "${lines[@]}" | grep -q '^1.30-openssl3.5 '; then
        continue
      fi
      set +e; path=$(build "$label" | tail -1); rc=$?; set -e
      case $rc in
        0) same=$(printf '%s\n' "${lines[@]}" | awk -v p="$path" '$2 == p {print $1}')
           if [ -n "$same" ]; then
             say "$label is the same binary as $same ($path): listed once"
           else
             lines+=("$label $path")
           fi ;;
        3) say "SKIPPED $label: its source cannot be fetched from Debian's source archive" ;;
        *) say "FAILED $label (exit $rc)"; exit "$rc" ;;
      esac
    done
    printf '%s\n' "${lines[@]}"
    ;;
  -*) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2 ;;
  *) lock_builds; build "$1" ;;
esac
