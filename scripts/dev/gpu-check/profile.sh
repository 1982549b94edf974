#!/usr/bin/env bash
# Stage profile: kernel times of one call (Nsight Compute runs the kernels one at a time), summed by
# kernel, and the host's phase times of a few calls (VORTEX_CUDA_VERBOSE), on each case with
# TREE_ARGS; with BASE_SRC, of both builds.
#
#   PROFILE_N      the size (default 1000000)
#   PROFILE_CASES  vortex-bench's cases (default cube)
#   BASE_SRC       set: build-base (stage build) is profiled too

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
PROFILE_N=${PROFILE_N:-1000000}
PROFILE_CASES=${PROFILE_CASES:-cube}

start=$SECONDS
for b in "$BUILD" ${BASE_SRC:+build-base}; do
  for case in $PROFILE_CASES; do
    tag=$(basename "$b")-$case
    # shellcheck disable=SC2086
    ncu --clock-control none --metrics gpu__time_duration.sum --csv "$b/vortex-bench" --case "$case" \
      --n "$PROFILE_N" --runs cuda-tree-float --repeat 1 --sample 100 $TREE_ARGS \
      >"$OUT/ncu-$tag.csv" 2>"$OUT/ncu-$tag.err"
    note "$tag:"
    python3 - "$OUT/ncu-$tag.csv" <<'PY' | tee -a "$SUMMARY"
import csv, re, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; name = head.index("Kernel Name"); value = head.index("Metric Value")
total = collections.defaultdict(float); count = collections.Counter()
for r in rows[1:]:
    k = re.sub(r"\((anonymous namespace)\)|<unnamed>", "", r[name])
    k = re.sub(r"<.*", "", re.sub(r"\(.*", "", k)).split("::")[-1].split()[-1]
    total[k] += float(r[value].replace(",", "")); count[k] += 1
calls = max(1, count.get("far_kernel", 0))
print("kernel times per call (%d calls profiled), ms:" % calls)
for k, v in sorted(total.items(), key=lambda kv: -kv[1]):
    print("  %-40s %6d launches %9.3f" % (k, count[k] // calls, v / calls / 1e6))
PY
    # shellcheck disable=SC2086
    VORTEX_CUDA_VERBOSE=1 "$b/vortex-bench" --case "$case" --n "$PROFILE_N" --runs cuda-tree-float \
      --repeat 3 --sample 100 $TREE_ARGS >"$OUT/phases-$tag.log" 2>&1
    grep "vortex cuda:" "$OUT/phases-$tag.log" | tail -2 | tee -a "$SUMMARY"
  done
done
note "profile: in $((SECONDS - start)) s"
