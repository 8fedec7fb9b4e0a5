#!/usr/bin/env bash
# Runs every test of Schedlab. Idempotent: installs what the tests need when
# it is missing (the wasm target, the fuzzer) and reuses it otherwise.
#
# Full-trace tests and benchmarks read the directory in $SCHEDLAB_TRACES;
# when it is unset they are skipped with a note, so a fresh clone passes.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "toolchain"
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

step "format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -q -- -D warnings

step "the core builds for WebAssembly (no I/O, no clock, no threads in it)"
cargo build -q --release --target wasm32-unknown-unknown -p schedlab

step "unit, integration, property and command-line tests"
if [ -n "${SCHEDLAB_TRACES:-}" ]; then
  echo "full-trace tests read $SCHEDLAB_TRACES"
else
  echo "SCHEDLAB_TRACES is unset: full-trace tests are skipped"
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
cargo test --workspace --release 2>&1 | tee "$log"

step "evalys reads Batsim's jobs.csv (evalys and pytest from PyPI, in a venv under the target directory)"
bash scripts/test-evalys.sh

step "generated TypeScript types and docs/metrics.md are current"
SCHEDLAB_BLESS=1 cargo test -q --release -p schedlab-wasm --lib types >/dev/null
SCHEDLAB_BLESS=1 cargo test -q --release -p schedlab-metrics --lib glossary >/dev/null
git diff --exit-code -- www/src/generated docs/metrics.md \
  || { echo "regenerating the TypeScript types or docs/metrics.md changed them: commit the regenerated files" >&2; exit 1; }

step "fuzz smoke runs: the SWF reader, whole runs, share links, the merge reader (30 s each)"
cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz
bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}" all

step "the Python package: built with maturin into a venv, tested with pytest"
python_log="$(mktemp)"
bash scripts/test-python.sh 2>&1 | tee "$python_log"

step "WebAssembly: wasm-bindgen tests and native/wasm identity"
wasm_log="$(mktemp)"
bash scripts/test-wasm.sh 2>&1 | tee "$wasm_log"

step "the playground in a real browser"
browser_log="$(mktemp)"
bash scripts/test-browser.sh 2>&1 | tee "$browser_log"

# One closing line for the whole run: every cargo test binary of the native
# suite, plus the closing "N passed, M failed" line of each other suite.
{
  awk '/^test result:/ { p += $4; f += $6 } END { print p, f }' "$log"
  grep -E '^wasm tests: [0-9]+ passed, [0-9]+ failed$' "$wasm_log" | tail -1 | awk '{ print $3, $5 }'
  grep -E '^[0-9]+ passed, [0-9]+ failed$' "$browser_log" | tail -1 | awk '{ print $1, $3 }'
  grep -E '^python: [0-9]+ passed, [0-9]+ failed$' "$python_log" | tail -1 | awk '{ print $2, $4 }'
} | awk '{ p += $1; f += $2 } END { printf "tests: %d passed, %d failed\n", p, f }'
rm -f "$wasm_log" "$browser_log" "$python_log"
