#!/usr/bin/env bash
# Plots a vortex-bench report folder with gnuplot (pngcairo): breakdown.png from report.csv,
# bucket.png, order-theta.png, arity.png, scaling.png and tolerance.png from the sweeps' CSV
# files, written into
# DIR or into PNGDIR (for a read-only DIR, e.g. results fetched from a GPU machine). Plots whose
# CSV is missing are skipped. Usage: scripts/plot-report.sh DIR [PNGDIR]
set -euo pipefail
dir=${1:?usage: scripts/plot-report.sh DIR [PNGDIR] (DIR written by vortex-bench --report/--sweep)}
outdir=${2:-$dir}
plots=$(cd "$(dirname "$0")/plots" && pwd)
if ! command -v gnuplot >/dev/null; then
  echo "plot-report: gnuplot not found (scripts/setup.sh installs gnuplot-nox); no plots" >&2
  exit 1
fi
if ! gnuplot -e "set terminal" 2>&1 | grep -q pngcairo; then
  echo "plot-report: this gnuplot has no pngcairo terminal; no plots" >&2
  exit 1
fi
[ -d "$dir" ] || { echo "plot-report: no folder $dir" >&2; exit 1; }
mkdir -p "$outdir"
made=()
plot() {  # plot SCRIPT CSV PNG
  if [ -f "$dir/$2" ]; then
    gnuplot -e "dir='$dir'; outdir='$outdir'; plots='$plots'" "$plots/$1"
    made+=("$outdir/$3")
  fi
}
plot breakdown.gp report.csv breakdown.png
plot bucket.gp sweep-bucket.csv bucket.png
plot order-theta.gp sweep-order-theta.csv order-theta.png
plot arity.gp sweep-arity.csv arity.png
plot scaling.gp sweep-scaling.csv scaling.png
plot tolerance.gp sweep-tolerance.csv tolerance.png
if [ ${#made[@]} -eq 0 ]; then
  echo "plot-report: no report or sweep CSV in $dir" >&2
  exit 1
fi
printf 'wrote %s\n' "${made[@]}"
