#!/usr/bin/env bash
# Stage discoid: the paper's discoid (scripts/discoid.sh, data/discoid.json) in time slots: each
# call runs until about DISCOID_SLOT seconds have passed (vortex-body --stop-after, with a
# checkpoint) in $BUILD/discoid-run, which a warm machine keeps, so that the same command run again
# continues. Once all 185 steps are done and the slot has time left, the last step's velocity
# evaluation on the GPU and the CPU (--bench-last) and its diffusion sub-step by phase (with the
# other commit's vortex-body too where stage build made one). The CSV, the projection grids and the
# benchmarks come back in $OUT.
#
#   DISCOID_SLOT            the slot's seconds (default 480)
#   DISCOID_BENCH_VELOCITY  0: the last step's diffusion sub-step alone (default 1)

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
DISCOID_SLOT=${DISCOID_SLOT:-480}

run=$BUILD/discoid-run
start=$SECONDS
scripts/discoid.sh --build "$BUILD" --out "$run" -- --no-plot \
  --stop-after "$DISCOID_SLOT" >"$OUT/discoid.log" 2>&1
note "discoid: rc=$? in $((SECONDS - start)) s: $(grep -E '^(step|stopped)' "$OUT/discoid.log" | tail -1)"
last=$(find "$run" -maxdepth 1 -name "checkpoint-*.bin" 2>/dev/null | sort | tail -1)
if [[ $last == *checkpoint-000185.bin ]] && ((SECONDS - start < DISCOID_SLOT)); then
  if [[ ${DISCOID_BENCH_VELOCITY:-1} == 1 ]]; then
    scripts/discoid.sh --build "$BUILD" --out "$run" --bench-last >"$OUT/discoid-bench.log" 2>&1
    note "discoid last-step benchmarks: rc=$? in $((SECONDS - start)) s"
    grep -hE "^(velocity evaluation|errors)" "$run"/bench-velocity-*.txt | tee -a "$SUMMARY"
  fi
  # The last step's diffusion sub-step by phase (the first repeat warms up).
  bench_sub_step "$BUILD" "$last" discoid-bench-diffusion
  if has_base_body; then
    # The same sub-step with the other commit's build, then this build's again, so that its runs
    # bracket the base's.
    bench_sub_step build-base "$last" discoid-bench-diffusion-base
    bench_sub_step "$BUILD" "$last" discoid-bench-diffusion-again
  fi
fi
cp "$run/diagnostics.csv" "$OUT/discoid.csv" 2>/dev/null
(cd "$run" && tar czf "$OUT/discoid-projections.tgz" projection-*.dat bench-velocity-*.txt \
  2>/dev/null)
