#!/usr/bin/env bash
# The release artifacts, for servers without Rust (README, "Installing on a server"):
#   OUT/nginx-gen-VERSION-x86_64-linux-musl    a static binary (musl target): runs on any
#                                              x86_64 Linux, in an empty root too
#   OUT/nginx-gen_VERSION_amd64.deb            that binary as /usr/bin/nginx-gen, the man
#                                              page, bash/zsh/fish completions (both generated
#                                              by the binary itself: `nginx-gen man`,
#                                              `nginx-gen completions SHELL`), README,
#                                              CHANGELOG, docs and the copyright file
#   OUT/SHA256SUMS
# The package is built with dpkg-deb from a staged tree (no cargo-deb to install); its
# control file names nginx as recommended, not required (nginx-gen also writes trees for
# other hosts). Installs the Rust musl target and Debian's musl-tools when missing.
#   scripts/release.sh [OUT]         (default: target/release-dist/; dist/ is the web page's)
# Prints the two artifacts' paths on stdout, one a line: the binary, then the package.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1mrelease:\033[0m %s\n' "$*" >&2; }
dist=${1:-target/release-dist}
target=x86_64-unknown-linux-musl
version=$(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "nginx-gen"))')

bash scripts/apt-missing.sh musl-tools dpkg-dev >&2
rustup target list --installed | grep -qx "$target" || rustup target add "$target" >&2

say "building nginx-gen $version for $target"
cargo build --release --locked -p nginx-gen --target "$target" >&2
bin="${CARGO_TARGET_DIR:-$PWD/target}/$target/release/nginx-gen"
# A static binary has no program interpreter (ld.so): file(1)'s "statically linked" says the
# same, but file is not installed everywhere.
if readelf -l "$bin" | grep -q 'INTERP'; then
  echo "release: FATAL: $bin is dynamically linked" >&2
  exit 1
fi

mkdir -p "$dist"
static="$dist/nginx-gen-$version-x86_64-linux-musl"
install -m 0755 "$bin" "$static"

# --- the Debian package ----------------------------------------------------------------------
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg="$stage/pkg"
install -D -m 0755 "$bin" "$pkg/usr/bin/nginx-gen"
mkdir -p "$pkg/usr/share/man/man1" "$pkg/usr/share/bash-completion/completions" \
  "$pkg/usr/share/zsh/vendor-completions" "$pkg/usr/share/fish/vendor_completions.d" \
  "$pkg/usr/share/doc/nginx-gen/docs"
"$bin" man | gzip -9n >"$pkg/usr/share/man/man1/nginx-gen.1.gz"
"$bin" completions bash >"$pkg/usr/share/bash-completion/completions/nginx-gen"
"$bin" completions zsh >"$pkg/usr/share/zsh/vendor-completions/_nginx-gen"
"$bin" completions fish >"$pkg/usr/share/fish/vendor_completions.d/nginx-gen.fish"
cp README.md "$pkg/usr/share/doc/nginx-gen/"
gzip -9n <CHANGELOG.md >"$pkg/usr/share/doc/nginx-gen/changelog.gz"
cp docs/*.md "$pkg/usr/share/doc/nginx-gen/docs/"
cat >"$pkg/usr/share/doc/nginx-gen/copyright" <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: nginx-gen
Files: *
License: MIT
COPYRIGHT
find "$pkg/usr" -type f -exec chmod go-w {} +
mkdir -p "$pkg/DEBIAN"
size=$(du -sk "$pkg/usr" | cut -f1)
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: nginx-gen
Version: $version
Architecture: amd64
Maintainer: nginx-gen <nginx-gen@example.invalid>
Installed-Size: $size
Section: httpd
Priority: optional
Recommends: nginx
Description: tuned, validated nginx setup from a machine's size and workload
 nginx-gen turns a machine's vCPUs, memory and workload into nginx.conf, a site
 file, a sysctl.d file and a systemd drop-in, every value with its reason, and
 installs them with apply (validated with nginx -t, backed up, rolled back on
 failure), checks a running host for drift, and plans a fleet from Ansible facts.
 Statically linked (musl).
CONTROL
deb="$dist/nginx-gen_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >&2
(cd "$dist" && sha256sum "$(basename "$static")" "$(basename "$deb")" >SHA256SUMS)
say "$static ($(stat -c %s "$static") B), $deb ($(stat -c %s "$deb") B)"
echo "$static"
echo "$deb"
