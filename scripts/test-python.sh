#!/usr/bin/env bash
# Builds the Python package (python/, PyO3 + maturin, one abi3 wheel) into a
# fresh virtual environment under target/ and runs its pytest suite, which
# compares the package's output with the command line's (SCHEDLAB_CLI).
# The binding crate is its own Cargo workspace (docs/decisions.md); it
# builds into target/python so that it shares no lock or profile with the
# root workspace. Prints "python: N passed, M failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."

root="${CARGO_TARGET_DIR:-$PWD/target}"
venv="$root/python-venv"
cargo build -q --release -p schedlab-cli
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
CARGO_TARGET_DIR="$root" "$venv/bin/python" -m pip install -q ./python pandas pytest
cargo fmt --manifest-path python/Cargo.toml -- --check

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
SCHEDLAB_CLI="$root/release/schedlab" "$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider 2>&1 \
  | tee "$log" || status=$?
# pytest's closing line, e.g. "2 failed, 17 passed in 9.1s" (a count it
# does not print is 0).
closing="$(tail -1 "$log")"
passed="$(grep -Eo '[0-9]+ passed' <<<"$closing" | awk '{ print $1 }' || true)"
failed="$(grep -Eo '[0-9]+ (failed|error)' <<<"$closing" | awk '{ s += $1 } END { print s + 0 }' || true)"
echo "python: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
