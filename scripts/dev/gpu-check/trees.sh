#!/usr/bin/env bash
# Stage trees: the treecode with its trees, lists and multipoles built on the device and on the
# host, side by side (alternated), on the cube of each size and on the clustered Plummer sphere of
# a million points.
#
#   SIZES_TREE     the cube's sizes (default "500000 1000000 10000000")
#   TREE_HOST_MAX  host-built trees up to this size only (default 10000000)

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
SIZES_TREE=${SIZES_TREE:-"500000 1000000 10000000"}
TREE_HOST_MAX=${TREE_HOST_MAX:-10000000}

for n in $SIZES_TREE; do
  builds="device host"
  [ "$n" -gt "$TREE_HOST_MAX" ] && builds=device
  for build in $builds; do
    # shellcheck disable=SC2086
    bench "tb_${n}_$build" --case cube --n "$n" --runs cuda-tree-float --repeat "$(repeats "$n" 7 3)" \
      --sample 1000 --tree-build $build $TREE_ARGS
  done
done
for build in device host; do
  # shellcheck disable=SC2086
  bench "tb_plummer_$build" --case plummer --n 1000000 --runs cuda-tree-float --repeat 7 \
    --sample 1000 --tree-build $build $TREE_ARGS
done
