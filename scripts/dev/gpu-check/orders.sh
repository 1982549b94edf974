#!/usr/bin/env bash
# Stage orders: per-box expansion orders against every far box at the same order, alternated over
# two rounds, on the cube of each size and on the Plummer sphere.
#
#   SIZES_TREE  the cube's sizes (default "500000 1000000 10000000")
#   PLUMMER_N   the Plummer sphere's size (default 1000000)

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
SIZES_TREE=${SIZES_TREE:-"500000 1000000 10000000"}
PLUMMER_N=${PLUMMER_N:-1000000}

for n in $SIZES_TREE plummer; do
  if [ "$n" = plummer ]; then
    case_args="--case plummer --n $PLUMMER_N"
    repeat=7
  else
    case_args="--case cube --n $n"
    repeat=$(repeats "$n" 7 3)
  fi
  common="$case_args --repeat $repeat $TREE_ARGS"
  run_alternated orders 2 "${n}_box|$common;${n}_uniform|$common --uniform-order"
done
