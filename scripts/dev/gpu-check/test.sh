#!/usr/bin/env bash
# Stage test: every test of BUILD by ctest (8 at a time, 300 s each, TEST_THREADS OpenMP threads
# each), the failures and how many of the GPU suites passed, were skipped (no device) or failed, to
# the summary; the log in ctest.log.
#
#   TEST_REGEX    ctest -R filter (default: every test)
#   TEST_THREADS  OpenMP threads a test (default 2; idle threads asleep, OMP_WAIT_POLICY passive,
#                 as in CI, so that eight tests share the 16 cores). In a run of 2026-11-29 with
#                 OpenMP's defaults (16 spinning threads a test) five boundary-element tests took
#                 116-232 s each, against under 2 s each on the 2-core CI machine.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
TEST_REGEX=${TEST_REGEX:-}

start=$SECONDS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} OMP_NUM_THREADS=${TEST_THREADS:-2} \
  ctest --test-dir "$BUILD" -j8 --timeout 300 --output-on-failure ${TEST_REGEX:+-R "$TEST_REGEX"} \
  >"$OUT/ctest.log" 2>&1
rc=$?
note "ctest: rc=$rc in $((SECONDS - start)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"
grep -E "^\s*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)" "$OUT/ctest.log" | head -30 | tee -a "$SUMMARY"
# Whether the GPU suites really ran (they skip without a device).
gpu='Test +#[0-9]+: .*(Gpu|Device[A-Za-z]*\.|/cuda|cuda_).*'
note "  GPU tests: $(grep -cE "$gpu Passed" "$OUT/ctest.log") passed, $(grep -cE "$gpu\*?Skipped" "$OUT/ctest.log") skipped, $(grep -cE "$gpu(Failed|Exception|Timeout)" "$OUT/ctest.log") failed"
