#!/bin/sh
# Fuzzes one target of fuzz/fuzz_targets/ (swf_reader, share_link,
# merge_reader) for N seconds.
# Usage: scripts/fuzz.sh [SECONDS=60] [TARGET=swf_reader]
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`, about 1.5 min to build) and a
# C++ compiler (libfuzzer-sys builds libFuzzer). Runs on the stable toolchain
# with no sanitizer (`-s none`): the crate has no `unsafe`, and the target's
# assertions plus overflow checks (`--debug-assertions`) catch the bugs that
# matter. FUZZ_ASAN=1 adds AddressSanitizer, which needs `-Z` flags: it uses
# the nightly toolchain if rustup has one, else RUSTC_BOOTSTRAP=1.
# Crashes land in fuzz/artifacts/TARGET/; the corpus in fuzz/corpus/TARGET/
# (both ignored by git). Exit status is non-zero if a crash was found.
set -eu
SECONDS_TO_RUN=${1:-60}
TARGET=${2:-swf_reader}
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

# Seeds: the small malformed fixtures and the first 40 lines of the sample,
# plain and gzip (small inputs fuzz faster; the corpus grows from there).
CORPUS="corpus/$TARGET"
mkdir -p "$CORPUS"
case "$TARGET" in
  swf_reader)
    for f in "$ROOT"/tests/fixtures/*.swf; do
      cp "$f" "$CORPUS/"
    done
    head -n 40 "$ROOT/samples/kth-sp2-first3000.swf" > "$CORPUS/kth-head40.swf"
    gzip -n -c "$CORPUS/kth-head40.swf" > "$CORPUS/kth-head40.swf.gz"
    ;;
  share_link)
    # A v1 link of the first page and a v2 link (fragment data only).
    printf '%s' 'eyJ0IjpbInMiLCJrdGgtc3AyLWZpcnN0MzAwMCJdLCJwIjpbWyJlYXN5Iix7fSwiZXN0aW1hdGUiXV0sInIiOjIsInMiOjV9' > "$CORPUS/v1"
    printf '%s' 'v2=eyJleHBlcmltZW50Ijp7InJ1bnMiOlt7InBvbGljeSI6ImVhc3kiLCJwYXJhbXMiOnt9fV19fQ' > "$CORPUS/v2"
    ;;
  merge_reader)
    printf '%s' '{"schema":"schedlab-experiment/2","experiment":{"runs":[{"policy":"easy","params":{}}],"repeat":2},"labels":["easy"],"trace":{},"points":[{"index":0,"run":0,"value":null,"seed":0,"events":1,"metrics":{"mbs":1.0}}],"summary":[]}' > "$CORPUS/shard.json"
    ;;
esac

# shellcheck disable=SC2086
exec cargo $TOOLCHAIN fuzz run -s "$SANITIZER" --debug-assertions "$TARGET" "$CORPUS" -- \
  -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=2048
