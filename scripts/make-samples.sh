#!/bin/sh
# Regenerates the bundled sample traces (samples/) and the test fixtures
# derived from them (tests/fixtures/*.gz) from the shared PWA traces.
# Usage: scripts/make-samples.sh [path/to/KTH-SP2-1996-2.1-cln.swf.gz]
# Deterministic: the same input gives the same bytes (gzip -n drops name and time).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=${1:-"$ROOT/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"}
OUT="$ROOT/samples/kth-sp2-first3000.swf"
N=3000

{
  echo "; Source: first $N jobs of KTH-SP2-1996-2.1-cln.swf (Parallel Workloads Archive, Feitelson, Tsafrir and Krakov, JPDC 2014), header reduced to its numeric fields by the Schedlab authors"
  echo "; Version: 2.2"
  # Header lines (before the first job line) whose value is a plain integer;
  # MaxJobs and MaxRecords are set to the number of jobs kept.
  gzip -dc "$SRC" | awk -v n="$N" '
    /^;/ {
      line = $0; sub(/^;[ \t]*/, "", line)
      if (index(line, ":") == 0) next
      key = line; sub(/:.*/, "", key)
      val = line; sub(/^[^:]*:[ \t]*/, "", val); sub(/[ \t\r]+$/, "", val)
      if (key !~ /^[A-Za-z][A-Za-z0-9_]*$/ || val !~ /^-?[0-9]+$/) next
      if (key == "MaxJobs" || key == "MaxRecords") val = n
      print "; " key ": " val
      next
    }
    { exit }'
  # The first N job lines, unchanged.
  gzip -dc "$SRC" | awk -v n="$N" '!/^;/ && NF > 0 { print; if (++k == n) exit }'
} > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"

gzip -n -9 -c "$OUT" > "$ROOT/tests/fixtures/kth-sp2-first3000.swf.gz"

EXPECTED=ebb7dc7da59da0f41d7a64c9aebdb46ed6207a3adf6f6fb326d37000264a47b4
GOT=$(sha256sum "$OUT" | cut -d' ' -f1)
echo "$GOT  samples/kth-sp2-first3000.swf"
if [ "$GOT" != "$EXPECTED" ]; then
  echo "SHA-256 differs from samples/README.md ($EXPECTED)" >&2
  exit 1
fi
