#!/usr/bin/env bash
# Builds the page's wasm module into www/pkg/, copies uPlot into www/vendor/, and builds the
# native `tumble` command line (target/release/tumble). Runs setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
. scripts/wasm-env.sh

echo "build: wasm module (tumble-wasm, release, $wasm_route route)"
wasm_cargo build --release -q -p tumble-wasm
wasm="target/wasm/wasm32-unknown-unknown/release/tumble_wasm.wasm"
"$tools/wasm-bindgen/bin/wasm-bindgen" --target web --out-dir www/pkg "$wasm"
before=$(stat -c %s www/pkg/tumble_wasm_bg.wasm)
# binaryen from npm (package-lock.json), never Debian's: its 108 breaks wasm-bindgen output.
# The features are the ones rustc enables by default for wasm32-unknown-unknown, and simd128
# (wasm_rustflags in wasm-env.sh). The result
# is kept in target/wasm/opt and reused while wasm-bindgen's output and the flags stay the same.
opt=target/wasm/opt
mkdir -p "$opt"
opt_flags="-O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd"
if [ -f "$opt/out.wasm" ] && cmp -s www/pkg/tumble_wasm_bg.wasm "$opt/in.wasm" &&
  [ "$(cat "$opt/flags" 2>/dev/null)" = "$opt_flags" ]; then
  cp "$opt/out.wasm" www/pkg/tumble_wasm_bg.wasm
else
  rm -f "$opt/in.wasm"
  # shellcheck disable=SC2086
  node_modules/.bin/wasm-opt $opt_flags www/pkg/tumble_wasm_bg.wasm -o "$opt/out.wasm"
  cp www/pkg/tumble_wasm_bg.wasm "$opt/in.wasm"
  echo "$opt_flags" > "$opt/flags"
  cp "$opt/out.wasm" www/pkg/tumble_wasm_bg.wasm
fi
after=$(stat -c %s www/pkg/tumble_wasm_bg.wasm)
# the optimised module must still instantiate with its generated glue
node --input-type=module -e "
  import { readFileSync } from 'node:fs';
  import { initSync } from '$root/www/pkg/tumble_wasm.js';
  initSync({ module: readFileSync('$root/www/pkg/tumble_wasm_bg.wasm') });" ||
  { echo "build: www/pkg/tumble_wasm_bg.wasm does not load after wasm-opt" >&2; exit 1; }
echo "build: www/pkg/tumble_wasm_bg.wasm $before -> $after bytes (wasm-opt -O3), loads under node"

mkdir -p www/vendor
cp node_modules/uplot/dist/uPlot.esm.js node_modules/uplot/dist/uPlot.min.css www/vendor/
# CodeMirror 6 for the scenario editor (www/app/editor.js), from package-lock.json: each package's
# ES module copied as it is; their bare imports ('@codemirror/state', 'crelt', ...) resolve
# through the import map in www/index.html (tests/js/importmap.test.mjs checks the two agree)
mkdir -p www/vendor/cm
for pair in state:@codemirror/state/dist/index.js view:@codemirror/view/dist/index.js \
    language:@codemirror/language/dist/index.js commands:@codemirror/commands/dist/index.js \
    lint:@codemirror/lint/dist/index.js lang-json:@codemirror/lang-json/dist/index.js \
    streamparser:@codemirror/streamparser/dist/index.js lezer-common:@lezer/common/dist/index.js \
    lezer-highlight:@lezer/highlight/dist/index.js lezer-lr:@lezer/lr/dist/index.js \
    lezer-json:@lezer/json/dist/index.js find-cluster-break:@marijn/find-cluster-break/src/index.js \
    crelt:crelt/index.js style-mod:style-mod/src/style-mod.js w3c-keyname:w3c-keyname/index.js; do
  cp "node_modules/${pair#*:}" "www/vendor/cm/${pair%%:*}.js"
done

# MuJoCo's official wasm build (@mujoco/mujoco, package-lock.json), single-threaded: the page loads
# it only when a user compares with MuJoCo or opens a MuJoCo model (www/mujoco/mjcf.js), never otherwise
mkdir -p www/vendor/mujoco
cp node_modules/@mujoco/mujoco/mujoco.js node_modules/@mujoco/mujoco/mujoco.wasm www/vendor/mujoco/

echo "build: native command line"
cargo build --release -q -p tumble-cli
echo "build: ok (target/release/tumble, www/pkg, www/vendor)"
