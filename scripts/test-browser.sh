#!/usr/bin/env bash
# Browser tests of the playground: builds the page (wasm included) and runs
# tests/browser/ in the system Chromium (/usr/bin/chromium, installed with
# apt-get when missing; never a downloaded browser) through playwright-core.
# Idempotent. Prints a last line "N passed, M failed". Screenshots go to
# target/screenshots/ (docs/screenshots/ only through scripts/screenshots.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-chromium.sh

bash scripts/setup-web.sh

echo "== command line (the tests compare with its JSON)"
bash scripts/build-cli.sh

echo "== building the page"
(cd www && npm run build)

echo "== lint, format and unused code (Biome, knip)"
tap="$(mktemp)"
trap 'rm -f "$tap"' EXIT
status=0
lint=0
(cd www && npm run --silent lint) || { lint=1; status=1; }

echo "== browser tests (chromium, playwright-core)"
node --test --test-concurrency=1 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" \
  tests/browser/ || status=1

bp="$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$tap" | tail -1)"
bf="$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$tap" | tail -1)"
echo "lint (Biome, knip): $([ "$lint" = 0 ] && echo passed || echo failed); browser tests: ${bp:-0} passed, ${bf:-0} failed"
echo "$(( ${bp:-0} + 1 - lint )) passed, $(( ${bf:-0} + lint )) failed"
exit $status
