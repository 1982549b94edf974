#!/usr/bin/env bash
# Set-up (scripts/setup.sh), then the main job: the particles shipped in data/ evaluated with the
# treecode (velocity and gradient) on the best backend present, and the benchmark report of the
# founding paper's Figure 7 with its sweeps and plots (scripts/report.sh). About five minutes on
# two CPU cores. Output folder: out/ (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}
scripts/setup.sh
mkdir -p "$out"
input=data/cube-20000.csv
echo "== vortex-eval: $input, treecode, velocity and gradient"
build/vortex-eval "$input" --method tree --gradient -o "$out/cube-20000.vtp"
build/vortex-eval "$input" --method tree --gradient -o "$out/cube-20000.csv"
echo "== vortex-bench report: the paper's cube case, Figure 7 table, sweeps and plots"
scripts/report.sh "$out"
echo "output folder: $(cd "$out" && pwd)"
echo "  report.txt (the table), report.json, report.csv, particles.vtp (ParaView),"
echo "  sweep-*.txt/.csv/.json, and the plots *.png"
