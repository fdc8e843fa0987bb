#!/usr/bin/env bash
# THE test command (README; .ci/run calls exactly this). Installs what is missing, builds,
# then checks the style (rustfmt, clippy with warnings as errors) and runs every test: Rust unit and integration tests (with the property tests and the
# short fuzz pass), the no_std build of the solver for wasm32, the wasm module under Node,
# and the real page in headless Chromium. Stops at the first failure (non-zero exit).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
section() { echo; echo "=== $* ==="; }

section "setup and build"
bash scripts/build.sh
. scripts/wasm-env.sh

section "style: cargo fmt --check, cargo clippy -D warnings"
cargo fmt --all --check || { echo "run 'cargo fmt --all'" >&2; exit 1; }
cargo clippy -q --workspace --all-targets -- -D warnings

section "Rust tests (native)"
cargo test -q --workspace --exclude tumble-wasm
cargo check -q -p tumble-wasm   # the wasm facade also compiles natively

section "tumble without std (no_std + alloc) for wasm32, $wasm_route route"
# The Debian route builds only core and alloc from source, so any use of std fails to
# compile; on both routes the built rlib's crate graph is then checked for std.
rlib=$(WASM_STD=core,alloc wasm_cargo build --release -q -p tumble --no-default-features --message-format=json |
  grep -o '"[^"]*/libtumble[^"/]*\.rlib"' | tail -n 1 | tr -d '"')
[ -f "$rlib" ] || { echo "no rlib for tumble" >&2; exit 1; }
deps=$(RUSTC_BOOTSTRAP=1 wasm_rustc -Zls=root "$rlib" 2>/dev/null | sed -n '/^=External Dependencies=/,/^$/p' || true)
if [ -z "$deps" ]; then
  echo "built $(basename "$rlib") (this rustc cannot list its crate graph)"
elif grep -Eq '^[0-9]+ std-' <<<"$deps"; then
  echo "tumble without its std feature still links std:" >&2; echo "$deps" >&2; exit 1
else
  echo "built $(basename "$rlib"); its crate graph has no std: $(awk 'NR>1{sub(/-[0-9a-f]+$/, "", $2); printf "%s ", $2}' <<<"$deps")"
fi

for dir in tests/js tests/e2e; do
  section "node --test $dir"
  shopt -s nullglob
  files=("$dir"/*.test.{mjs,js,cjs} "$dir"/*{-,_}test.{mjs,js,cjs})
  shopt -u nullglob
  if [ ${#files[@]} -gt 0 ]; then
    node --test "${files[@]}"
  else
    echo "skipped: no test files in $dir"
  fi
done
echo
echo "all tests passed"
