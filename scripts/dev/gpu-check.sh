#!/usr/bin/env bash
# On the GPU machine: configure with CUDA for sm_90, build, run every test (GPU ones included), time
# the pair kernel and the solver's CUDA direct and tree paths, and print a short table last.
# Logs go to $OUT (default ./gpu-check-out).
#
#   bash scripts/dev/gpu-check.sh            everything
#   STAGES="build bench" bash scripts/dev/gpu-check.sh
#   SIZES_TREE="500000 1000000" TREE_ARGS="--order 7 --source-bucket 512" bash scripts/dev/gpu-check.sh

set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-check-out}
BUILD=${BUILD:-build-gpu-check}
JOBS=${JOBS:-16}
STAGES=${STAGES:-"build test timing sass sweep bench"}  # also: trees orders variants plummer body vrm discoid sphere compare profile
# compare: with BASE_SRC (a source tarball of another commit, unpacked to base/), builds it and
# times and compares it side by side with this tree (scripts/dev/compare-builds.sh); the vrm stage
# times the base build's diffusion sub-step too when BASE_TARGETS includes vortex-body.
BASE_SRC=${BASE_SRC:-}
SIZES_TREE=${SIZES_TREE:-"500000 1000000 10000000"}
DIRECT_N=${DIRECT_N:-1000000}
TREE_ARGS=${TREE_ARGS:-""}  # empty: the library's defaults for the backend
TREE_HOST_MAX=${TREE_HOST_MAX:-10000000}  # stage trees: host-built trees up to this N only
# Tree parameter sets tried at N = SWEEP_N; the fastest whose mean velocity error is within
# ERROR_TARGET replaces TREE_ARGS for the timed sizes.
SWEEP_N=${SWEEP_N:-1000000}
ERROR_TARGET=${ERROR_TARGET:-2e-4}
SWEEP=${SWEEP:-"--order 7 --theta 0.6 --source-bucket 512;--order 8 --theta 0.6 --source-bucket 512;--order 8 --theta 0.6 --source-bucket 256;--order 8 --theta 0.6 --source-bucket 128;--order 7 --theta 0.5 --source-bucket 256;--order 9 --theta 0.65 --source-bucket 256;--order 8 --theta 0.55 --source-bucket 256"}
# Tree parameter sets tried on the Plummer sphere of PLUMMER_N (stage plummer), device-built trees.
PLUMMER_N=${PLUMMER_N:-1000000}
PROFILE_N=${PROFILE_N:-1000000}  # stage profile: the cases PROFILE_CASES profiled at this N
PROFILE_CASES=${PROFILE_CASES:-cube}
PLUMMER_SWEEP=${PLUMMER_SWEEP:-"--order 8 --theta 0.5 --target-bucket 64 --source-bucket 256;--order 8 --theta 0.5 --target-bucket 32 --source-bucket 64;--order 9 --theta 0.6 --target-bucket 32 --source-bucket 64;--order 10 --theta 0.65 --target-bucket 32 --source-bucket 32;--order 9 --theta 0.6 --target-bucket 64 --source-bucket 128"}
BUILD_TARGETS=${BUILD_TARGETS:-all}  # e.g. "vortex-bench test_gpu_direct" for a partial build
TEST_REGEX=${TEST_REGEX:-}            # ctest -R filter; empty = every test
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
has() { [[ " $STAGES " == *" $1 "* ]]; }
note() { echo "$*" | tee -a "$SUMMARY"; }
# One diffusion sub-step of the discoid's CHECKPOINT timed (3 repeats, the first warms up) by
# BUILD_DIR's vortex-body with the further arguments, logged to $OUT/NAME.log, its phases to the
# summary: bench_sub_step BUILD_DIR CHECKPOINT NAME [ARGS...]
bench_sub_step() {
  local build=$1 checkpoint=$2 name=$3
  shift 3
  local start=$SECONDS
  "$build/vortex-body" --case data/discoid.json --restart "$checkpoint" --bench-diffusion 3 \
    -o "$(dirname "$checkpoint")/$name" "$@" >"$OUT/$name.log" 2>&1
  note "$name ($build): rc=$? in $((SECONDS - start)) s"
  grep -E "^repeat|VRM phases|of them:|by kernel|diffusion sub-step|residual" "$OUT/$name.log" |
    tee -a "$SUMMARY"
}

note "gpu-check $(date -u +%Y-%m-%dT%H:%MZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +changes)"
note "$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null)"
note "$(nproc) CPU cores; $(nvcc --version | tail -1)"

