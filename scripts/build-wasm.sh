#!/usr/bin/env bash
# Builds the Schedlab core for the browser: crates/schedlab-wasm compiled to
# wasm32-unknown-unknown, then wasm-bindgen writes
#   www/src/wasm/      ES module for the page and its workers (--target web)
#   target/wasm-node/  CommonJS module for Node tests and benchmarks
# Idempotent: installs the wasm target and wasm-bindgen-cli only when missing
# (scripts/setup-wasm.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup-wasm.sh

# The release profile, as the tests build it: a profile of its own with fat
# LTO was tried and not kept (docs/decisions.md, "Speed in WebAssembly").
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
