#!/usr/bin/env bash
# Runs Schedlab's main job on the bundled sample: FCFS, EASY, SJF-EASY and
# conservative backfilling side by side on the first 3000 jobs of KTH-SP2.
# Idempotent; builds the command line first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p schedlab-cli
exec target/release/schedlab compare samples/kth-sp2-first3000.swf \
  --policy fcfs --policy easy --policy easy:order=shortest --policy cbf "$@"
