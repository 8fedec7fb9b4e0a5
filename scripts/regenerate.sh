#!/usr/bin/env bash
# Regenerates every generated file that is committed: the page's TypeScript
# types (www/src/generated/types.ts, from the binding's exports and the
# core's types through ts-rs) and the metrics glossary (docs/metrics.md,
# from the column catalogue). The test command runs it and fails if it
# changed anything (scripts/test.sh, "generated files are current").
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEDLAB_BLESS=1 cargo test -q --release --workspace -- \
  generated_types_are_current the_glossary_page_is_generated_from_the_catalogue
