#!/usr/bin/env bash
# Set-up of the page's npm packages, shared by serve.sh and test-browser.sh;
# idempotent: `npm ci` only when package-lock.json changed since the last
# install. The Rust side (wasm target, wasm-bindgen-cli pinned to the binding
# crate's version) is set up by scripts/build-wasm.sh, which `npm run build`
# calls.
set -euo pipefail
cd "$(dirname "$0")/../www"

command -v npm >/dev/null || { echo "setup-web.sh: Node.js 20.19 or newer (with npm) is needed: https://nodejs.org" >&2; exit 2; }
stamp=node_modules/.schedlab-lock
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then
  echo "== npm packages up to date"
else
  echo "== npm ci"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
