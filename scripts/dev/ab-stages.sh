#!/usr/bin/env bash
# Times two builds' CUDA treecode side by side, stage by stage: rounds alternate the builds so that
# a busy machine slows both alike; prints each stage's median over the rounds (each round's value
# is the median call of `--repeat` calls) and the errors.
#
#   scripts/dev/ab-stages.sh OLD_BUILD NEW_BUILD OUT "cube:500000 cube:1000000 plummer:1000000"
#
# ROUNDS (default 3) rounds of REPEAT (default 7) calls; ARGS: more vortex-bench arguments.
set -euo pipefail
old=$1 new=$2 out=$3 cases=$4
rounds=${ROUNDS:-3}
repeat=${REPEAT:-7}
mkdir -p "$out"
for c in $cases; do
  for r in $(seq "$rounds"); do
    for b in old new; do
      dir=$([ $b = old ] && echo "$old" || echo "$new")
      # shellcheck disable=SC2086
      "$dir/vortex-bench" --case "${c%%:*}" --n "${c#*:}" --runs cuda-tree-float --repeat "$repeat" \
        --sample 200 --json "$out/ab-${c%%:*}-${c#*:}-$b-$r.json" ${ARGS:-} >/dev/null
    done
  done
done
python3 - "$out" <<'PY'
import glob, json, os, re, statistics, sys
out = sys.argv[1]
stages = ["total", "tree", "lists", "multipole", "setup", "near", "far", "transfer"]
rows = {}
for f in glob.glob(os.path.join(out, "ab-*.json")):
    case, n, build, r = re.match(r"ab-(\w+)-(\d+)-(old|new)-(\d+)\.json", os.path.basename(f)).groups()
    res = json.load(open(f))["results"][0]
    rows.setdefault((case, int(n)), {}).setdefault(build, []).append(res)
print("%-16s %-4s " % ("case", "") + " ".join("%9s" % s for s in stages) + "  u err     du err")
for (case, n), d in sorted(rows.items()):
    for build in ("old", "new"):
        runs = d.get(build, [])
        if not runs:
            continue
        med = [statistics.median(x["times"].get(s, 0) for x in runs) for s in stages]
        e = runs[0]["error"]
        print("%-16s %-4s " % ("%s %d" % (case, n), build) + " ".join("%9.5f" % v for v in med) +
              "  %.2e  %.2e  (%d rounds)" % (e["velocity_mean_rel"], e.get("gradient_mean_rel", 0), len(runs)))
PY
