#!/usr/bin/env bash
# Stage compare: the other commit's build (build-base, from stage build's BASE_SRC) and this one
# compared side by side by scripts/dev/compare-builds.sh, on the CPU and CUDA backends at 100000
# points; its report to the summary.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

start=$SECONDS
PYTHON=python3 bash scripts/dev/compare-builds.sh build-base "$BUILD" "$OUT/compare" "cpu cuda" "100000" \
  >"$OUT/compare.log" 2>&1
note "compare: rc=$? in $((SECONDS - start)) s"
tee -a "$SUMMARY" <"$OUT/compare/compare.txt"
