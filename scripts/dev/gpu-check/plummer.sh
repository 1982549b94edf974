#!/usr/bin/env bash
# Stage plummer: the clustered case, whose near field sets the time, so smaller buckets and larger
# theta are tried: each tree parameter set on the Plummer sphere (device-built trees).
#
#   PLUMMER_N      the size (default 1000000)
#   PLUMMER_SWEEP  the sets, ";"-separated vortex-bench tree options

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
PLUMMER_N=${PLUMMER_N:-1000000}
PLUMMER_SWEEP=${PLUMMER_SWEEP:-"--order 8 --theta 0.5 --target-bucket 64 --source-bucket 256;--order 8 --theta 0.5 --target-bucket 32 --source-bucket 64;--order 9 --theta 0.6 --target-bucket 32 --source-bucket 64;--order 10 --theta 0.65 --target-bucket 32 --source-bucket 32;--order 9 --theta 0.6 --target-bucket 64 --source-bucket 128"}

i=0
IFS=';' read -ra sets <<<"$PLUMMER_SWEEP"
for args in "${sets[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  bench "plummer_set$i" --case plummer --n "$PLUMMER_N" --runs cuda-tree-float --repeat 5 \
    --sample 1000 $args
  note "plummer set $i: $args"
done
