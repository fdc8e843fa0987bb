#!/usr/bin/env bash
# Builds the page's wasm module into www/pkg/, copies uPlot into www/vendor/, and builds the
# native `tumble` command line (target/release/tumble). Runs setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
tools="$root/.tools"

# wasm_cargo ARGS...: cargo for the wasm32 target, through the route setup.sh chose
wasm_cargo() {
  if [ "$(cat "$tools/wasm-route")" = debian ]; then
    local web="$tools/rust-web" n
    n=$(cat "$web/llvm-version")
    LD_LIBRARY_PATH="$web/usr/lib/x86_64-linux-gnu:$web/usr/lib/llvm-$n/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    RUSTC_BOOTSTRAP=1 \
    RUSTC="$web/usr/bin/rustc" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$web/usr/lib/llvm-$n/bin/wasm-ld" \
      cargo "$@" --target wasm32-unknown-unknown --target-dir target/wasm -Zbuild-std=std,panic_abort
  else
    cargo "$@" --target wasm32-unknown-unknown --target-dir target/wasm
  fi
}
export -f wasm_cargo 2>/dev/null || true

echo "build: wasm module"
wasm_cargo build --release -q -p tumble-wasm
wasm="target/wasm/wasm32-unknown-unknown/release/tumble_wasm.wasm"
"$tools/wasm-bindgen/bin/wasm-bindgen" --target web --out-dir www/pkg "$wasm"
before=$(stat -c %s www/pkg/tumble_wasm_bg.wasm)
node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types \
  www/pkg/tumble_wasm_bg.wasm -o www/pkg/tumble_wasm_bg.wasm
after=$(stat -c %s www/pkg/tumble_wasm_bg.wasm)
echo "build: www/pkg/tumble_wasm_bg.wasm $before -> $after bytes (wasm-opt -O3)"

mkdir -p www/vendor
cp node_modules/uplot/dist/uPlot.esm.js node_modules/uplot/dist/uPlot.min.css www/vendor/

echo "build: native command line"
cargo build --release -q -p tumble-cli
echo "build: ok (target/release/tumble, www/pkg, www/vendor)"
