#!/usr/bin/env bash
# The larger sweep of inputs that used to give NaN or wrong values (docs/methods/scale-free.md):
# two-scale clouds of 300,000 and 1e6 and a thin ellipsoidal sheet of 1e6 with the defaults,
# through vortex-bench and through the Python module (scripts/studies/large_clouds.py, which also runs
# every order 1 to 16 in float); then the input corpus test on larger clouds and every combination
# of cloud, core, scale (1e-90 to 1e90), order (1 to 16) and precision, on the CPU and, where a
# GPU is present, on CUDA. Expects a build
# in $BUILD (default build/) with the tests, the apps and the Python module. Results go to $OUT_DIR
# (default out/input-corpus); RUNS picks vortex-bench's runs (default auto).
#   scripts/studies/input-corpus.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
out=${OUT_DIR:-out/input-corpus}
mkdir -p "$out"
status=0
echo "== vortex-bench, the defaults"
for case in two-scale ellipsoid; do
  for n in 300000 1000000; do
    "$build/vortex-bench" --case "$case" --n "$n" --runs "${RUNS:-auto}" --sample 2000 \
      --json "$out/bench-$case-$n.json" \
      >"$out/bench-$case-$n.txt" 2>&1 || status=1
    grep -E "^(cpu|cuda)-" "$out/bench-$case-$n.txt" | sed "s/^/$case $n: /"
  done
done
echo "== Python module, the defaults and every order in float"
PYTHONPATH="$build/python" ${PYTHON:-python3} scripts/studies/large_clouds.py \
  --out "$out/large-clouds.json" || status=1
echo "== input corpus, full sweep"
VORTEX_CORPUS=full OMP_WAIT_POLICY=passive "$build/tests/test_input_corpus" >"$out/corpus.txt" 2>&1 ||
  status=1
grep -E "^\[ +(OK|FAILED|SKIPPED) +\]" "$out/corpus.txt" || true
exit $status
