#!/usr/bin/env bash
# Installs everything the project needs into git-ignored folders (.tools/, node_modules/).
# Idempotent: a second run checks what is there and does nothing slow.
#   - the wasm32 target: rustup's where it can be downloaded, otherwise Debian's rustc-web
#     (a rustc whose version matches its std source) unpacked into .tools/rust-web and used by
#     build.sh through RUSTC= and -Zbuild-std (scripts/wasm-env.sh); the choice is recorded
#     in .tools/wasm-route (TUMBLE_WASM_ROUTE=debian forces that route, to test it where
#     rustup works; delete .tools/wasm-route to choose again)
#   - rustfmt and clippy (rustup components) for the style checks of test.sh
#   - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock
#   - npm packages from package-lock.json (uPlot, binaryen's wasm-opt, playwright-core, axe-core)
#   - Debian's Chromium for the browser tests (a clear message where it cannot be installed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools="$root/.tools"
mkdir -p "$tools"

say() { echo "setup: $*"; }
die() { echo "setup: $*" >&2; exit 1; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1; fi
}
apt_updated=
apt_update() {
  [ -n "$apt_updated" ] && return 0
  apt_updated=1
  say "apt-get update"
  as_root apt-get update -qq >/dev/null || say "apt-get update failed (needs root or sudo); using the package lists as they are"
}

# --- the wasm32 target --------------------------------------------------------------------
route_file="$tools/wasm-route"
web="$tools/rust-web"
debian_route() {
  if [ ! -f "$web/.complete" ]; then
    command -v apt-get >/dev/null ||
      die "rustup cannot download the wasm32-unknown-unknown target and there is no apt-get: run 'rustup target add wasm32-unknown-unknown'"
    say "wasm32 target via Debian's rustc-web (about 140 MB, once)"
    apt_update
    local std llvm n v vsrc vstd
    # libstd-rust-web-dev -> libstd-rust-web-1.NN -> libllvmNN: discover them, no versions hard-coded
    std=$(apt-cache depends libstd-rust-web-dev 2>/dev/null | awk '/Depends: libstd-rust-web-[0-9]/{print $2; exit}')
    [ -n "$std" ] || die "apt knows no libstd-rust-web-dev (Debian 12's rustc-web, from bookworm-security)"
    llvm=$(apt-cache depends "$std" | awk '/Depends: libllvm[0-9]/{print $2; exit}')
    [ -n "$llvm" ] || die "cannot tell which libllvm $std needs"
    n=${llvm#libllvm}
    # the compiler and its std source must be the same version
    v=$(apt-cache policy rustc-web | awk '/Candidate:/{print $2}')
    vsrc=$(apt-cache policy rust-web-src | awk '/Candidate:/{print $2}')
    vstd=$(apt-cache policy libstd-rust-web-dev | awk '/Candidate:/{print $2}')
    [ "$v" = "$vsrc" ] && [ "$v" = "$vstd" ] ||
      die "rustc-web $v, rust-web-src $vsrc and libstd-rust-web-dev $vstd differ: run apt-get update"
    rm -rf "$tools/debs" "$web"
    mkdir -p "$tools/debs" "$web"
    (cd "$tools/debs" && apt-get download -qq "rustc-web=$v" "$std=$v" "libstd-rust-web-dev=$v" "rust-web-src=$v" \
      "$llvm" "lld-$n" "liblld-$n" >/dev/null) || die "apt-get download of rustc-web $v and LLVM $n failed"
    for d in "$tools"/debs/*.deb; do dpkg -x "$d" "$web"; done
    echo "$n" > "$web/llvm-version"
    echo "$v" > "$web/version"
    [ -x "$web/usr/lib/llvm-$n/bin/wasm-ld" ] || die "no wasm-ld in lld-$n"
    [ -d "$web/usr/lib/rustlib/src/rust/library" ] || die "no std source in rust-web-src"
    LD_LIBRARY_PATH="$web/usr/lib/x86_64-linux-gnu:$web/usr/lib/llvm-$n/lib" "$web/usr/bin/rustc" --version >/dev/null ||
      die "the unpacked rustc-web does not run"
    touch "$web/.complete"
    rm -rf "$tools/debs"
  fi
  echo debian > "$route_file"
  say "wasm32 target via Debian rustc-web $(cat "$web/version") (LLVM $(cat "$web/llvm-version")) ... ok"
}

if [ "${TUMBLE_WASM_ROUTE:-}" = debian ] || [ "$(cat "$route_file" 2>/dev/null)" = debian ]; then
  debian_route
elif rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo rustup > "$route_file"
  say "wasm32 target via rustup ... ok"
else
  say "trying 'rustup target add wasm32-unknown-unknown' (30 s limit)"
  if timeout 30 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
    echo rustup > "$route_file"
    say "wasm32 target via rustup ... ok"
  else
    say "rustup cannot download it here"
    debian_route
  fi
fi

# --- rustfmt and clippy (test.sh checks the style) ----------------------------------------
if ! { cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1; }; then
  say "installing the rustfmt and clippy components"
  rustup component add rustfmt clippy >/dev/null 2>&1 ||
    die "cargo fmt or cargo clippy is missing and 'rustup component add rustfmt clippy' failed"
fi
say "rustfmt and clippy ... ok"

# --- wasm-bindgen-cli ---------------------------------------------------------------------
wbv=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/, "", $3); print $3; exit}' Cargo.lock)
[ -n "$wbv" ] || die "wasm-bindgen not found in Cargo.lock"
wb="$tools/wasm-bindgen/bin/wasm-bindgen"
if ! { [ -x "$wb" ] && [ "$("$wb" --version)" = "wasm-bindgen $wbv" ]; }; then
  say "installing wasm-bindgen-cli $wbv into .tools/wasm-bindgen (about 3 minutes, once)"
  # without --locked: a locked dependency of the CLI can be newer than the registry has
  cargo install -q wasm-bindgen-cli --version "$wbv" --root "$tools/wasm-bindgen" --force
fi
say "wasm-bindgen-cli $wbv ... ok"

# --- npm packages -------------------------------------------------------------------------
command -v npm >/dev/null || die "no npm: install Node.js 20 and npm"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci (uPlot, binaryen's wasm-opt, playwright-core, axe-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi
say "npm packages ... ok"

# --- Chromium for the browser tests -------------------------------------------------------
chromium_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium chromium-driver fonts-dejavu-core >/dev/null 2>&1
}
if [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's chromium for the browser tests"
  chromium_install || { apt_update; chromium_install; } || true
fi
if [ -x /usr/bin/chromium ]; then
  say "chromium ... ok"
else
  say "could not install Debian's chromium (needs root or sudo and Debian's package registry):"
  say "the browser tests in tests/e2e will be reported as SKIPPED, not passed"
fi
exit 0
