#!/usr/bin/env bash
# Writes TRACE's header and then its jobs COPIES times, each copy shifted
# 100 s past the last submit of the one before and renumbered from 1, up to
# LIMIT jobs: the large inputs of BENCHMARKS.md ("10 million jobs").
#   bash scripts/repeat-trace.sh HPC2N-2002-2.2-cln.swf.gz 50 10000000 > ten_m.swf
set -euo pipefail
trace=$1 copies=$2 limit=$3
zcat -f "$trace" | awk -v copies="$copies" -v limit="$limit" '
  /^;/ { if (!jobs) print; next }
  NF == 18 { job[++jobs] = $0; if (!jobs_first || $2 < first) first = $2; if ($2 > last) last = $2; jobs_first = 1 }
  END {
    span = last - first + 100; id = 0
    for (c = 0; c < copies; c++)
      for (k = 1; k <= jobs; k++) {
        if (++id > limit) exit
        split(job[k], f, " "); f[1] = id; f[2] = sprintf("%.0f", f[2] + c * span)
        line = f[1]; for (m = 2; m <= 18; m++) line = line " " f[m]; print line
      }
  }'
