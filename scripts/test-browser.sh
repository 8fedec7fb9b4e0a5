#!/usr/bin/env bash
# Browser tests of the playground: builds the page (wasm included) and runs
# tests/browser/ in the system Chromium (/usr/bin/chromium, installed with
# apt-get when missing; never a downloaded browser) through playwright-core.
# Idempotent. Prints a last line "N passed, M failed". Screenshots go to
# docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "== installing chromium (Debian package)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi

bash scripts/setup-web.sh

echo "== command line (the tests compare with its JSON)"
cargo build -q --release -p schedlab-cli

echo "== building the page"
(cd www && npm run build)

echo "== unit tests of the page (vitest)"
unit_log="$(mktemp)"; tap="$(mktemp)"
trap 'rm -f "$unit_log" "$tap"' EXIT
status=0
(cd www && NO_COLOR=1 npx vitest run 2>&1) | tee "$unit_log" || status=1

echo "== browser tests (chromium, playwright-core)"
node --test --test-concurrency=1 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" \
  tests/browser/ || status=1

tests_line="$(grep -E '^ *Tests ' "$unit_log" | tail -1 || true)"
up="$(grep -Eo '[0-9]+ passed' <<<"$tests_line" | grep -Eo '[0-9]+' || true)"
uf="$(grep -Eo '[0-9]+ failed' <<<"$tests_line" | grep -Eo '[0-9]+' || true)"
bp="$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$tap" | tail -1)"
bf="$(sed -n 's/^# fail \([0-9]*\)/\1/p' "$tap" | tail -1)"
echo "page unit tests: ${up:-0} passed, ${uf:-0} failed; browser tests: ${bp:-0} passed, ${bf:-0} failed"
echo "$(( ${up:-0} + ${bp:-0} )) passed, $(( ${uf:-0} + ${bf:-0} )) failed"
exit $status
