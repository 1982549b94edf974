#!/usr/bin/env bash
# On the GPU machine: configure with CUDA for sm_90, build, run every test (GPU ones included), time
# the pair kernel and the solver's CUDA direct and tree paths, and print a short table last.
# Logs go to $OUT (default ./gpu-check-out): summary.txt, and the rest in logs.tgz.
#
#   bash scripts/dev/gpu-check.sh            the default stages
#   STAGES="build bench" bash scripts/dev/gpu-check.sh
#   SIZES_TREE="500000 1000000" TREE_ARGS="--order 7 --source-bucket 512" bash scripts/dev/gpu-check.sh
#
# Each stage is a script of scripts/dev/gpu-check/, named after it, whose header lists the variables
# it reads; common.sh holds what they share (OUT, BUILD, TREE_ARGS and the helpers). STAGES picks
# them (default "build test timing sass sweep bench"); they run in this order, whatever the order
# in STAGES:
#
#   build     configure and build BUILD (JOBS, BUILD_TARGETS); with BASE_SRC, build-base too
#   test      ctest (TEST_REGEX), and whether the GPU suites ran
#   timing    the pair kernel's timings
#   sass      registers and instruction mix of the near- and far-field kernels
#   sweep     tree parameter sets at SWEEP_N; the fastest within ERROR_TARGET becomes TREE_ARGS
#   trees     device- against host-built trees (SIZES_TREE, TREE_HOST_MAX)
#   orders    per-box expansion orders against uniform ones
#   variants  any runs alternated (VARIANTS, VARIANT_ROUNDS)
#   plummer   tree parameter sets on the Plummer sphere (PLUMMER_N, PLUMMER_SWEEP)
#   bench     CUDA direct sum and treecode (DIRECT_N, SIZES_TREE)
#   body      flow past a sphere on the GPU and the CPU (BODY_STEPS)
#   vrm       the discoid to VRM_STEPS, then a diffusion sub-step timed by VRM backend
#   discoid   the paper's discoid in slots of DISCOID_SLOT seconds, then its last step timed
#   sphere    the sphere to a steady state (SPHERE_CASES, SPHERE_RE, SPHERE_SLOT)
#   profile   kernel times by kernel under Nsight Compute, and the host's phases
#   compare   build-base against BUILD (scripts/dev/compare-builds.sh)
#
# After bench, trees, orders, variants or plummer, table.sh puts every timed run in table.txt,
# printed last. A failed build stops the check; any other stage's failure is in its log and the
# summary. A stage can also run on its own: bash scripts/dev/gpu-check/vrm.sh.

set -uo pipefail
stages=$(cd "$(dirname "$0")/gpu-check" && pwd)
# shellcheck source-path=SCRIPTDIR source=gpu-check/common.sh
source "$stages/common.sh"
STAGES=${STAGES:-"build test timing sass sweep bench"}
has() { [[ " $STAGES " == *" $1 "* ]]; }

: >"$SUMMARY"
note "gpu-check $(date -u +%Y-%m-%dT%H:%MZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +changes)"
note "$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null)"
note "$(nproc) CPU cores; $(nvcc --version | tail -1)"

for stage in build test timing sass sweep trees orders variants plummer bench table body vrm discoid \
  sphere profile compare; do
  if [ $stage = table ]; then
    has bench || has trees || has plummer || has orders || has variants || continue
  else
    has $stage || continue
  fi
  bash "$stages/$stage.sh"
  rc=$?
  if [ $stage = build ] && [ $rc -ne 0 ]; then exit $rc; fi
  if [ $stage = sweep ] && [ -f "$OUT/sweep.tree-args" ]; then
    TREE_ARGS=$(<"$OUT/sweep.tree-args")
    export TREE_ARGS
  fi
done

note ""
[ -f "$OUT/table.txt" ] && tee -a "$SUMMARY" <"$OUT/table.txt"
# At most a few files come back from the machine: everything but the summary in one archive.
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt ./* && find . -maxdepth 1 -type f ! -name logs.tgz ! -name summary.txt -delete)
