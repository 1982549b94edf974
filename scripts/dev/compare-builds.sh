#!/usr/bin/env bash
# Compares two builds of vortex side by side: the same outputs (velocity and gradient of the shipped
# cube, treecode and direct sum, in double) and the treecode's time (runs alternated, medians).
#
#   scripts/dev/compare-builds.sh OLD_BUILD NEW_BUILD OUT [BACKENDS] [SIZES]
#
# BACKENDS: "cpu" or "cpu cuda" (default cpu); SIZES: treecode sizes timed per backend
# (default: 100000 for cpu; set CUDA_SIZES for cuda, default "500000 1000000"). ROUNDS alternated
# rounds of REPEAT calls each (defaults 3 and 5). Writes OUT/compare.txt.
set -euo pipefail
old=$1 new=$2 out=$3
backends=${4:-cpu}
cpu_sizes=${5:-100000}
cuda_sizes=${CUDA_SIZES:-"500000 1000000"}
rounds=${ROUNDS:-3}
repeat=${REPEAT:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
report="$out/compare.txt"
: >"$report"

# Outputs: both builds on the shipped cube, every method and backend, double precision.
for backend in $backends; do
  for method in tree direct; do
    for b in old new; do
      dir=$([ $b = old ] && echo "$old" || echo "$new")
      "$dir/vortex-eval" "$root/data/cube-20000.csv" --method $method --backend "$backend" \
        --precision double --gradient -o "$out/$b-$backend-$method.csv" >/dev/null
    done
    "$python" - "$out/old-$backend-$method.csv" "$out/new-$backend-$method.csv" \
      "$backend $method" >>"$report" <<'PY'
import sys
import numpy as np
a = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
b = np.genfromtxt(sys.argv[2], delimiter=",", names=True)
cols = [c for c in a.dtype.names if c not in ("x", "y", "z")]
A = np.column_stack([a[c] for c in cols]); B = np.column_stack([b[c] for c in cols])
rel = np.abs(A - B).max() / np.abs(A).max()
print("outputs %-12s largest difference %.3e (relative to the largest value, %d columns)" % (sys.argv[3], rel, len(cols)))
PY
  done
done

# Times: rounds alternate old and new so that a busy machine slows both alike.
time_runs() {  # backend run sizes
  local backend=$1 run=$2
  shift 2
  for n in "$@"; do
    for r in $(seq "$rounds"); do
      for b in old new; do
        dir=$([ $b = old ] && echo "$old" || echo "$new")
        "$dir/vortex-bench" --case cube --n "$n" --runs "$run" --repeat "$repeat" --sample 1000 \
          --json "$out/time-$backend-$n-$b-$r.json" >/dev/null
      done
    done
  done
}
for backend in $backends; do
  if [ "$backend" = cpu ]; then
    # shellcheck disable=SC2086
    time_runs cpu cpu-tree $cpu_sizes
  else
    # shellcheck disable=SC2086
    time_runs cuda cuda-tree $cuda_sizes
  fi
done
"$python" - "$out" >>"$report" <<'PY'
import glob, json, os, re, statistics, sys
out = sys.argv[1]
rows = {}
for f in glob.glob(os.path.join(out, "time-*.json")):
    backend, n, build, r = re.match(r"time-(\w+)-(\d+)-(old|new)-(\d+)\.json", os.path.basename(f)).groups()
    res = json.load(open(f))["results"][0]
    rows.setdefault((backend, int(n)), {}).setdefault(build, []).append(
        (res["times"]["total"], res["error"]["velocity_mean_rel"]))
for (backend, n), d in sorted(rows.items()):
    old = statistics.median(t for t, _ in d["old"]); new = statistics.median(t for t, _ in d["new"])
    print("time    %-4s N=%-8d old %.4f s  new %.4f s  new/old %.3f  (medians of %d rounds; u err old %.2e new %.2e)"
          % (backend, n, old, new, new / old, len(d["old"]), d["old"][0][1], d["new"][0][1]))
PY
rm -f "$out"/*.csv  # large; the report holds what they showed
cat "$report"
