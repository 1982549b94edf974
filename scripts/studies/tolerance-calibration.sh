#!/usr/bin/env bash
# Measures the data the tolerance's error and cost models are fitted to (libvortex/evaluator/src/
# solver/tolerance.cpp): the treecode on the cube, Plummer and thin-sheet cases at several N, for a grid
# of p and theta, double, kappa 2.67 (the core's deviation from the singular kernel then stays
# below 1e-7), the buckets the tolerance picks for each p, errors at 2000 sampled targets.
# Prints "case n p theta u_err du_err total near far layout" lines, layout the statistic of
# layout_statistic() (vortex-bench prints it); refit them with scripts/studies/fit-tolerance-model.py.
# Usage: scripts/studies/tolerance-calibration.sh [VORTEX_BENCH] [N...] > FILE
# Environment: ORDERS, THETAS (comma lists), CASES (space list), THREADS.
set -euo pipefail
bench=${1:-build/vortex-bench}
shift || true
sizes=${*:-20000 100000 300000}
orders=${ORDERS:-4,6,8,10,12}
thetas=${THETAS:-0.4,0.5,0.6}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for n in $sizes; do
  for c in ${CASES:-cube plummer sheet}; do
    "$bench" --sweep order-theta --case "$c" --sweep-n "$n" --orders "$orders" --thetas "$thetas" \
      --sweep-run cpu-tree-double --sweep-repeat 1 --sample 2000 --tolerance 2e-4 --kappa 2.67 \
      --threads "${THREADS:-2}" --out "$out/$c-$n" > "$out/$c-$n.log"
    layout=$(grep -o 'layout contrast [0-9.e+-]*' "$out/$c-$n.log" | head -1 | cut -d" " -f3 || true)
    # CSV columns: order 3, theta 4, total 8, near 13, far 14, u 18, du 19.
    tail -n +2 "$out/$c-$n/sweep-order-theta.csv" |
      awk -F, -v c="$c" -v n="$n" -v l="${layout:-0}" \
        '{print c, n, $3, $4, $18, $19, $8, $13, $14, l}'
  done
done
