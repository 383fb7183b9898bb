# Sourced by scripts/build-page.sh (the page) and wasm/build.sh (the module): their release
# builds rebuild the standard library with a pinned nightly (-Zbuild-std with std's
# optimize_for_size feature, panic strategy immediate-abort), so std compiles with the
# crate's own size profile (opt-level z, LTO) and without the panic message machinery;
# panic locations and `Debug` formatting are compiled out too (`{:?}` writes nothing:
# user-visible text never uses it). About 10 % smaller brotli than stable's (docs/web.md
# and docs/wasm.md, "Size"). A panic, which no input can cause, still stops the program,
# without its message.
#
#   small_std_install        installs the pinned toolchain once (scripts/setup.sh)
#   small_std_env DIR        exports the build environment, target directory DIR
#
# Plain stable builds (`trunk build --release`, `wasm-pack build`) build the same
# programs, only larger.

small_std_toolchain=nightly-2026-05-20

small_std_install() {
  local t=$small_std_toolchain sysroot
  if sysroot=$(rustup run "$t" rustc --print sysroot 2>/dev/null) \
     && [ -d "$sysroot/lib/rustlib/src/rust/library" ] \
     && rustup target list --toolchain "$t" --installed | grep -qx wasm32-unknown-unknown; then
    return 0
  fi
  echo "small-std: installing $t with rust-src and wasm32-unknown-unknown (once)"
  rustup toolchain install "$t" --profile minimal --component rust-src \
    --target wasm32-unknown-unknown
}

small_std_env() {
  local sysroot
  sysroot=$(rustup run "$small_std_toolchain" rustc --print sysroot 2>/dev/null) || {
    echo "small-std: the toolchain $small_std_toolchain is missing: run scripts/setup.sh" \
      "(stable builds the same program, larger)" >&2
    return 1
  }
  # trunk and wasm-pack may run cargo offline: fetch std's own dependencies first (a no-op
  # once cached).
  cargo "+$small_std_toolchain" fetch --locked --quiet \
    --manifest-path "$sysroot/lib/rustlib/src/rust/library/Cargo.toml"
  export RUSTUP_TOOLCHAIN=$small_std_toolchain
  # Its own target directory: switching toolchains in one directory rebuilds everything.
  export CARGO_TARGET_DIR=$1
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none"
}