if has build; then
  start=$SECONDS
  {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DVORTEX_WITH_VTK=OFF -DVORTEX_CUDA=ON -DVORTEX_NATIVE=ON &&
      cmake --build "$BUILD" -j"$JOBS" --target $BUILD_TARGETS
  } >"$OUT/build.log" 2>&1
  rc=$?
  note "build: rc=$rc in $((SECONDS - start)) s"
  if [ $rc -ne 0 ]; then
    grep -E "error|Error" "$OUT/build.log" | head -40
    exit $rc
  fi
fi

if has build && [ -n "$BASE_SRC" ]; then
  start=$SECONDS
  rm -rf base && tar xzf "$BASE_SRC"
  {
    cmake -S base -B build-base -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DVORTEX_WITH_VTK=OFF -DVORTEX_CUDA=ON -DVORTEX_BUILD_TESTS=OFF -DVORTEX_NATIVE=ON &&
      cmake --build build-base -j"$JOBS" --target ${BASE_TARGETS:-vortex-eval vortex-bench}
  } >"$OUT/build-base.log" 2>&1
  note "base build: rc=$? in $((SECONDS - start)) s"
fi

if has test; then
  start=$SECONDS
  ctest --test-dir "$BUILD" -j8 --timeout 300 --output-on-failure ${TEST_REGEX:+-R "$TEST_REGEX"} \
    >"$OUT/ctest.log" 2>&1
  rc=$?
  note "ctest: rc=$rc in $((SECONDS - start)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"
  grep -E "^\s*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)" "$OUT/ctest.log" | head -30 | tee -a "$SUMMARY"
  # Whether the GPU suites really ran (they skip without a device).
  gpu='Test +#[0-9]+: .*(Gpu|Device[A-Za-z]*\.|/cuda|cuda_).*'
  note "  GPU tests: $(grep -cE "$gpu Passed" "$OUT/ctest.log") passed, $(grep -cE "$gpu\*?Skipped" "$OUT/ctest.log") skipped, $(grep -cE "$gpu(Failed|Exception|Timeout)" "$OUT/ctest.log") failed"
fi

if has timing; then
  "$BUILD/vortex-kernel-timing" 2>&1 | tee "$OUT/kernel_timing.log" |
    grep -E "^(pair|arithmetic|float|double)" | tee -a "$SUMMARY"
fi

if has sass; then
  # Registers, shared memory and stack of every kernel; instruction mix of the hot ones.
  obj=$(find "$BUILD" -name near_field.cu.o | head -1)
  far=$(find "$BUILD" -name far_orders_7_8.cu.o | head -1)
  {
    for f in "$obj" "$far"; do
      cuobjdump -res-usage "$f" 2>&1 | grep -B1 -E "REG" | grep -E "Function|REG" |
        sed -E 's/_ZN6vortex3gpu[A-Za-z0-9_]*(pair_kernel|far_kernel)/\1/' | paste - - | head -40
    done
    for pat in 'pair_kernelILNS_4CoreE0ELNS0_10ArithmeticE1ELb1' 'far_kernelILi7ELNS0_10ArithmeticE1ELb1'; do
      for f in "$obj" "$far"; do
        name=$(cuobjdump -sass "$f" | grep -oE "Function : [^ ]*${pat}[^ ]*" | head -1 | cut -d' ' -f3)
        [ -n "$name" ] || continue
        echo "== $pat"
        cuobjdump -sass -fun "$name" "$f" | grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+[A-Z0-9]+(\.[A-Z0-9.]+)?' |
          awk '{print $2}' | sed -E 's/\..*//' | sort | uniq -c | sort -rn | head -25
        cuobjdump -sass -fun "$name" "$f" >"$OUT/sass_$(echo "$pat" | cut -c1-12).txt"
      done
    done
  } >"$OUT/sass_summary.txt" 2>&1
fi

bench() {  # label, args...
  local label=$1
  shift
  local start=$SECONDS
  VORTEX_CUDA_VERBOSE=1 "$BUILD/vortex-bench" "$@" --json "$OUT/bench_$label.json" >"$OUT/bench_$label.log" 2>&1
  local rc=$?
  echo "== $label (rc=$rc, $((SECONDS - start)) s): vortex-bench $*" >>"$OUT/bench.log"
  cat "$OUT/bench_$label.log" >>"$OUT/bench.log"
  rm -f "$OUT/bench_$label.log"
}

if has sweep; then
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
fi

