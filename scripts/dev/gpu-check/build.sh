#!/usr/bin/env bash
# Stage build: configures BUILD with CUDA for sm_90 (native host code, no VTK) and builds it; with
# BASE_SRC, also the other commit's source (a tarball that unpacks to base/) in build-base.
#
#   JOBS           parallel build jobs (default 16)
#   BUILD_TARGETS  targets to build (default all; e.g. "vortex-bench test_gpu_direct")
#   BASE_SRC       source tarball of another commit, for stages vrm, discoid, profile and compare
#   BASE_TARGETS   what to build of it (default "vortex-eval vortex-bench"; vortex-body for the
#                  sub-step stages)
# Exits with the build's status when it fails, its errors on the terminal.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
JOBS=${JOBS:-16}
BUILD_TARGETS=${BUILD_TARGETS:-all}
BASE_SRC=${BASE_SRC:-}

start=$SECONDS
# shellcheck disable=SC2086
{
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DVORTEX_WITH_VTK=OFF -DVORTEX_CUDA=ON -DVORTEX_NATIVE=ON &&
    cmake --build "$BUILD" -j"$JOBS" --target $BUILD_TARGETS
} >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc in $((SECONDS - start)) s"
if [ $rc -ne 0 ]; then
  grep -E "error|Error" "$OUT/build.log" | head -40
  exit $rc
fi

if [ -n "$BASE_SRC" ]; then
  start=$SECONDS
  rm -rf base && tar xzf "$BASE_SRC"
  # shellcheck disable=SC2086
  {
    cmake -S base -B build-base -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DVORTEX_WITH_VTK=OFF -DVORTEX_CUDA=ON -DVORTEX_BUILD_TESTS=OFF -DVORTEX_NATIVE=ON &&
      cmake --build build-base -j"$JOBS" --target ${BASE_TARGETS:-vortex-eval vortex-bench}
  } >"$OUT/build-base.log" 2>&1
  note "base build: rc=$? in $((SECONDS - start)) s"
fi
