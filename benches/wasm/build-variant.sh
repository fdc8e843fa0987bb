#!/usr/bin/env bash
# Build the wasm module from the current source with extra rustc flags, for measurements only
# (the page's build is scripts/build.sh). The result keeps its name section (wasm-opt -g), so
# `node --cpu-prof` names the Rust functions.
#   bash benches/wasm/build-variant.sh NAME "RUSTFLAGS"   ->  target/wasm-variants/NAME/pkg
# Examples (benches/README.md):
#   bash benches/wasm/build-variant.sh named ""
#   bash benches/wasm/build-variant.sh simd "-C target-feature=+simd128"
#   bash benches/wasm/build-variant.sh sqrt "--cfg intrinsics_enabled"   # libm's f64.sqrt path
# Needs the rustup wasm32 target (scripts/setup.sh), wasm-bindgen in .tools (or $WASM_BINDGEN)
# and wasm-opt in node_modules.
set -euo pipefail
name=$1
flags=${2:-}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bindgen=${WASM_BINDGEN:-$root/.tools/wasm-bindgen/bin/wasm-bindgen}
dir="target/wasm-variants/$name"
# RUSTC_BOOTSTRAP: libm's `intrinsics_enabled` cfg turns on nightly-only code in libm
RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" cargo build --release -q -p tumble-wasm \
  --target wasm32-unknown-unknown --target-dir "$dir/cargo"
rm -rf "$dir/pkg"
"$bindgen" --target web --out-dir "$dir/pkg" "$dir/cargo/wasm32-unknown-unknown/release/tumble_wasm.wasm"
features="--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals
  --enable-reference-types --enable-multivalue"
case "$flags" in *simd128*) features="$features --enable-simd" ;; esac
# shellcheck disable=SC2086
node_modules/.bin/wasm-opt -O3 -g $features "$dir/pkg/tumble_wasm_bg.wasm" -o "$dir/pkg/opt.wasm"
mv "$dir/pkg/opt.wasm" "$dir/pkg/tumble_wasm_bg.wasm"
echo "$dir/pkg"
