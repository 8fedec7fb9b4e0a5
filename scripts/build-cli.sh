#!/usr/bin/env bash
# Builds target/release/schedlab, the command line the WebAssembly and
# browser tests compare with. Alone it builds just that binary. Inside
# scripts/test.sh (SCHEDLAB_SHARED_BUILD=1) it builds every test target of the
# workspace instead, which resolves the features `cargo test --workspace`
# resolved (dev-dependencies included), so it reuses that build rather than
# compiling the core a second time with other features.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SCHEDLAB_SHARED_BUILD:-0}" = 1 ]; then
  cargo build -q --release --workspace --tests
else
  cargo build -q --release -p schedlab-cli
fi
