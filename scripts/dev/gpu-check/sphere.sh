#!/usr/bin/env bash
# Stage sphere: the sphere to a steady state (issue V2/V3). Each case F:DT:STEPS (icosphere
# frequency, time step, steps) at Re = SPHERE_RE runs in $BUILD/sphere-re<RE>-f<F>-dt<DT> for at
# most SPHERE_SLOT seconds with checkpoints, so that the same command on a warm machine continues
# where it stopped. The CSV of each case comes back in $OUT.
#
#   SPHERE_CASES  the cases (default "8:0.08:188")
#   SPHERE_RE     the Reynolds number (default 100)
#   SPHERE_SLOT   each case's seconds at most (default 300)
#   SPHERE_ARGS   further vortex-body arguments for every case, named by SPHERE_TAG in the folders
#   SPHERE_TAG    and files

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"
SPHERE_RE=${SPHERE_RE:-100}

for c in ${SPHERE_CASES:-"8:0.08:188"}; do
  IFS=: read -r f dt steps <<<"$c"
  name=sphere-re$SPHERE_RE-f$f-dt$dt${SPHERE_TAG:+-$SPHERE_TAG}
  run=$BUILD/$name
  mkdir -p "$run"
  last=$(find "$run" -maxdepth 1 -name "checkpoint-*.bin" 2>/dev/null | sort | tail -1)
  done_steps=0
  [[ -n $last ]] && done_steps=$((10#$(basename "$last" .bin | sed 's/checkpoint-//')))
  left=$((steps - done_steps))
  start=$SECONDS
  if ((left > 0)); then
    # shellcheck disable=SC2086
    "$BUILD/vortex-body" --body sphere --frequency "$f" --re "$SPHERE_RE" --dt "$dt" \
      --steps "$left" ${last:+--restart "$last"} --backend cuda --every 0 --checkpoint-every 10 \
      --no-plot --progress 60 --stop-after "${SPHERE_SLOT:-300}" -o "$run" \
      --json "$run/summary.json" ${SPHERE_ARGS:-} >>"$OUT/$name.log" 2>&1
  fi
  note "$name: rc=$? in $((SECONDS - start)) s: $(grep -E '^(step|stopped)' "$OUT/$name.log" | tail -1)"
  cp "$run/diagnostics.csv" "$OUT/$name.csv" 2>/dev/null
done
