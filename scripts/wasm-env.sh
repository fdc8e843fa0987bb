# Sourced by build.sh and test.sh (after setup.sh): cargo and rustc for wasm32-unknown-unknown
# through the route setup.sh chose and recorded in .tools/wasm-route.
#   rustup: the default toolchain with its wasm32 target
#   debian: the default toolchain's cargo with RUSTC= Debian's rustc-web unpacked into
#           .tools/rust-web, std built from its own source (-Zbuild-std, RUSTC_BOOTSTRAP=1)
# The wasm build has its own target dir (target/wasm) so the native build is not disturbed.
tools="$root/.tools"
# Target features of the wasm module beyond rustc's defaults: simd128 (128-bit SIMD, in every
# browser the page supports: Chrome 91, Firefox 89, Safari 16.4 and later). Passed as the
# wasm32 target's rustflags on both routes (the Debian route's -Zbuild-std builds std with
# them too); build.sh gives wasm-opt the matching --enable-simd. Same state hashes as native:
# Rust never fuses a multiply and an add, with or without SIMD.
wasm_rustflags="-C target-feature=+simd128"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$wasm_rustflags"
wasm_route=$(cat "$tools/wasm-route")

# wasm_run CMD...: run CMD with the route's environment (rustc, its libraries, the linker)
wasm_run() {
  if [ "$wasm_route" = debian ]; then
    local web="$tools/rust-web" n
    n=$(cat "$web/llvm-version")
    LD_LIBRARY_PATH="$web/usr/lib/x86_64-linux-gnu:$web/usr/lib/llvm-$n/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    RUSTC_BOOTSTRAP=1 \
    RUSTC="$web/usr/bin/rustc" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$web/usr/lib/llvm-$n/bin/wasm-ld" \
      "$@"
  else
    "$@"
  fi
}

# wasm_cargo ARGS...: cargo for wasm32; WASM_STD (default std,panic_abort) is the part of the
# standard library that the Debian route builds from source
wasm_cargo() {
  if [ "$wasm_route" = debian ]; then
    wasm_run cargo "$@" --target wasm32-unknown-unknown --target-dir target/wasm "-Zbuild-std=${WASM_STD:-std,panic_abort}"
  else
    cargo "$@" --target wasm32-unknown-unknown --target-dir target/wasm
  fi
}

# wasm_rustc ARGS...: the rustc that wasm_cargo uses
wasm_rustc() {
  if [ "$wasm_route" = debian ]; then wasm_run "$tools/rust-web/usr/bin/rustc" "$@"; else rustc "$@"; fi
}
