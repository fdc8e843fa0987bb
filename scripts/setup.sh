#!/usr/bin/env bash
# Installs everything the project needs into git-ignored folders (.tools/, node_modules/).
# Idempotent: a second run checks what is there and does nothing slow.
#   - the wasm32 target: rustup's where it can be downloaded, otherwise Debian's rustc-web
#     (a rustc whose version matches its std source) unpacked into .tools/rust-web, used by
#     build.sh through RUSTC= and -Zbuild-std
#     (TUMBLE_WASM_ROUTE=debian forces that route, to test it where rustup works)
#   - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock
#   - npm packages from package-lock.json (uPlot, binaryen's wasm-opt, playwright-core)
#   - Debian's Chromium for the browser tests (a clear message where it cannot be installed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools="$root/.tools"
mkdir -p "$tools"

say() { echo "setup: $*"; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else return 1; fi
}

# --- the wasm32 target --------------------------------------------------------------------
route_file="$tools/wasm-route"
web="$tools/rust-web"
debian_route() {
  if [ ! -x "$web/usr/bin/rustc" ] || [ ! -f "$web/.complete" ]; then
    say "wasm32 target via Debian's rustc-web (rustup cannot download it here)"
    command -v apt-get >/dev/null || { echo "setup: no apt-get: install the wasm32-unknown-unknown target with rustup" >&2; exit 1; }
    local std llvm n
    std=$(apt-cache depends libstd-rust-web-dev 2>/dev/null | awk '/Depends: libstd-rust-web-[0-9]/{print $2; exit}')
    if [ -z "$std" ] || ! apt-cache policy rustc-web | grep -q 'Candidate: 1\.9'; then
      as_root apt-get update -qq || true
      std=$(apt-cache depends libstd-rust-web-dev | awk '/Depends: libstd-rust-web-[0-9]/{print $2; exit}')
    fi
    llvm=$(apt-cache depends "$std" | awk '/Depends: libllvm[0-9]/{print $2; exit}')
    n=${llvm#libllvm}
    rm -rf "$tools/debs" "$web"
    mkdir -p "$tools/debs" "$web"
    (cd "$tools/debs" && apt-get download -q rustc-web "$std" libstd-rust-web-dev rust-web-src "$llvm" "lld-$n" "liblld-$n")
    for d in "$tools"/debs/*.deb; do dpkg -x "$d" "$web"; done
    echo "$n" > "$web/llvm-version"
    touch "$web/.complete"
    rm -rf "$tools/debs"
  fi
  # build.sh runs the default toolchain's cargo with RUSTC pointing at this rustc (the Debian
  # package has no cargo of its own); rustc needs its libraries from the same folder
  echo debian > "$route_file"
}

if [ "${TUMBLE_WASM_ROUTE:-}" = debian ] || { [ -f "$route_file" ] && [ "$(cat "$route_file")" = debian ]; }; then
  debian_route
elif [ -f "$route_file" ] || rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo rustup > "$route_file"
else
  say "trying 'rustup target add wasm32-unknown-unknown' (30 s limit)"
  if timeout 30 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
    echo rustup > "$route_file"
  else
    debian_route
  fi
fi
say "wasm32 target: $(cat "$route_file") route ok"

# --- wasm-bindgen-cli ---------------------------------------------------------------------
wbv=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/, "", $3); print $3; exit}' Cargo.lock)
wb="$tools/wasm-bindgen/bin/wasm-bindgen"
if [ -z "$wbv" ]; then echo "setup: wasm-bindgen not found in Cargo.lock" >&2; exit 1; fi
if ! { [ -x "$wb" ] && "$wb" --version | grep -q " $wbv\$"; }; then
  say "installing wasm-bindgen-cli $wbv (about 3 minutes, once)"
  # without --locked: a locked dependency of the CLI can be newer than the registry mirror has
  cargo install -q wasm-bindgen-cli --version "$wbv" --root "$tools/wasm-bindgen" --force
fi
say "wasm-bindgen-cli $wbv ok"

# --- npm packages -------------------------------------------------------------------------
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci (uPlot, binaryen, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi
say "npm packages ok"

# --- Chromium for the browser tests -------------------------------------------------------
if [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's chromium for the browser tests"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null; then
    as_root apt-get update -qq || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null ||
      echo "setup: could not install chromium (needs root or sudo and Debian's packages); the browser tests will be reported as SKIPPED, not passed" >&2
  fi
fi
[ -x /usr/bin/chromium ] && say "chromium ok"
exit 0
