#!/usr/bin/env bash
# The benchmark report: the paper's Figure 7 table and the parameter sweeps (bucket size,
# order/theta, arity, scaling with N) on the best backend present, written into a folder as
# .txt/.csv/.json plus particles.vtp, then plotted (PNG) when gnuplot is present.
#   scripts/report.sh [DIR [vortex-bench options...]]      DIR defaults to out/
# The program is build/vortex-bench unless VORTEX_BENCH names another; the commit recorded is
# git's, or VORTEX_COMMIT where there is no repository. Where gnuplot is missing
# (a GPU machine), plot later elsewhere with scripts/plot-report.sh DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-out}
shift || true
bench=${VORTEX_BENCH:-$root/build/vortex-bench}
[ -x "$bench" ] || { echo "report: $bench not built (run scripts/setup.sh)" >&2; exit 1; }
commit=${VORTEX_COMMIT:-$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)}
mkdir -p "$out"
echo "report: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown), commit $commit"
start=$(date +%s)
"$bench" --report --sweep all --out "$out" --commit "$commit" "$@" | tee "$out/report.log"
echo "report: vortex-bench took $(( $(date +%s) - start )) s"
if command -v gnuplot >/dev/null; then
  "$root/scripts/plot-report.sh" "$out"
else
  echo "report: no gnuplot here; plot elsewhere with scripts/plot-report.sh $out"
fi
