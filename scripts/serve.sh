#!/usr/bin/env bash
# The playground in one command: sets up what is missing (the wasm target,
# wasm-bindgen-cli, the npm packages), builds the core to WebAssembly and the
# page into www/dist/, and serves it on localhost, printing the address.
# Safe to run again: every step is skipped when already done. The first run
# also compiles the Rust core for WebAssembly (a few minutes) and, when it is
# missing, wasm-bindgen-cli (announced with its rough duration).
#   PORT=8080 HOST=127.0.0.1 bash scripts/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8080}"
HOST="${HOST:-127.0.0.1}"

command -v node >/dev/null || { echo "serve.sh: Node.js 20.19 or newer is needed (https://nodejs.org)" >&2; exit 2; }
command -v cargo >/dev/null || { echo "serve.sh: a Rust toolchain is needed (https://rustup.rs)" >&2; exit 2; }

bash scripts/setup-web.sh

# Say what the build costs before it starts, as setup-web.sh does for
# wasm-bindgen-cli: the first compile of the core is the long step.
if [ -e www/src/wasm/schedlab_wasm_bg.wasm ]; then
  echo "== building the page into www/dist/ (the core's WebAssembly build is rebuilt only if the Rust code changed: seconds)"
else
  echo "== building the page into www/dist/: first the core compiled to WebAssembly (a one-time step, about 3 to 4 minutes on 2 idle cores, longer while other builds run; later runs take seconds), then the TypeScript"
fi
(cd www && npm run build)

echo
echo "Schedlab playground: http://$HOST:$PORT/"
echo "(Ctrl-C stops the server; www/dist/ is a static site any web server can host)"
cd www
# exec node itself (not npx, which would keep a child): killing this script's
# PID, e.g. of `bash scripts/serve.sh &`, stops the server. Vite's own
# banner would print the address a second time: only its warnings and
# errors are shown.
exec node node_modules/vite/bin/vite.js preview --host "$HOST" --port "$PORT" --strictPort --logLevel warn
