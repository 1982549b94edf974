# shellcheck shell=bash
# Sourced by scripts/dev/gpu-check.sh and by each of its stages (scripts/dev/gpu-check/*.sh): the
# repository root as the working folder, the variables the stages share, and their helpers.
#
#   OUT        where logs, JSON files and summary.txt go (default ./gpu-check-out)
#   BUILD      the CUDA build folder (default build-gpu-check)
#   TREE_ARGS  vortex-bench's tree options for the timed treecode runs; empty: the library's
#              defaults for the backend (stage sweep replaces it for the stages after it)

set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 1
OUT=${OUT:-$PWD/gpu-check-out}
BUILD=${BUILD:-build-gpu-check}
TREE_ARGS=${TREE_ARGS:-""}
export OUT BUILD TREE_ARGS
SUMMARY="$OUT/summary.txt"
mkdir -p "$OUT"

# A line to the terminal and to the summary.
note() { echo "$*" | tee -a "$SUMMARY"; }

# One vortex-bench run: bench LABEL ARGS...; its JSON in $OUT/bench_LABEL.json, its log appended to
# $OUT/bench.log.
bench() {
  local label=$1
  shift
  local start=$SECONDS
  VORTEX_CUDA_VERBOSE=1 "$BUILD/vortex-bench" "$@" --json "$OUT/bench_$label.json" >"$OUT/bench_$label.log" 2>&1
  local rc=$?
  echo "== $label (rc=$rc, $((SECONDS - start)) s): vortex-bench $*" >>"$OUT/bench.log"
  cat "$OUT/bench_$label.log" >>"$OUT/bench.log"
  rm -f "$OUT/bench_$label.log"
}

# The repeats of a timed treecode run on the cube of N points: FEW from 5 million points on, MANY
# below: repeats N MANY FEW.
repeats() { if [ "$1" -ge 5000000 ]; then echo "$3"; else echo "$2"; fi; }

# Runs alternated over rounds: prefix, rounds, "label|args;label|args;..." with the vortex-bench
# arguments of each run (case, size, tree options); files bench_<prefix>_<label>_<round>.json.
run_alternated() {
  local prefix=$1 rounds=$2 runs v round
  IFS=';' read -ra runs <<<"$3"
  for round in $(seq 1 "$rounds"); do
    for v in "${runs[@]}"; do
      # shellcheck disable=SC2086
      bench "${prefix}_${v%%|*}_$round" --runs cuda-tree-float --sample 1000 ${v#*|}
    done
  done
}

# One diffusion sub-step of the discoid's CHECKPOINT timed (3 repeats, the first warms up) by
# BUILD_DIR's vortex-body with the further arguments, logged to $OUT/NAME.log, its phases to the
# summary: bench_sub_step BUILD_DIR CHECKPOINT NAME [ARGS...]
bench_sub_step() {
  local build=$1 checkpoint=$2 name=$3
  shift 3
  local start=$SECONDS
  "$build/vortex-body" --case data/discoid.json --restart "$checkpoint" --bench-diffusion 3 \
    -o "$(dirname "$checkpoint")/$name" "$@" >"$OUT/$name.log" 2>&1
  note "$name ($build): rc=$? in $((SECONDS - start)) s"
  grep -E "^repeat|VRM phases|of them:|by kernel|diffusion sub-step|residual" "$OUT/$name.log" |
    tee -a "$SUMMARY"
}

# Whether the other commit's build (stage build with BASE_SRC and BASE_TARGETS=vortex-body) has
# vortex-body: then the sub-step stages time it too, bracketed by this build's runs.
has_base_body() { [ -x build-base/vortex-body ]; }
