#!/usr/bin/env bash
# Stage sweep: tree parameter sets timed at N = SWEEP_N on the cube (device-built trees); the
# fastest whose mean velocity error is within ERROR_TARGET replaces TREE_ARGS for the stages after
# it (gpu-check.sh reads it from $OUT/sweep.tree-args). Each set's time and error to the summary.
#
#   SWEEP_N       the size (default 1000000)
#   ERROR_TARGET  the largest mean relative velocity error (default 2e-4)
#   SWEEP         the sets, ";"-separated vortex-bench tree options

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
SWEEP_N=${SWEEP_N:-1000000}
ERROR_TARGET=${ERROR_TARGET:-2e-4}
SWEEP=${SWEEP:-"--order 7 --theta 0.6 --source-bucket 512;--order 8 --theta 0.6 --source-bucket 512;--order 8 --theta 0.6 --source-bucket 256;--order 8 --theta 0.6 --source-bucket 128;--order 7 --theta 0.5 --source-bucket 256;--order 9 --theta 0.65 --source-bucket 256;--order 8 --theta 0.55 --source-bucket 256"}

rm -f "$OUT/sweep.tree-args"
k=0
IFS=';' read -ra configs <<<"$SWEEP"
for args in "${configs[@]}"; do
  k=$((k + 1))
  # shellcheck disable=SC2086
  bench "sweep$k" --case cube --n "$SWEEP_N" --runs cuda-tree-float --repeat 3 --sample 1000 \
    --target-bucket 64 --arity 8 $args
  echo "$args" >"$OUT/sweep$k.args"
done
best=$(python3 - "$OUT" "$ERROR_TARGET" 2>"$OUT/sweep.txt" <<'PY'
import glob, json, os, sys
out, target = sys.argv[1], float(sys.argv[2])
best = None
for f in sorted(glob.glob(os.path.join(out, "bench_sweep*.json"))):
    args = open(f.replace("bench_", "").replace(".json", ".args")).read().strip()
    r = json.load(open(f))["results"][0]
    t, e = r["times"]["total"], r["error"]["velocity_mean_rel"]
    print("sweep: %-48s total %.4f s  u.mean %.2e  near %.4f far %.4f" % (args, t, e, r["times"]["near"], r["times"]["far"]), file=sys.stderr)
    if e <= target and (best is None or t < best[0]):
        best = (t, args)
print(best[1] if best else "")
PY
)
tee -a "$SUMMARY" <"$OUT/sweep.txt"
if [ -n "$best" ]; then TREE_ARGS="--target-bucket 64 --arity 8 $best"; fi
note "sweep at N=$SWEEP_N: chosen TREE_ARGS=$TREE_ARGS"
echo "$TREE_ARGS" >"$OUT/sweep.tree-args"
