#!/usr/bin/env bash
# Builds the Python package (python/, PyO3 + maturin, one abi3 wheel) into a
# fresh virtual environment under target/ and runs its pytest suites:
# python/tests (the package's output against the command line's,
# SCHEDLAB_CLI, and the Gymnasium environment under gymnasium's own checker)
# and tests/python (errors, argument types, pickling, the vector
# environment, executors, interrupts and threads, typed results, writers;
# test_evalys.py there is scripts/test-evalys.sh's).
# The binding crate is its own Cargo workspace (docs/decisions.md); it
# builds into target/python so that it shares no lock or profile with the
# root workspace. Prints "python: N passed, M failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."

root="${CARGO_TARGET_DIR:-$PWD/target}"
venv="$root/python-venv"
bash scripts/build-cli.sh
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
CARGO_TARGET_DIR="$root" "$venv/bin/python" -m pip install -q ./python pandas pytest gymnasium tqdm
cargo fmt --manifest-path python/Cargo.toml -- --check

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
SCHEDLAB_CLI="$root/release/schedlab" "$venv/bin/python" -m pytest python/tests tests/python -q -p no:cacheprovider \
  --ignore=tests/python/test_evalys.py 2>&1 \
  | tee "$log" || status=$?
# pytest's closing line, e.g. "2 failed, 17 passed in 9.1s" (a count it
# does not print is 0).
closing="$(tail -1 "$log")"
passed="$(grep -Eo '[0-9]+ passed' <<<"$closing" | awk '{ print $1 }' || true)"
failed="$(grep -Eo '[0-9]+ (failed|error)' <<<"$closing" | awk '{ s += $1 } END { print s + 0 }' || true)"
echo "python: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
