#!/usr/bin/env bash
# The flow over the 10:10:1 discoid (paper 002, section IV.C): vortex-body on a case file, continued
# from the newest checkpoint in the output folder when there is one (a run stopped by a time limit
# goes on where it stopped), then the plot of the time per step by stage and N against the step.
#
#   scripts/discoid.sh [--build DIR] [--out DIR] [--bench-last] [CASE.json] [-- more vortex-body flags]
#
# CASE.json defaults to data/discoid.json (46,080 panels, Re = 1000, 60 degrees, dt = 0.02, 185
# steps to t = 3.7); data/discoid-rehearsal.json is the small version (2,880 panels, dt = 0.04,
# 8 steps). Writes OUT/diagnostics.csv, the .pvd series, the C_D and C_L plots, the integrated
# vorticity along z, y and x (projections-<step>.png: t = 1, 2, 3 and the last step for the paper's
# case) and OUT/steps.png. --bench-last then times the velocity evaluation of the last checkpoint's
# particles (vortex-body --bench-velocity, 3 calls, errors at 1000 particles against a direct sum)
# on the GPU, when there is one, and on the CPU: OUT/bench-velocity-cuda.txt and -cpu.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build out=discoid-out case=$root/data/discoid.json bench_last=0
extra=()
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bench-last) bench_last=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *.json) case=$1; shift ;;
    *) echo "discoid.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
app=$build/vortex-body
[[ -x $app ]] || { echo "discoid.sh: $app not found (build it first)" >&2; exit 2; }
[[ -f $case ]] || { echo "discoid.sh: no case file $case" >&2; exit 2; }
total=$(sed -n 's/.*"steps": *\([0-9]*\).*/\1/p' "$case")
[[ -n $total ]] || { echo "discoid.sh: $case has no \"steps\"" >&2; exit 2; }
mkdir -p "$out"
newest_checkpoint() { ls "$out"/checkpoint-*.bin 2>/dev/null | sort | tail -1 || true; }
last=$(newest_checkpoint)
if [[ -n $last ]]; then
  done_steps=$((10#$(basename "$last" .bin | sed 's/checkpoint-//')))
  left=$((total - done_steps))
  if ((left > 0)); then
    echo "== continuing from $last: $left of $total steps left"
    "$app" --case "$case" --output "$out" --restart "$last" --steps "$left" --json "$out/summary.json" \
      "${extra[@]}"
  else
    echo "== $out holds all $total steps"
  fi
else
  "$app" --case "$case" --output "$out" --json "$out/summary.json" "${extra[@]}"
fi
if command -v gnuplot > /dev/null; then
  if gnuplot -e "csv='$out/diagnostics.csv'; outfile='$out/steps.png'" \
    "$root/scripts/plots/body-steps.gp"; then
    echo "plot: $out/steps.png"
  else
    echo "discoid.sh: the step plot failed (the run's results are in $out)" >&2
  fi
fi
if ((bench_last)); then
  last=$(newest_checkpoint)
  [[ -n $last ]] || { echo "discoid.sh: --bench-last: no checkpoint in $out" >&2; exit 2; }
  # The default backend first (the GPU where there is one), then the CPU unless that was it.
  for b in auto cpu; do
    echo "== velocity evaluation of $(basename "$last"), backend $b"
    "$app" --case "$case" --restart "$last" --bench-velocity 3 --bench-sample 1000 --backend "$b" \
      --output "$out" "${extra[@]}" | tee "$out/bench-velocity.log"
    ran=$(sed -n 's/^velocity evaluation: N = [0-9]*, \([a-z]*\) .*/\1/p' "$out/bench-velocity.log")
    [[ -n $ran ]] || { echo "discoid.sh: --bench-last: no timing printed" >&2; exit 1; }
    mv "$out/bench-velocity.log" "$out/bench-velocity-$ran.txt"
    [[ $ran == cpu ]] && break
  done
fi
