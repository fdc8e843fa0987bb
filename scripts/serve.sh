#!/usr/bin/env bash
# Builds everything (installing what is missing) and serves the demo on 127.0.0.1.
# PORT=9000 scripts/serve.sh serves on another port (default 8080).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
port=${PORT:-8080}

# A busy port would end in Python's traceback ("OSError: [Errno 98] Address already in use"):
# try the port first, as http.server binds it (SO_REUSEADDR), and say what to do instead.
port_free() {
  python3 - "$port" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except (ValueError, OverflowError):
    sys.exit(2)
except OSError:
    sys.exit(1)
finally:
    s.close()
PY
}
check_port() {
  local status=0
  port_free || status=$?
  if [ "$status" = 2 ]; then
    echo "serve: PORT=$port is not a port number; choose one from 1024 to 65535: PORT=9000 scripts/serve.sh" >&2
    exit 1
  elif [ "$status" != 0 ]; then
    echo "serve: port $port on 127.0.0.1 is busy: another server is using it." >&2
    echo "serve: stop that server, or choose another port: PORT=9000 scripts/serve.sh" >&2
    exit 1
  fi
}

check_port # before the build, which can take minutes
bash scripts/build.sh
check_port # and again after it
echo
echo "Tumble is at http://127.0.0.1:$port/  (Ctrl-C stops the server)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory www
