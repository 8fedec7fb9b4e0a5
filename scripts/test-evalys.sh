#!/usr/bin/env bash
# Checks that evalys (from PyPI) reads the Batsim jobs.csv of `schedlab run
# --batsim-jobs` and agrees with our per-job times and utilisation
# (tests/python/test_evalys.py). Idempotent: the virtual environment lives
# under the cargo target directory and is made and filled once.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
venv="$target/evalys-venv"
cargo build -q --release -p schedlab-cli
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import evalys, pytest' 2>/dev/null || "$venv/bin/pip" install -q evalys pytest
# evalys 4.0.7 calls pandas' deprecated `rename(inplace=True)`: its warning, not ours.
SCHEDLAB_BIN="$target/release/schedlab" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  -W 'ignore:The inplace keyword in DataFrame.rename' tests/python/test_evalys.py
