#!/usr/bin/env bash
# Peer benchmark: MuJoCo RK4 against Tumble's director on the same chains (see benches/README.md).
#   bash benches/peers/run.sh [--scenarios A,B,..] [--steps N] [--repeats R] [--tumble PATH] [--skip-checks]
# Creates benches/peers/.venv (git-ignored) with the pinned MuJoCo from PyPI on first use.
# The Tumble binary: $TUMBLE, else target/release/tumble (built with cargo when missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
req="$here/requirements.txt"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.installed"; then
  echo "creating $venv with $(tr '\n' ' ' < "$req")" >&2
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  cp "$req" "$venv/requirements.installed"
fi
if [ -z "${TUMBLE:-}" ]; then
  TUMBLE="$root/target/release/tumble"
  if [ ! -x "$TUMBLE" ]; then
    (cd "$root" && cargo build --release -p tumble-cli)
  fi
fi
export TUMBLE
cd "$root"
exec "$venv/bin/python" "$here/peers.py" "$@"
