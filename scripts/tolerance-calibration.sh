#!/usr/bin/env bash
# Measures the data the tolerance's error and cost models are fitted to (libvortex/evaluator/src/
# tolerance.cpp): the treecode on the cube, Plummer and thin-sheet cases at N = 50,000 for
# p = 3..13 and theta = 0.3..0.7, double, one thread, buckets 32/32, kappa 2.41, errors at 1000
# sampled targets. Prints "case p theta u_err du_err total near far" lines; refit them with
# scripts/fit-tolerance-model.py. Usage: scripts/tolerance-calibration.sh [VORTEX_BENCH] > FILE
set -euo pipefail
bench=${1:-build/vortex-bench}
for c in cube plummer sheet; do
  for p in 3 5 7 9 11 13; do
    for t in 0.3 0.4 0.5 0.6 0.7; do
      row=$("$bench" --case "$c" --n 50000 --runs cpu-tree-double --sample 1000 --order "$p" \
        --theta "$t" --kappa 2.41 --target-bucket 32 --source-bucket 32 --threads 1 |
        grep '^cpu-tree-double ')
      echo "$c $p $t $(echo "$row" | awk '{print $14, $15, $5, $9, $10}')"
    done
  done
done
