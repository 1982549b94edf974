#!/usr/bin/env bash
# Set-up (as scripts/setup.sh), then the main job: the particles shipped in data/ evaluated with
# the treecode (velocity and gradient) on the best backend present, written as .vtp and CSV, and a
# benchmark of the paper's cube case against the direct sum. Output folder: out/ (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}
scripts/setup.sh
mkdir -p "$out"
input=data/cube-20000.csv
echo "== vortex-eval: $input, treecode, velocity and gradient"
build/vortex-eval "$input" --method tree --gradient -o "$out/cube-20000.vtp"
build/vortex-eval "$input" --method tree --gradient -o "$out/cube-20000.csv"
echo "== vortex-bench: paper's cube case, treecode against the direct sum"
build/vortex-bench --case cube --n 20000 --seed 1 --sample 1000 --json "$out/bench.json" | tee "$out/bench.txt"
echo "output folder: $(cd "$out" && pwd)"
