#!/usr/bin/env bash
# One-time set-up of the browser tests: the system Chromium (Debian's
# package, never a downloaded browser), installed with apt-get when missing.
# Called by scripts/test-browser.sh and by the set-up phase of scripts/test.sh.
set -euo pipefail
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "== installing chromium (Debian package)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi
