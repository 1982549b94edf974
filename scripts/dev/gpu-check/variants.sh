#!/usr/bin/env bash
# Stage variants: any set of vortex-bench runs, alternated over rounds (files
# bench_variant_<label>_<round>.json).
#
#   VARIANTS        "label|args;label|args;..." with each run's arguments (case, size, tree options)
#   VARIANT_ROUNDS  the rounds (default 2)

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

run_alternated variant "${VARIANT_ROUNDS:-2}" "${VARIANTS:?VARIANTS lists the runs}"