if has trees; then
  # The treecode with its trees, lists and multipoles built on the device and on the host, side by
  # side (alternated), on the cube and on the clustered Plummer sphere.
  for n in $SIZES_TREE; do
    repeat=7
    [ "$n" -ge 5000000 ] && repeat=3
    builds="device host"
    [ "$n" -gt "$TREE_HOST_MAX" ] && builds=device
    for build in $builds; do
      # shellcheck disable=SC2086
      bench "tb_${n}_$build" --case cube --n "$n" --runs cuda-tree-float --repeat $repeat \
        --sample 1000 --tree-build $build $TREE_ARGS
    done
  done
  for build in device host; do
    # shellcheck disable=SC2086
    bench "tb_plummer_$build" --case plummer --n 1000000 --runs cuda-tree-float --repeat 7 \
      --sample 1000 --tree-build $build $TREE_ARGS
  done
fi

# Runs alternated over rounds: prefix, rounds, "label|args;label|args;..." with the vortex-bench
# arguments of each run (case, size, tree options); files bench_<prefix>_<label>_<round>.json.
run_alternated() {
  local prefix=$1 rounds=$2 runs v round
  IFS=';' read -ra runs <<<"$3"
  for round in $(seq 1 "$rounds"); do
    for v in "${runs[@]}"; do
      # shellcheck disable=SC2086
      bench "${prefix}_${v%%|*}_$round" --runs cuda-tree-float --sample 1000 ${v#*|}
    done
  done
}

if has orders; then
  # Per-box orders against every far box at P, alternated, on the cube and the Plummer sphere.
  for n in $SIZES_TREE plummer; do
    case_args="--case cube --n $n"
    [ "$n" = plummer ] && case_args="--case plummer --n $PLUMMER_N"
    repeat=7
    [ "$n" != plummer ] && [ "$n" -ge 5000000 ] && repeat=3
    common="$case_args --repeat $repeat $TREE_ARGS"
    run_alternated orders 2 "${n}_box|$common;${n}_uniform|$common --uniform-order"
  done
fi

# Any set of runs, alternated over VARIANT_ROUNDS rounds (run_alternated's list in VARIANTS).
if has variants; then run_alternated variant "${VARIANT_ROUNDS:-2}" "$VARIANTS"; fi

if has plummer; then
  # The clustered case: its near field sets the time, so smaller buckets and larger theta are tried.
  i=0
  IFS=';' read -ra sets <<<"$PLUMMER_SWEEP"
  for args in "${sets[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    bench "plummer_set$i" --case plummer --n "$PLUMMER_N" --runs cuda-tree-float --repeat 5 \
      --sample 1000 $args
    note "plummer set $i: $args"
  done
fi

if has bench || has trees || has plummer || has orders || has variants; then
  if has bench; then
  bench direct_float --case cube --n "$DIRECT_N" --runs cuda-direct-float --repeat 3 --sample 1000
  bench direct_double --case cube --n 200000 --runs cuda-direct-double --repeat 3 --sample 1000
  for n in $SIZES_TREE; do
    repeat=5
    [ "$n" -ge 5000000 ] && repeat=3
    # shellcheck disable=SC2086
    bench "tree_$n" --case cube --n "$n" --runs cuda-tree-float --repeat $repeat --sample 1000 $TREE_ARGS
  done
  fi
  # One file for all results.
  python3 - "$OUT" >"$OUT/table.txt" <<'PY'
import json, glob, os, sys
out = sys.argv[1]
rows = []
extra = []
for f in sorted(glob.glob(os.path.join(out, "bench_*.json"))):
    if "sweep" in f:
        continue
    d = json.load(open(f))
    for r in d["results"]:
        t = r["times"]; e = r["error"]
        rows.append((d["n"], r["method"] + ("/" + r["tree_build"] if r.get("tree_build") else ""), r["precision"], t, r["interactions_per_s"], e))
        extra.append("%s n=%d: p=%s theta=%s buckets=%s/%s pairs=%.3e m2p=%.3e device=%.0f B/particle pinned=%.0f B/particle host peak=%.0f B/particle" % (
            os.path.basename(f), d["n"], r.get("tree", {}).get("order"), r.get("tree", {}).get("theta"),
            r.get("tree", {}).get("target_bucket"), r.get("tree", {}).get("source_bucket"),
            r.get("pair_interactions", 0), r.get("multipole_interactions", 0),
            r.get("device_bytes", 0) / d["n"], r.get("pinned_bytes", 0) / d["n"], r.get("peak_host_bytes", 0) / d["n"]))
print("%-9s %-6s %-6s %8s %7s %7s %7s %7s %7s %7s %10s %9s %9s" % ("N", "method", "prec", "total", "tree", "lists", "multip", "near", "far", "xfer", "pairs/s*", "u.mean", "du.mean"))
for n, m, p, t, ips, e in rows:
    near = t["near"]
    pairs = ips * t["total"] if m == "direct" else float("nan")
    rate = pairs / near if (m == "direct" and near > 0) else float("nan")
    print("%-9d %-6s %-6s %8.4f %7.4f %7.4f %7.4f %7.4f %7.4f %7.4f %10.3e %9.2e %9.2e" % (
        n, m, p, t["total"], t["tree"], t["lists"], t["multipole"], near, t["far"], t["transfer"],
        rate, e["velocity_mean_rel"], e["gradient_mean_rel"] or 0))
print("* direct: N^2 / kernel time (CUDA events, median call)")
print("\n".join(extra))
PY
fi

if has body; then
  # Flow past a sphere: the same few steps on the GPU and on the host's CPU cores.
  for backend in cuda cpu; do
    start=$SECONDS
    "$BUILD/vortex-body" --body sphere --frequency 12 --re 300 --dt 0.02 --steps ${BODY_STEPS:-6} \
      --backend $backend --every 0 --no-plot --quiet -o "$OUT/body-$backend" \
      --json "$OUT/body-$backend.json" >"$OUT/body-$backend.log" 2>&1
    note "body $backend: rc=$? in $((SECONDS - start)) s: $(tr -d '\n' <"$OUT/body-$backend.json" 2>/dev/null | head -c 600)"
    tail -3 "$OUT/body-$backend/diagnostics.csv" 2>/dev/null >>"$SUMMARY"
  done
fi

if has vrm; then
  # The paper's discoid to step VRM_STEPS on the GPU (its VRM's first round on the GPU), then one
  # diffusion sub-step of that step's particles timed (3 repeats) with the VRM's first round on the
  # GPU and on the host's cores, side by side, with the digest of each result.
  work=$BUILD/vrm-discoid
  rm -rf "$work"
  start=$SECONDS
  "$BUILD/vortex-body" --case data/discoid.json --steps "${VRM_STEPS:-30}" --every 0 \
    --projections 0 --checkpoint-every "${VRM_STEPS:-30}" --no-plot --progress 60 --backend cuda \
    -o "$work" >"$OUT/vrm-discoid.log" 2>&1
  note "discoid ${VRM_STEPS:-30} steps: rc=$? in $((SECONDS - start)) s"
  cp "$work/diagnostics.csv" "$OUT/vrm-discoid.csv" 2>/dev/null
  checkpoint=$(ls "$work"/checkpoint-*.bin 2>/dev/null | sort | tail -1)
  for vb in ${VRM_BACKENDS:-cuda cpu}; do
    bench_sub_step "$BUILD" "$checkpoint" "vrm-bench-$vb" --backend cuda --vrm-backend "$vb"
  done
  if [[ ${VRM_PROFILE:-0} == 1 ]]; then
    # Nsight Compute's view of the VRM's device kernels in one sub-step (each kernel's first
    # launch): throughput, occupancy, memory and warp stalls.
    start=$SECONDS
    ncu --kernel-name regex:"vrm_(list|round|resume|fallback|handover)_kernel" --launch-count 3 --section SpeedOfLight \
      --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
      --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      --section SourceCounters \
      "$BUILD/vortex-body" --case data/discoid.json --restart "$checkpoint" --bench-diffusion 1 \
      --backend cuda --vrm-backend cuda -o "$work/profile" >"$OUT/vrm-ncu.txt" 2>&1
    note "VRM kernels under ncu: rc=$? in $((SECONDS - start)) s"
  fi
  if [ -x build-base/vortex-body ]; then
    # The same sub-step with the other commit's build (BASE_SRC, BASE_TARGETS=vortex-body), then
    # this build's again, so that its runs bracket the base's.
    bench_sub_step build-base "$checkpoint" vrm-bench-base --backend cuda --vrm-backend cuda
    bench_sub_step "$BUILD" "$checkpoint" vrm-bench-again --backend cuda --vrm-backend cuda
  fi
fi

if has discoid; then
  # The paper's discoid (scripts/discoid.sh, data/discoid.json) in time slots: each call runs until
  # about DISCOID_SLOT seconds have passed (vortex-body --stop-after, with a checkpoint) in
  # $BUILD/discoid-run, which a warm machine keeps, so that the same command run again continues.
  # Once all 185 steps are done and the slot has time left, the last step's velocity evaluation on
  # the GPU and the CPU (--bench-last) and its diffusion sub-step by phase. The CSV, the projection
  # grids and the benchmarks come back in $OUT.
  run=$BUILD/discoid-run
  start=$SECONDS
  scripts/discoid.sh --build "$BUILD" --out "$run" -- --no-plot \
    --stop-after "${DISCOID_SLOT:-480}" >"$OUT/discoid.log" 2>&1
  note "discoid: rc=$? in $((SECONDS - start)) s: $(grep -E '^(step|stopped)' "$OUT/discoid.log" | tail -1)"
  last=$(ls "$run"/checkpoint-*.bin 2>/dev/null | sort | tail -1)
  if [[ $last == *checkpoint-000185.bin ]] && ((SECONDS - start < ${DISCOID_SLOT:-480})); then
    if [[ ${DISCOID_BENCH_VELOCITY:-1} == 1 ]]; then  # 0: the diffusion sub-step alone
      scripts/discoid.sh --build "$BUILD" --out "$run" --bench-last >"$OUT/discoid-bench.log" 2>&1
      note "discoid last-step benchmarks: rc=$? in $((SECONDS - start)) s"
      grep -hE "^(velocity evaluation|errors)" "$run"/bench-velocity-*.txt | tee -a "$SUMMARY"
    fi
    # The last step's diffusion sub-step by phase (the first repeat warms up).
    bench_sub_step "$BUILD" "$last" discoid-bench-diffusion
    if [ -x build-base/vortex-body ]; then
      # The same sub-step with the other commit's build (BASE_SRC, BASE_TARGETS=vortex-body), then
      # this build's again, so that its runs bracket the base's.
      bench_sub_step build-base "$last" discoid-bench-diffusion-base
      bench_sub_step "$BUILD" "$last" discoid-bench-diffusion-again
    fi
  fi
  cp "$run/diagnostics.csv" "$OUT/discoid.csv" 2>/dev/null
  (cd "$run" && tar czf "$OUT/discoid-projections.tgz" projection-*.dat bench-velocity-*.txt \
    2>/dev/null)
fi

if has sphere; then
  # The sphere to a steady state (issue V2/V3): each case F:DT:STEPS (icosphere frequency, time
  # step, steps) at Re = SPHERE_RE runs in $BUILD/sphere-re<RE>-f<F>-dt<DT> for at most SPHERE_SLOT
  # seconds with checkpoints, so that the same command on a warm machine continues where it
  # stopped. SPHERE_ARGS go to every case (named by SPHERE_TAG in the folders and files). The CSV
  # of each case comes back in $OUT.
  for c in ${SPHERE_CASES:-"8:0.08:188"}; do
    IFS=: read -r f dt steps <<<"$c"
    name=sphere-re${SPHERE_RE:-100}-f$f-dt$dt${SPHERE_TAG:+-$SPHERE_TAG}
    run=$BUILD/$name
    mkdir -p "$run"
    last=$(ls "$run"/checkpoint-*.bin 2>/dev/null | sort | tail -1)
    done_steps=0
    [[ -n $last ]] && done_steps=$((10#$(basename "$last" .bin | sed 's/checkpoint-//')))
    left=$((steps - done_steps))
    start=$SECONDS
    if ((left > 0)); then
      # shellcheck disable=SC2086
      "$BUILD/vortex-body" --body sphere --frequency "$f" --re "${SPHERE_RE:-100}" --dt "$dt" \
        --steps "$left" ${last:+--restart "$last"} --backend cuda --every 0 --checkpoint-every 10 \
        --no-plot --progress 60 --stop-after "${SPHERE_SLOT:-300}" -o "$run" \
        --json "$run/summary.json" ${SPHERE_ARGS:-} >>"$OUT/$name.log" 2>&1
    fi
    note "$name: rc=$? in $((SECONDS - start)) s: $(grep -E '^(step|stopped)' "$OUT/$name.log" | tail -1)"
    cp "$run/diagnostics.csv" "$OUT/$name.csv" 2>/dev/null
  done
fi

if has profile; then
  # Kernel times of one call (Nsight Compute runs the kernels one at a time), summed by kernel,
  # and the host's phase times of a few calls (VORTEX_CUDA_VERBOSE); with BASE_SRC, of both builds.
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
fi

if has compare; then
  start=$SECONDS
  PYTHON=python3 bash scripts/dev/compare-builds.sh build-base "$BUILD" "$OUT/compare" "cpu cuda" "100000" \
    >"$OUT/compare.log" 2>&1
  note "compare: rc=$? in $((SECONDS - start)) s"
  tee -a "$SUMMARY" <"$OUT/compare/compare.txt"
fi

note ""
[ -f "$OUT/table.txt" ] && tee -a "$SUMMARY" <"$OUT/table.txt"
# At most a few files come back from the machine: everything but the summary in one archive.
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt ./* && find . -maxdepth 1 -type f ! -name logs.tgz ! -name summary.txt -delete)
