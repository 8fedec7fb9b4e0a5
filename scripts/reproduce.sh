#!/usr/bin/env bash
# Regenerates every reproduction report under docs/reproduction/ from the
# shared traces (SCHEDLAB_TRACES, default ../shared/traces). The discussion
# in docs/reproduction.md is written by hand against these reports.
set -euo pipefail
cd "$(dirname "$0")/.."
traces="${SCHEDLAB_TRACES:-../shared/traces}"
[ -d "$traces" ] || { echo "reproduce: no trace directory at $traces (set SCHEDLAB_TRACES)" >&2; exit 2; }
cargo build -q --release -p schedlab-cli
bin=target/release/schedlab
mkdir -p docs/reproduction
python3 scripts/reproduce_pv_easy.py "$bin" "$traces" docs/reproduction/pv-easy.md
python3 scripts/reproduce_presets.py "$bin" "$traces" docs/reproduction/presets.md
bash scripts/reproduce_slack_selective_dbf.sh "$traces" > docs/reproduction/slack-selective-dbf-tables.md
python3 scripts/reproduce_rlscheduler.py "$bin" "$traces" docs/reproduction/rlscheduler.md
