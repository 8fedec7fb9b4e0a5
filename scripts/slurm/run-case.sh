#!/usr/bin/env bash
# Runs one case of docs/slurm.md on real Slurm RUNS times at once (one
# cluster each, side by side), then compares each run with Schedlab's
# `slurm` policy on the same jobs and configuration.
#
#   run-case.sh CASE RUNS OUTDIR [--check]
#
# CASE is a workload of make_workload.py (basic, multifactor, smoke, nodes).
# OUTDIR gets the workload, each real run's record (real-N.csv, with its
# cluster's slurm.conf, its clocks and its controller's log), the load average
# during the runs, and the comparison table (table.md). With --check the
# comparison fails when Schedlab is outside the real runs' spread.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/slurm
case_name=$1 runs=$2 out=$(realpath -m "$3")
check=${4:-}
mkdir -p "$out"

# The slurm.conf lines of each case and the same settings as the policy's
# parameters: Slurm's every-second intervals keep the loops' unknown
# phases from adding noise (a one-node cluster of 64 cores, but for
# `nodes`: four nodes of 16 cores in two partitions).
every_second="SchedulerParameters=bf_interval=1,bf_resolution=1,sched_interval=1"
nodes=1 cpus=64 workload=workload.swf slurm_rows=""
case $case_name in
  basic|smoke)
    conf="$every_second"
    params="bf_interval=1 bf_resolution=1 sched_interval=1"
    as_users=""
    # Each case its own ports, so that cases can run side by side.
    base_port=$([ "$case_name" = basic ] && echo 7100 || echo 7500)
    ;;
  multifactor)
    conf="$every_second
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityFavorSmall=YES
PriorityMaxAge=10
PriorityDecayHalfLife=15
PriorityCalcPeriod=1
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStorageEnforce=associations"
    params="bf_interval=1 bf_resolution=1 sched_interval=1 PriorityType=priority/multifactor PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=1000 PriorityFavorSmall=YES PriorityMaxAge=10 PriorityDecayHalfLife=15 PriorityCalcPeriod=1 AccountingStorageEnforce=associations"
    as_users="--as-users"
    base_port=7300
    ;;
  nodes)
    # `batch` has every node, `short` the last two with a two-minute
    # limit: a job of `short` may wait while `batch` has room on n1-n2.
    conf="$every_second
PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=INFINITE State=UP
PartitionName=short Nodes=n[3-4] MaxTime=2 State=UP"
    params="bf_interval=1 bf_resolution=1 sched_interval=1"
    as_users=""
    base_port=7700 nodes=4 cpus=16 workload=workload.txt
    # The `slurm` policy plans one node of the trace's processors, so it
    # is left out of this case's table (and out of --check) until it
    # schedules nodes and partitions; EASY and FCFS run on the nodes.
    slurm_rows=--without-slurm check=""
    ;;
  *) echo "run-case.sh: unknown case $case_name" >&2; exit 2 ;;
esac

python3 $here/make_workload.py "$case_name" "$out/$workload"
printf '%s\n' "$conf" >"$out/slurm.conf.extra"
printf '%s\n' "$params" >"$out/params"

clusters=()
cleanup() {
  local c
  for c in "${clusters[@]}"; do bash $here/cluster.sh stop "$c" || true; done
  if [ -n "$as_users" ]; then bash $here/accounts.sh stop || true; fi
}
trap cleanup EXIT

if [ -n "$as_users" ]; then
  bash $here/accounts.sh users "$out/$workload"
  bash $here/accounts.sh start
fi
pids=()
for i in $(seq "$runs"); do
  dir=/tmp/schedlab-slurm/$case_name-$i
  rm -rf "$dir"
  port=$((base_port + 20 * i))
  bash $here/cluster.sh conf "$dir" $nodes $cpus "$port" "$out/slurm.conf.extra"
  if [ -n "$as_users" ]; then
    bash $here/accounts.sh associations "$dir" "$out/$workload"
  fi
  bash $here/cluster.sh start "$dir" $nodes $cpus "$port"
  clusters+=("$dir")
done
uptime >"$out/load.txt"
for i in $(seq "$runs"); do
  python3 $here/replay.py "$out/$workload" "/tmp/schedlab-slurm/$case_name-$i" "$out/real-$i.csv" $as_users &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
uptime >>"$out/load.txt"
cleanup
clusters=()

bin=${SCHEDLAB_BIN:-target/release/schedlab}
python3 $here/compare.py --schedlab "$bin" --params "$params" --policy easy --policy fcfs $slurm_rows \
  --markdown "$out/table.md" $check "$out"/real-*.csv
