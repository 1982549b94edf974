#!/usr/bin/env bash
# V1 of docs/VALIDATION.md: the impulsively started sphere (D = 1, U = 1), C_D(t) against
# 12 / sqrt(pi Re t), and the plot docs/images/body-v1-sphere.png.
#
#   scripts/studies/body-v1.sh [--build DIR] [--out DIR] [--dt DT] [--steps N] [--backend B] RE:F ...
#
# Each RE:F runs vortex-body at Reynolds number RE on the icosphere of frequency F (20 F^2
# panels) with h = sqrt(8 dt / Re); the defaults are dt = 0.02 and 15 steps (t = 0.3). Examples:
#   scripts/studies/body-v1.sh 100:8 300:12                     # the documented table (CPU)
#   scripts/studies/body-v1.sh --backend cuda 1000:24           # Re = 1000 on a GPU machine
# Build first, e.g. on a GPU machine without VTK:
#   cmake -S . -B build -DVORTEX_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DVORTEX_WITH_VTK=OFF \
#     -DVORTEX_WITH_PYTHON=OFF -DVORTEX_BUILD_BENCHMARKS=OFF && cmake --build build -j --target vortex-body
# Per case it writes OUT/re<RE>-f<F>/ (diagnostics.csv, summary.json, log.txt), then prints the
# C_D table against the reference and, when gnuplot is there, plots all cases to OUT/body-v1.png.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build out=body-v1-out dt=0.02 steps=15 backend=auto
cases=()
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --dt) dt=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *:*) cases+=("$1"); shift ;;
    *) echo "body-v1.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
((${#cases[@]})) || { echo "body-v1.sh: give at least one RE:F case" >&2; exit 2; }
app=$build/vortex-body
[[ -x $app ]] || { echo "body-v1.sh: $app not found (build it first)" >&2; exit 2; }
mkdir -p "$out"
dirs=()
for c in "${cases[@]}"; do
  re=${c%%:*} f=${c##*:}
  dir=$out/re$re-f$f
  dirs+=("$dir")
  echo "== Re = $re, frequency $f, dt = $dt, $steps steps, backend $backend"
  "$app" --frequency "$f" --re "$re" --dt "$dt" --steps "$steps" --backend "$backend" \
    --every 0 --no-plot --progress 30 --json "$dir/summary.json" -o "$dir" | tee "$dir.log"
  mv "$dir.log" "$dir/log.txt"
  # t_force (column 3) and C_D (column 8) against the reference, the first step left off.
  awk -F, -v re="$re" 'NR > 2 { ref = 12 / sqrt(3.141592653589793 * re * $3);
    printf "t = %.2f  C_D = %.3f  12/sqrt(pi Re t) = %.3f  error %+.0f %%\n", $3, $8, ref,
    100 * ($8 / ref - 1) }' "$dir/diagnostics.csv"
done
if command -v gnuplot > /dev/null; then
  list=""
  for d in "${dirs[@]}"; do list="$list $d"; done
  gnuplot -e "dirs='${list# }'; outfile='$out/body-v1.png'" "$root/scripts/plots/body-v1.gp"
  echo "plot: $out/body-v1.png"
fi
