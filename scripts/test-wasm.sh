#!/usr/bin/env bash
# The WebAssembly tests: the exports as JavaScript calls them
# (wasm-bindgen-test under Node: crates/schedlab-wasm/tests/) and the
# native-vs-wasm identity test (tests/wasm/identity.mjs). Idempotent set-up:
# the wasm target and wasm-bindgen-cli (which brings wasm-bindgen-test-runner)
# are installed by scripts/build-wasm.sh only when missing. Needs Node ≥ 18.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

if ! command -v node >/dev/null 2>&1; then
  echo "node is required for the WebAssembly tests (e.g. apt-get install -y nodejs)" >&2
  exit 1
fi

step "build the WebAssembly core and the command line"
bash scripts/build-wasm.sh
bash scripts/build-cli.sh

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

step "wasm-bindgen tests under Node"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --release --target wasm32-unknown-unknown -p schedlab-wasm --test web --test panic 2>&1 | tee "$log"

step "native and WebAssembly runs give the same bytes"
node tests/wasm/identity.mjs | tee -a "$log"

awk '/^test result:/ { p += $4; f += $6 } /^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 }
     END { printf "wasm tests: %d passed, %d failed\n", p, f; exit f > 0 }' "$log"
