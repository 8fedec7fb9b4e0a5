#!/usr/bin/env bash
# Builds the Schedlab core for the browser: crates/schedlab-wasm compiled to
# wasm32-unknown-unknown, then wasm-bindgen writes
#   www/src/wasm/      ES module for the page and its workers (--target web)
#   target/wasm-node/  CommonJS module for Node tests and benchmarks
# Idempotent: installs the wasm target and wasm-bindgen-cli only when missing.
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

cargo build --release --target wasm32-unknown-unknown -p schedlab-wasm
wasm=target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
wasm-bindgen --target web --out-dir www/src/wasm "$wasm"
wasm-bindgen --target nodejs --out-dir target/wasm-node "$wasm"

# Optional size/speed pass; an old binaryen (Debian's) may not know the
# module's features, in which case the unoptimised module is kept.
if command -v wasm-opt >/dev/null 2>&1; then
  for f in www/src/wasm/schedlab_wasm_bg.wasm target/wasm-node/schedlab_wasm_bg.wasm; do
    if wasm-opt -O2 --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
        --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
        "$f" -o "$f.opt" 2>/dev/null; then
      mv "$f.opt" "$f"
    else
      rm -f "$f.opt"
      echo "wasm-opt failed on $f: keeping the module as wasm-bindgen wrote it"
    fi
  done
fi

size=$(wc -c < www/src/wasm/schedlab_wasm_bg.wasm)
gz=$(gzip -9c www/src/wasm/schedlab_wasm_bg.wasm | wc -c)
echo "wasm: www/src/wasm/schedlab_wasm_bg.wasm $size bytes ($gz gzipped); node build in target/wasm-node"
