#!/usr/bin/env bash
# THE test command (README; .ci/run calls exactly this). Installs what is missing, builds,
# then runs every test: Rust unit and integration tests (with the property tests and the
# short fuzz pass), the no_std build of the solver, the wasm module under Node, and the real
# page in headless Chromium.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
section() { echo; echo "=== $* ==="; }

section "setup and build"
bash scripts/build.sh

section "Rust tests (native)"
cargo test -q --workspace --exclude tumble-wasm

section "tumble builds without std (no_std + alloc, for wasm32)"
cargo build -q -p tumble --no-default-features
cargo check -q -p tumble-wasm

for dir in tests/js tests/e2e; do
  section "node --test $dir"
  if compgen -G "$dir/*.test.mjs" >/dev/null; then
    node --test "$dir"/*.test.mjs
  else
    echo "no tests in $dir"
  fi
done
echo
echo "all tests passed"
