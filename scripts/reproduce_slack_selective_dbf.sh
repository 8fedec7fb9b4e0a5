#!/usr/bin/env bash
# Regenerates the numbers of docs/reproduction/slack-selective-dbf.md: the slack-based
# backfilling tables (Talby and Feitelson 1999, tables 2 and 5) on KTH, the
# selective-reservation category changes and fairness table (Srinivasan et
# al. 2002, figures 1-6, table 9) and DBF at 20-80 % deadline-driven jobs
# (Gaussier et al. 2018, figures 2, 4, 6, 7) on the shared traces.
#
# Usage: scripts/reproduce_slack_selective_dbf.sh [TRACES_DIR] > tables.md
# Result documents (JSON) are kept in target/reproduction/slack-selective-dbf/; the
# Python script only formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
TRACES="${1:-${SCHEDLAB_TRACES:-../shared/traces}}"
OUT=target/reproduction/slack-selective-dbf
mkdir -p "$OUT"
cargo build --release -q -p schedlab-cli
BIN=target/release/schedlab

# Machine sizes and category limits as the papers use them: CTC-SP2 on 430
# processors; LANL's narrow limit is 64 processors (selective table 2).
procs() { case "$1" in CTC-SP2*) echo "--procs 430" ;; *) echo "" ;; esac; }
narrow() { case "$1" in LANL-CM5*) echo "--narrow-size 64" ;; *) echo "--narrow-size 8" ;; esac; }

with_fs() { if [[ "$1" == *:* ]]; then echo "$1,fair_slowdown=on"; else echo "$1:fair_slowdown=on"; fi; }

run_json() { # NAME TRACE SPEC [extra flags...]: the run's result document
  local name=$1 trace=$2 spec=$3; shift 3
  local id=${spec%%:*} params=""
  [[ "$spec" == *:* ]] && params=${spec#*:}
  local args=(run "$trace" --policy "$id" --json -q)
  if [ -n "$params" ]; then
    IFS=',' read -ra kv <<<"$params"
    for p in "${kv[@]}"; do args+=(--param "$p"); done
  fi
  "$BIN" "${args[@]}" "$@" >"$OUT/$name.json"
}

# 1. Slack-based priority backfilling on KTH (100 processors per the
#    header, 128 as the slack paper says), AWT = 2401 s as in the paper and
#    the default (CBF-calibrated) AWT.
KTH="$TRACES/KTH-SP2-1996-2.1-cln.swf.gz"
for P in 100 128; do
  run_json "kth$P-cbf" "$KTH" cbf --procs "$P"
  run_json "kth$P-easy" "$KTH" easy --procs "$P"
  for sf in 1 3 5 7 9 11; do
    run_json "kth$P-slack-sf$sf" "$KTH" "slack:sf=$sf,awt=2401" --procs "$P"
    run_json "kth$P-slack-sf$sf-cal" "$KTH" "slack:sf=$sf" --procs "$P"
  done
  for h in ast aat dc du dp; do
    run_json "kth$P-slack-$h-equal" "$KTH" "slack:heuristic=$h,awt=2401" --procs "$P"
    run_json "kth$P-slack-$h-kth" "$KTH" "slack:heuristic=$h,awt=2401,scenario=every-kth,k=5,high=1" --procs "$P"
  done
done

# 2. Selective reservation vs EASY and CBF, normal and high load (load
#    factor 1.3), with the fair-slowdown table.
SELECTIVE=(cbf easy "easy:order=shortest" selective "selective:variant=sel-d")
for f in "$TRACES"/*.swf.gz; do
  base=$(basename "$f" .swf.gz)
  for load in 1 1.3; do
    for spec in "${SELECTIVE[@]}"; do
      tag=$(echo "$spec" | tr ':=,' '___')
      # shellcheck disable=SC2046
      run_json "sel-$base-$load-$tag" "$f" "$(with_fs "$spec")" $(procs "$base") $(narrow "$base") --load-factor "$load"
    done
  done
done

# 3. DBF at 20, 40, 60, 80 % deadline-driven jobs, beside CBF and EASY, in one
#    comparison per trace: its --regular-comparison gives the means over the
#    jobs regular under each DBF run (figure 2).
for f in "$TRACES"/*.swf.gz; do
  base=$(basename "$f" .swf.gz)
  # shellcheck disable=SC2046
  "$BIN" compare "$f" --policy cbf --policy easy --policy dbf:fraction=0.2 --policy dbf:fraction=0.4 \
    --policy dbf:fraction=0.6 --policy dbf:fraction=0.8 --regular-comparison --json -q $(procs "$base") >"$OUT/dbf-$base.json"
done

python3 scripts/slack_selective_dbf_tables.py "$OUT" "$TRACES"
