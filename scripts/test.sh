#!/usr/bin/env bash
# Runs every test of Schedlab. Idempotent: the first phase installs what the
# tests need when it is missing (the wasm target, rustfmt, clippy,
# cargo-fuzz, wasm-bindgen-cli, Chromium, the npm packages) and reuses it
# otherwise, so its time is reported apart from the tests'.
#
# Full-trace tests and benchmarks read the directory in $SCHEDLAB_TRACES;
# when it is unset they are skipped with a note, so a fresh clone passes.
#
# Every step is a phase: a function, run by `phase` with a title, which
# times it. The table of durations is printed at the end, also when a phase
# fails. To add a step, write its function and add one `phase` line below.
#
# The phases share their builds: every cargo command builds in release mode
# with the features `cargo test --workspace` uses, so the native core is
# compiled once (plus clippy's check pass) and the wasm core once.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# The phases reuse the workspace test build (scripts/build-cli.sh).
export SCHEDLAB_SHARED_BUILD=1
# The tests build the release profile without link-time optimisation or
# debug information: each of the 21 test binaries, the wasm modules and the
# fuzz targets would otherwise link with thin LTO. Measured on these 2 cores,
# that halves the build's processor time (647 s to 309 s) and slows the
# longest test by 4 % (BENCHMARKS.md, "The test command"). The schedules do
# not depend on it: the identity digests pin them either way.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_DEBUG=0

# Titles and durations of the phases run so far, and the one running.
phase_titles=()
phase_seconds=()
running=""
run_start=$SECONDS

phase() {
  local title=$1
  shift
  printf '\n== %s\n' "$title"
  running=$title
  local start=$SECONDS
  "$@"
  phase_titles+=("$title")
  phase_seconds+=($((SECONDS - start)))
  running=""
}

print_phase_times() {
  local status=$?
  printf '\n== phase times\n'
  local i
  for i in "${!phase_titles[@]}"; do
    printf '%6d s  %s\n' "${phase_seconds[$i]}" "${phase_titles[$i]}"
  done
  if [ -n "$running" ]; then
    printf '%6s    %s (failed)\n' "-" "$running"
  fi
  printf '%6d s  total\n' $((SECONDS - run_start))
  rm -rf "$logs"
  exit "$status"
}
logs="$(mktemp -d)"
trap print_phase_times EXIT

set_up_tools() {
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz
  bash scripts/setup-wasm.sh
  bash scripts/setup-chromium.sh
  bash scripts/setup-web.sh
}

check_format() {
  cargo fmt --all -- --check
}

lint() {
  cargo clippy --workspace --all-targets --release -q -- -D warnings
}

build_core_for_wasm() {
  cargo build -q --release --target wasm32-unknown-unknown -p schedlab
}

native_tests() {
  if [ -n "${SCHEDLAB_TRACES:-}" ]; then
    echo "full-trace tests read $SCHEDLAB_TRACES"
  else
    echo "SCHEDLAB_TRACES is unset: full-trace tests are skipped"
  fi
  cargo test --workspace --release 2>&1 | tee "$logs/native"
}

# The generators run as part of the workspace's tests; here they rewrite
# their files, which must then be what the commit holds. The command selects
# the same targets as the native tests (no `--lib`): any other selection is
# another build of every library test, which cost 150 s here.
generated_files_are_current() {
  bash scripts/regenerate.sh >/dev/null
  git diff --exit-code -- www/src/generated docs/metrics.md \
    || { echo "regenerating the TypeScript types or docs/metrics.md changed them: commit the regenerated files" >&2; exit 1; }
}

evalys_reads_batsim_jobs() {
  bash scripts/test-evalys.sh
}

slurm_against_recorded_runs() {
  bash scripts/slurm/check-recorded.sh
}

fuzz_smoke() {
  FUZZ_JOBS="${FUZZ_JOBS:-$(nproc)}" bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}" all
}

python_package() {
  bash scripts/test-python.sh 2>&1 | tee "$logs/python"
}

wasm_tests() {
  bash scripts/test-wasm.sh 2>&1 | tee "$logs/wasm"
}

browser_tests() {
  bash scripts/test-browser.sh 2>&1 | tee "$logs/browser"
}

phase "one-time set-up (installs only what is missing)" set_up_tools
phase "format" check_format
phase "lints (clippy)" lint
phase "the core builds for WebAssembly (no I/O, no clock, no threads in it)" build_core_for_wasm
phase "unit, integration, property and command-line tests" native_tests
phase "evalys reads Batsim's jobs.csv (evalys and pytest from PyPI, in a venv under the target directory)" evalys_reads_batsim_jobs
phase "the slurm policy against real Slurm's recorded runs (docs/reproduction/slurm-runs)" slurm_against_recorded_runs
phase "generated TypeScript types and docs/metrics.md are current" generated_files_are_current
phase "fuzz smoke runs, ${FUZZ_SECONDS:-30} s per target" fuzz_smoke
phase "the Python package: built with maturin into a venv, tested with pytest" python_package
phase "WebAssembly: wasm-bindgen tests and native/wasm identity" wasm_tests
phase "the playground in a real browser" browser_tests

# One closing line for the whole run: every cargo test binary of the native
# suite, plus the closing "N passed, M failed" line of each other suite.
{
  awk '/^test result:/ { p += $4; f += $6 } END { print p, f }' "$logs/native"
  grep -E '^wasm tests: [0-9]+ passed, [0-9]+ failed$' "$logs/wasm" | tail -1 | awk '{ print $3, $5 }'
  grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/browser" | tail -1 | awk '{ print $1, $3 }'
  grep -E '^python: [0-9]+ passed, [0-9]+ failed$' "$logs/python" | tail -1 | awk '{ print $2, $4 }'
} | awk '{ p += $1; f += $2 } END { printf "tests: %d passed, %d failed\n", p, f }'
