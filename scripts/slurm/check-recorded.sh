#!/usr/bin/env bash
# Replays the real Slurm runs recorded in docs/reproduction/slurm-runs with
# the `slurm` policy and fails when it leaves the real runs' spread (the
# rule of docs/reproduction/slurm.md: mean wait inside the real runs' range
# widened by 5 %, median per-job |Δ wait| no larger than the largest median
# between two real runs). The records are real Slurm 22.05's own
# job-completion logs, so this checks the policy against the real scheduler
# without starting one; `run-case.sh` makes new records.
#
# Only the cases that pass the rule today are checked (see the doc for the
# others' figures): `basic`, one node under priority/basic, and
# `multifactor`, the same node under priority/multifactor with age,
# fair-share and size. Each record's own clocks (its time zero on the Unix
# clock, its decay thread's phase) are in real-N.params beside it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/build-cli.sh
runs=docs/reproduction/slurm-runs
python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" \
  --params "bf_interval=1 bf_resolution=1 sched_interval=1" --check "$runs"/basic/real-*.csv
python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" \
  --params "bf_interval=1 bf_resolution=1 sched_interval=1 PriorityType=priority/multifactor PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=1000 PriorityFavorSmall=YES PriorityMaxAge=10 PriorityDecayHalfLife=15 PriorityCalcPeriod=1 AccountingStorageEnforce=associations" \
  --check "$runs"/multifactor/real-*.csv
