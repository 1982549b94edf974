#!/usr/bin/env bash
# Stage vrm: the paper's discoid to step VRM_STEPS on the GPU (its VRM's first round on the GPU),
# then one diffusion sub-step of that step's particles timed (3 repeats) with the VRM's first round
# on the GPU and on the host's cores, side by side, with the digest of each result; with the other
# commit's vortex-body (stage build's BASE_SRC, BASE_TARGETS=vortex-body), its sub-step too.
#
#   VRM_STEPS     the steps (default 30)
#   VRM_BACKENDS  the first round's backends timed (default "cuda cpu")
#   VRM_PROFILE   1: Nsight Compute's view of the VRM's device kernels in one sub-step

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
VRM_STEPS=${VRM_STEPS:-30}

work=$BUILD/vrm-discoid
rm -rf "$work"
start=$SECONDS
"$BUILD/vortex-body" --case data/discoid.json --steps "$VRM_STEPS" --every 0 \
  --projections 0 --checkpoint-every "$VRM_STEPS" --no-plot --progress 60 --backend cuda \
  -o "$work" >"$OUT/vrm-discoid.log" 2>&1
note "discoid $VRM_STEPS steps: rc=$? in $((SECONDS - start)) s"
cp "$work/diagnostics.csv" "$OUT/vrm-discoid.csv" 2>/dev/null
checkpoint=$(find "$work" -maxdepth 1 -name "checkpoint-*.bin" 2>/dev/null | sort | tail -1)
for vb in ${VRM_BACKENDS:-cuda cpu}; do
  bench_sub_step "$BUILD" "$checkpoint" "vrm-bench-$vb" --backend cuda --vrm-backend "$vb"
done
if [[ ${VRM_PROFILE:-0} == 1 ]]; then
  # Nsight Compute's view of the VRM's device kernels in one sub-step (each kernel's first
  # launch): throughput, occupancy, memory and warp stalls.
  start=$SECONDS
  ncu --kernel-name regex:"vrm_(list|round|resume|fallback|handover)_kernel" --launch-count 3 --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    --section SourceCounters \
    "$BUILD/vortex-body" --case data/discoid.json --restart "$checkpoint" --bench-diffusion 1 \
    --backend cuda --vrm-backend cuda -o "$work/profile" >"$OUT/vrm-ncu.txt" 2>&1
  note "VRM kernels under ncu: rc=$? in $((SECONDS - start)) s"
fi
if has_base_body; then
  # The same sub-step with the other commit's build, then this build's again, so that its runs
  # bracket the base's.
  bench_sub_step build-base "$checkpoint" vrm-bench-base --backend cuda --vrm-backend cuda
  bench_sub_step "$BUILD" "$checkpoint" vrm-bench-again --backend cuda --vrm-backend cuda
fi
