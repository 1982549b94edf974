#!/usr/bin/env bash
# Builds the test suite with AddressSanitizer and UndefinedBehaviorSanitizer in a build folder of
# its own (CPU only) and runs it: any invalid memory access, leak or undefined behaviour fails the
# test that caused it. Extra arguments go to ctest (e.g. -R vtp).
#   scripts/dev/sanitize.sh            # build-sanitize/, all tests
#   JOBS=2 scripts/dev/sanitize.sh -R malformed
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=${SANITIZE_BUILD_DIR:-build-sanitize}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# GCC's "undefined" group leaves out float-cast-overflow (a double out of an integer's range, or NaN,
# converted to it).
flags="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
flags+=" -fno-omit-frame-pointer"

mkdir -p "$dir"
cmake -S . -B "$dir" -DVORTEX_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$flags" >"$dir/configure.log" 2>&1 || {
  cat "$dir/configure.log" >&2
  exit 1
}
cmake --build "$dir" -j"$jobs"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Sanitized code runs several times slower than the release build the limits were set for.
ctest --test-dir "$dir" -j"$jobs" --timeout 1500 --output-on-failure "$@"
