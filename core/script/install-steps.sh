set -f
M=/var/lib/nginx-gen/manifest.json Y=/etc/sysctl.d/99-nginx-gen.conf
U=/etc/systemd/system/nginx.service.d/nginx-gen.conf
files= ch= gone= rep= cre= dirs= ran= dr= rs= rl= sy= moved= said= B= fp= fr=
say() { printf 'nginx-gen: %s\n' "$*"; }
die() { said=1; say "failed at step $step: $*" >&2; exit 1; }
new() { files="$files $1"; mkdir -p "$T/new${1%/*}"; cat >"$T/new$1"; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
owned() { [ ! -f $M ] || sed -n "s/^ *\"$1\": \"\([^\"]*\)\".*/\1/p" $M; }
conf() { [ ! -f "$1" ] || sed 's/^[[:space:]]*//;s/[[:space:]]*$//;/^[#;]/d;/^$/d' "$1"; }
differs() { [ "$(conf "$1")" != "$(conf "$T/new$1")" ]; }
has() { case " $1 " in *" $2 "*) ;; *) return 1 ;; esac; }
list() { printf '['; s=; for x; do printf '%s"%s"' "$s" "$x"; s=', '; done; printf ']'; }
sc() { systemctl "$@" || die "systemctl $* failed"; }
# Is $1 a PHP-FPM pool nginx-gen writes (apply::php::is_pool in the CLI)?
pooled() { case $1 in /etc/php/*/fpm/pool.d/www.conf|/etc/php-fpm.d/www.conf) ;; *) return 1 ;; esac; }
# The PHP-FPM of a pool file: unit fu, program fx, main configuration fc.
fpm() {
  case $fp in
    /etc/php/*) v=${fp#/etc/php/} && v=${v%%/*} && fu=php$v-fpm fx=php-fpm$v fc=/etc/php/$v/fpm/php-fpm.conf ;;
    *) fu=php-fpm fx=php-fpm fc=/etc/php-fpm.conf ;;
  esac
}
decide() {
  for p in $files; do cmp -s "$T/new$p" "$p" || ch="$ch $p"; done
  for p in $(owned path); do
    case $p in
      */../*) ;;
      /etc/nginx/*|"$Y"|"$U") has "$files" $p || [ ! -e $p ] || gone="$gone $p"; continue ;;
      # A pool stays: it replaced the package's, which PHP-FPM needs (docs/lifecycle.md).
      *) pooled $p && { has "$files" $p || say "note: $p stays, PHP-FPM's pool; nginx-gen rollback to the php run's first set restores the package's"; continue; } ;;
    esac
    die "$M names $p, which nginx-gen never writes"
  done
  ! has "$ch$gone" $Y || ! differs $Y || sy=1 rl=1
  ! has "$ch$gone" $U || { dr=1; ! differs $U || rs=1; }
  case "$ch$gone " in *" /etc/nginx/"*) rl=1 ;; esac
  for p in $ch; do ! pooled $p || fp=$p; done
  [ -z "$fp" ] || fpm
}
stage() {
  step=stage S=$T/nginx
  command -v nginx >/dev/null || die 'nginx is not installed'
  cp -RL /etc/nginx "$S"
  for p in $gone; do rm -f "$S${p#/etc/nginx}"; done
  for p in $files; do
    case $p in /etc/nginx/*) mkdir -p "$(dirname "$S${p#/etc/nginx}")"; cp "$T/new$p" "$S${p#/etc/nginx}" ;; esac
  done
  find "$S" -type f -exec grep -l /etc/nginx/ {} + | while IFS= read -r f; do
    sed "s#/etc/nginx/#$S/#g" "$f" >"$f.t"; mv "$f.t" "$f"
  done
  step=validate
  x=$(nginx -V 2>&1 | sed -n 's/.*--prefix=\([^ ]*\).*/\1/p')
  x=$(nginx -t -q ${x:+-p "$x/"} -c "$S/nginx.conf" 2>&1) || die "nginx -t rejects the staged tree:
$(printf '%s\n' "$x" | sed "s#$S#/etc/nginx#g")"
  say 'nginx -t passed the staged tree'
  [ -n "$fp" ] || return 0
  # The pool: PHP-FPM's own -t of its configuration with the new pool.d staged.
  command -v $fx >/dev/null || die "PHP-FPM is not installed: $fx (package $fu) checks the pool $fp"
  P=$T/php d=${fp%/*}
  mkdir -p $P/pool.d
  find "$d" -maxdepth 1 -type f ! -name www.conf -exec cp {} $P/pool.d/ \;
  cp "$T/new$fp" $P/pool.d/www.conf
  grep -q "^[[:space:]]*include[[:space:]]*=[[:space:]]*$d/" $fc 2>/dev/null ||
    die "$fc has no include= of $d/, where the pool $fp is: it cannot be checked before it is installed"
  sed "s#^\([[:space:]]*include[[:space:]]*=[[:space:]]*\)$d/#\1$P/pool.d/#" $fc >$P/php-fpm.conf
  x=$($fx -t --fpm-config $P/php-fpm.conf 2>&1) || die "$fx -t rejects the staged pool $fp:
$(printf '%s\n' "$x" | sed "s#$P/pool.d#$d#g;s#$P/php-fpm.conf#$fc#g")"
  say "$fx -t passed the staged pool $fp"
}
keep() { mkdir -p "$B/files${1%/*}"; cp -p "$1" "$B/files$1"; }
backup() {
  step=backup B=/var/lib/nginx-gen/backups/$(date -u +%Y%m%dT%H%M%SZ) x=$B n=1
  mkdir -p "${B%/*}" "$T/new${M%/*}"
  while [ -e "$B" ]; do n=$((n + 1)) B=$x-$n; done
  mkdir "$B"
  for p in $ch $M; do
    if [ -e "$p" ]; then rep="$rep $p"; keep "$p"; else
      cre="$cre $p" d=${p%/*}
      while [ ! -d "$d" ]; do has "$dirs" "$d" || dirs="$dirs $d"; d=${d%/*}; done
    fi
  done
  for p in $gone; do keep "$p"; done
  {
    printf '{"command": "%s",\n "created": ' "$cmd"; list $cre
    printf ',\n "created_dirs": '; list $dirs
    printf ',\n "removed": '; list $gone
    printf ',\n "replaced": '; list $rep; printf '}\n'
  } >"$B/set.json"
  {
    printf '{\n  "backup": "%s",\n  "command": "%s",\n  "files": [' "${B##*/}" "$cmd"; s=
    for p in $files; do
      printf '%s\n    {\n      "path": "%s",\n      "sha256": "%s"\n    }' "$s" "$p" "$(sum "$T/new$p")"; s=,
    done
    printf '\n  ],\n  "policy": "%s",\n  "tool": "%s"\n}\n' "$policy" "$tool"
  } >"$T/new$M"
  say "backup set $B"
}
install() {
  step=install
  for p in $ch $M; do
    mkdir -p "${p%/*}"
    if [ -e "$p" ]; then cp -p "$p" "$p.nginx-gen-new"; fi
    cat "$T/new$p" >"$p.nginx-gen-new"
  done
  moved=1
  for p in $ch; do mv -f "$p.nginx-gen-new" "$p"; done
  for p in $gone; do rm -f "$p"; done
  mv -f "$M.nginx-gen-new" $M
  say "installed$ch${gone:+; removed$gone}"
}
workers() {
  for p in $(pgrep -P "$1"); do
    [ "$(tr -d '\0' <"/proc/$p/cmdline")" != 'nginx: worker process' ] || echo "$p"
  done 2>/dev/null
}
reload() {
  m=$(systemctl show -p MainPID --value nginx) o=$(workers "$m") n=0
  sc reload nginx
  while [ -n "$o" ]; do
    x=$(workers "$m")
    [ -z "$x" ] || printf '%s\n' $x | grep -qxF "$o" || break
    n=$((n + 1)); [ $n -lt 300 ] || die 'after 30 s nginx still has its old workers: it did not take the new files'
    sleep 0.1
  done
  say 'reloaded nginx; new workers accept'
}
service() {
  if [ -n "$sy" ]; then
    step=sysctl
    if ! x=$(sysctl --system 2>&1 >/dev/null); then
      if [ -z "$x" ] || printf '%s\n' "$x" | grep -qv -e 'Read-only file system' -e 'permission denied on key' -e 'No such file or directory'; then die "$x"; fi
      say "note: sysctl --system set the other keys; read-only or absent here: $(printf '%s\n' "$x" | tr '\n' ' ')"
    fi
  fi
  [ -n "$dr$rl" ] || return 0
  if [ ! -d /run/systemd/system ]; then
    x='nginx -s reload'; [ -z "$rs" ] || x='systemctl daemon-reload; systemctl restart nginx'
    say "note: systemd is not PID 1 here: no reload, restart or probes; run $x where it is"
    return 0
  fi
  if [ -n "$dr" ]; then step=daemon-reload; sc daemon-reload; say "$step"; fi
  if [ -n "$rs" ]; then
    step=restart ran=restart
    sc restart nginx
    say "restarted nginx (the drop-in's limits apply to a new process only)"
  elif [ -n "$rl" ]; then step=reload ran=reload; reload
  else return 0; fi
  step=probe
  systemctl is-active --quiet nginx || die 'nginx is not active'
  command -v curl >/dev/null || { say 'note: no curl: no HTTP probes'; return 0; }
  for n in $names; do
    step=probe-http
    curl -so /dev/null -m 5 -H "Host: $n" "http://$addr:$port/" || die "no HTTP answer for $n at $addr:$port"
    step=probe-https
    [ -z "$tls" ] || curl -kso /dev/null -m 5 --connect-to "$n:$tls:$addr:$tls" "https://$n:$tls/" || die "no HTTPS answer for $n at $addr:$tls"
  done
  say "probes: nginx is active${names:+; answering $names}"
}
pool() {
  [ -n "$fp" ] || return 0
  if [ ! -d /run/systemd/system ]; then
    say "note: systemd is not PID 1 here: run systemctl reload $fu where it is"
    return 0
  fi
  step=php-fpm-reload fr=1
  if systemctl is-active --quiet $fu; then sc reload $fu; else sc start $fu; fi
  step=php-fpm-probe
  systemctl is-active --quiet $fu || die "$fu is not active after its reload"
  say "reloaded $fu with the pool $fp; active"
}
again() { say "restore: $*"; "$@" || say "restore: $* failed too"; }
undo() {
  x=
  for p in $rep $gone; do
    { cp -p "$B/files$p" "$p.nginx-gen-new" && mv -f "$p.nginx-gen-new" "$p"; } || x="$x $p"
  done
  for p in $cre; do rm -f "$p" || x="$x $p"; done
  for d in $dirs; do rmdir "$d"; done 2>/dev/null
  if [ -n "$x" ]; then say "ROLLBACK INCOMPLETE:$x not restored from $B (docs/lifecycle.md)"
  else say "rolled back: every file restored byte for byte from $B"; fi
  [ -d /run/systemd/system ] || return 0
  [ -z "$dr" ] || again systemctl daemon-reload
  [ -z "$ran" ] || again systemctl $ran nginx
  [ -z "$ran" ] || systemctl is-active --quiet nginx || again systemctl start nginx
  [ -z "$fr" ] || again systemctl reload $fu
  [ -z "$fr" ] || systemctl is-active --quiet $fu || again systemctl restart $fu
}
end() {
  set +e
  for p in $ch $M; do rm -f "$p.nginx-gen-new"; done
  if [ "$1" != 0 ]; then
    [ -n "$said" ] || say "failed at step $step (exit status $1)"
    if [ -n "$moved" ]; then undo; else rm -rf "$B"; say 'nothing was changed'; fi
  fi >&2
  rm -rf "$T"
}
main() {
  decide
  if [ -z "$ch$gone" ] && [ "$(owned path)" = "$(printf '%s\n' $files)" ] &&
    [ "$(owned sha256)" = "$(for p in $files; do sum "$T/new$p"; done)" ]; then
    say 'nothing to do: every file is installed as this script gives it'; exit 0
  fi
  stage; backup; install; service; pool
  say "done; nginx-gen rollback ${B##*/} restores the previous files"
}
step=stage T=$(mktemp -d /etc/.nginx-gen-stage.XXXXXX)
trap 'end $?' EXIT
trap 'exit 1' HUP INT TERM
