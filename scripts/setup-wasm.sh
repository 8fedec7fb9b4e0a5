#!/usr/bin/env bash
# One-time set-up of the WebAssembly build: the wasm32 target and
# wasm-bindgen-cli at the version the binding crate pins. Idempotent: does
# nothing when both are there. Called by scripts/build-wasm.sh and by the
# set-up phase of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# Must equal the `wasm-bindgen = "=…"` pin in crates/schedlab-wasm/Cargo.toml:
# the generated JavaScript and the crate have to come from the same version.
WASM_BINDGEN_VERSION=0.2.130
export PATH="$HOME/.cargo/bin:$PATH"

rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  # A one-time step: say what it is and what it costs before it starts.
  if command -v cargo-binstall >/dev/null 2>&1; then
    echo "== one-time set-up: wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo binstall: a prebuilt binary, under a minute)"
    cargo binstall -y --version "$WASM_BINDGEN_VERSION" wasm-bindgen-cli \
      || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  else
    echo "== one-time set-up: compiling wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 to 8 minutes; later runs skip it;"
    echo "   with cargo-binstall installed, a prebuilt binary is fetched instead)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
fi
