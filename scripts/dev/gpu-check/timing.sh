#!/usr/bin/env bash
# Stage timing: the pair kernel's timings (vortex-kernel-timing) in kernel_timing.log, its table's
# rows to the summary.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

"$BUILD/vortex-kernel-timing" 2>&1 | tee "$OUT/kernel_timing.log" |
  grep -E "^(pair|arithmetic|float|double)" | tee -a "$SUMMARY"
