#!/bin/sh
# Fuzzes the core with cargo-fuzz for N seconds per target, printing a short
# summary per target (libFuzzer's full log goes to fuzz/artifacts/TARGET.log).
# Usage: scripts/fuzz.sh [SECONDS=60] [TARGET=all]
#
# Targets (fuzz/fuzz_targets/):
#   swf_reader  any bytes through the SWF reader (plain and compressed)
#   whole_run   small traces made from the bytes, run under every policy
#               and predictor with the run checker on
#   share_link  any text through the share-link decoder
#   merge_reader any bytes through the shard-file reader of `merge`
#   priority_formula any text through the priority-formula compiler
#   batsim_reader any bytes after a `{` through the Batsim reader, with a
#               job limit from the first byte; messages stay short
#   link_budget experiments and links of any size the bytes choose: an
#               accepted plan stays within the budget on simulations
#   machine     any text as a slurm.conf, a --nodes description and a host
#               list; small machines replay a Slurm dump, checker on
#   all         each of the above in turn, SECONDS each
#
# FUZZ_JOBS=N runs N targets at a time (default 1), each on one core: the
# targets are built first, in one cargo invocation, and then each runs its
# SECONDS alone, so N = the number of cores divides the wall time by N
# without shortening any target's run.
#
# The CI smoke run is `scripts/fuzz.sh 30` (scripts/test.sh). A longer
# campaign, e.g. an hour per target with AddressSanitizer:
#   FUZZ_ASAN=1 scripts/fuzz.sh 3600 all
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`, about 1.5 min to build) and a
# C++ compiler (libfuzzer-sys builds libFuzzer). Runs on the stable toolchain
# with no sanitizer (`-s none`): the crates have no `unsafe`, and the targets'
# assertions plus overflow checks (`--debug-assertions`) catch the bugs that
# matter. FUZZ_ASAN=1 adds AddressSanitizer, which needs `-Z` flags: it uses
# the nightly toolchain if rustup has one, else RUSTC_BOOTSTRAP=1.
# Crashes land in fuzz/artifacts/TARGET/; the corpus in fuzz/corpus/TARGET/
# (both ignored by git). Exit status is non-zero if a crash was found.
set -eu
SECONDS_TO_RUN=${1:-60}
TARGET=${2:-all}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT/fuzz"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz is not installed: run 'cargo install cargo-fuzz'" >&2
  exit 2
fi

SANITIZER="none"
TOOLCHAIN=""
if [ "${FUZZ_ASAN:-0}" = 1 ]; then
  SANITIZER="address"
  if rustup run nightly rustc --version >/dev/null 2>&1; then
    TOOLCHAIN="+nightly"
  else
    export RUSTC_BOOTSTRAP=1
  fi
fi

# Seeds. The reader and the whole-run target: the small malformed fixtures,
# the first 40 lines of the sample plain and gzip, and the compressed
# fixtures (small inputs fuzz faster; the corpus grows from there). The
# share-link decoder: a v1 link of the first page and a v2 link. The merge
# reader: a small shard file. The formula compiler: two presets (WFP3, F1)
# and a formula with every kind of operator. The Batsim reader: the two
# Batsim fixtures. The link budget: five choice bytes, alone and before a
# v2 link.
seed_corpus() {
  corpus="corpus/$1"
  mkdir -p "$corpus"
  case "$1" in
    share_link)
      printf '%s' 'eyJ0IjpbInMiLCJrdGgtc3AyLWZpcnN0MzAwMCJdLCJwIjpbWyJlYXN5Iix7fSwiZXN0aW1hdGUiXV0sInIiOjIsInMiOjV9' > "$corpus/v1"
      printf '%s' 'v2=eyJleHBlcmltZW50Ijp7InJ1bnMiOlt7InBvbGljeSI6ImVhc3kiLCJwYXJhbXMiOnt9fV19fQ' > "$corpus/v2"
      ;;
    priority_formula)
      printf '%s' '-(wait / requested)^3 * procs' > "$corpus/wfp3"
      printf '%s' 'log10(if(requested > 0, requested, 0.1)) * procs + 870 * log10(if(submit > 0, submit, 0.1))' > "$corpus/f1"
      printf '%s' 'clamp(max(free, 1), 0, machine) / queued and not (user == 3 or queue != 2)' > "$corpus/mixed"
      ;;
    batsim_reader)
      cp "$ROOT"/tests/fixtures/batsim/workload-v4.json "$ROOT"/tests/fixtures/batsim/workload-v5.json "$corpus/"
      ;;
    link_budget)
      printf '%s' 'AAAAA' > "$corpus/small"
      printf 'c5\377\3773%s' 'eyJleHBlcmltZW50Ijp7InJ1bnMiOlt7InBvbGljeSI6ImVhc3kiLCJwYXJhbXMiOnt9fV19fQ' > "$corpus/big-v2"
      ;;
    machine)
      cp "$ROOT/tests/fixtures/slurm/cluster.conf" "$corpus/cluster.conf"
      printf '%s' 'batch:2x(cpu=8,mem=32G)+gpu:1x(cpu=16,mem=64G,gpu=4)' > "$corpus/spec"
      ;;
    merge_reader)
      printf '%s' '{"schema":"schedlab-experiment/2","experiment":{"runs":[{"policy":"easy","params":{}}],"repeat":2},"labels":["easy"],"trace":{},"points":[{"index":0,"run":0,"value":null,"seed":0,"events":1,"metrics":{"mbs":1.0}}],"summary":[]}' > "$corpus/shard.json"
      ;;
    *)
      for f in "$ROOT"/tests/fixtures/*.swf "$ROOT"/tests/fixtures/kth-head60.*; do
        cp "$f" "$corpus/"
      done
      head -n 40 "$ROOT/samples/kth-sp2-first3000.swf" > "$corpus/kth-head40.swf"
      gzip -n -c "$corpus/kth-head40.swf" > "$corpus/kth-head40.swf.gz"
      ;;
  esac
}

# One target: libFuzzer's log to a file, a few lines to the terminal.
fuzz_one() {
  target=$1
  seed_corpus "$target"
  mkdir -p artifacts
  log="artifacts/$target.log"
  echo "fuzz $target: ${SECONDS_TO_RUN} s (log: fuzz/$log)"
  status=0
  # shellcheck disable=SC2086
  cargo $TOOLCHAIN fuzz run -s "$SANITIZER" --debug-assertions "$target" "corpus/$target" -- \
    -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "fuzz $target: FAILED (exit $status); the end of the log:"
    tail -n 40 "$log"
    return "$status"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  corpus_size=$(find "corpus/$target" -type f | wc -l)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  echo "fuzz $target: ok, ${runs:-?} inputs (${speed:-?}/s), ${cov:-cov: ?} edges, corpus ${corpus_size} files, no crash"
}

case "$TARGET" in
  all) TARGETS="swf_reader whole_run share_link merge_reader priority_formula batsim_reader link_budget machine" ;;
  *) TARGETS="$TARGET" ;;
esac
# One build of every target first, so that targets running side by side do
# not each wait for the build.
# shellcheck disable=SC2086
cargo $TOOLCHAIN fuzz build -s "$SANITIZER" --debug-assertions

# Batches of FUZZ_JOBS targets; every target runs even when one fails, and
# the exit status is the last failure's.
JOBS=${FUZZ_JOBS:-1}
failed=0
set -- $TARGETS
while [ "$#" -gt 0 ]; do
  pids=""
  n=0
  while [ "$#" -gt 0 ] && [ "$n" -lt "$JOBS" ]; do
    fuzz_one "$1" &
    pids="$pids $!"
    n=$((n + 1))
    shift
  done
  for pid in $pids; do
    wait "$pid" || failed=$?
  done
done
exit "$failed"
