#!/usr/bin/env bash
# Stage bench: the solver's CUDA direct sum in float and in double, and its treecode on the cube of
# each size with TREE_ARGS.
#
#   DIRECT_N    the direct sum's size in float (default 1000000; 200000 in double)
#   SIZES_TREE  the treecode's sizes (default "500000 1000000 10000000")

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
DIRECT_N=${DIRECT_N:-1000000}
SIZES_TREE=${SIZES_TREE:-"500000 1000000 10000000"}

bench direct_float --case cube --n "$DIRECT_N" --runs cuda-direct-float --repeat 3 --sample 1000
bench direct_double --case cube --n 200000 --runs cuda-direct-double --repeat 3 --sample 1000
for n in $SIZES_TREE; do
  # shellcheck disable=SC2086
  bench "tree_$n" --case cube --n "$n" --runs cuda-tree-float --repeat "$(repeats "$n" 5 3)" \
    --sample 1000 $TREE_ARGS
done
