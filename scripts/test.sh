#!/usr/bin/env bash
# Set-up (as scripts/setup.sh) followed by the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
jobs=$(nproc 2>/dev/null || echo 2)
# Tests run side by side, each on every core: threads that wait at a barrier sleep rather than
# spin, so that they leave the cores to the other tests (on the 2-core VM the suite took 159 and
# 162 s against 287 and 226 s, docs/journal/2026-11-29-omp-wait-policy.md).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
ctest --test-dir build --output-on-failure -j"$jobs"
