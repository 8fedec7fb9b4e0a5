#!/usr/bin/env bash
# Refreshes docs/screenshots/: builds the page and runs the browser tests
# with their screenshots written there (the tests otherwise write to
# target/screenshots/, outside the tracked tree). Review the images before
# committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-web.sh
cargo build -q --release -p schedlab-cli
(cd www && npm run build)
SCHEDLAB_SHOTS="$PWD/docs/screenshots" node --test --test-concurrency=1 tests/browser/
echo "screenshots: docs/screenshots/ ($(ls docs/screenshots | wc -l) files); git status docs/screenshots shows what changed"
