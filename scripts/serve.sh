#!/usr/bin/env bash
# Builds everything (installing what is missing) and serves the demo on 127.0.0.1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/build.sh
port=${PORT:-8080}
echo
echo "Tumble is at http://127.0.0.1:$port/  (Ctrl-C stops the server)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory www
