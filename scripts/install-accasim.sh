#!/usr/bin/env bash
# Install the peer simulator AccaSim (PyPI `accasim`) used by
# scripts/accasim_easy.py for the benchmark comparison. Idempotent: does
# nothing when the expected version is already installed.
# Override the interpreter with PYTHON=..., the version with ACCASIM_VERSION=...
set -euo pipefail
PYTHON="${PYTHON:-python3}"
VERSION="${ACCASIM_VERSION:-1.1.3}"

installed="$("$PYTHON" -m pip show accasim 2>/dev/null | sed -n 's/^Version: //p' || true)"
if [ "$installed" = "$VERSION" ]; then
  echo "accasim $installed already installed"
  exit 0
fi
"$PYTHON" -m pip install --disable-pip-version-check "accasim==$VERSION"
echo "accasim $("$PYTHON" -m pip show accasim | sed -n 's/^Version: //p') installed"
