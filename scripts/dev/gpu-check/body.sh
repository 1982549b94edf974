#!/usr/bin/env bash
# Stage body: flow past a sphere, the same few steps on the GPU and on the host's CPU cores; each
# run's JSON summary and last diagnostics to the summary.
#
#   BODY_STEPS  the steps (default 6)

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

for backend in cuda cpu; do
  start=$SECONDS
  "$BUILD/vortex-body" --body sphere --frequency 12 --re 300 --dt 0.02 --steps "${BODY_STEPS:-6}" \
    --backend $backend --every 0 --no-plot --quiet -o "$OUT/body-$backend" \
    --json "$OUT/body-$backend.json" >"$OUT/body-$backend.log" 2>&1
  note "body $backend: rc=$? in $((SECONDS - start)) s: $(tr -d '\n' <"$OUT/body-$backend.json" 2>/dev/null | head -c 600)"
  tail -3 "$OUT/body-$backend/diagnostics.csv" 2>/dev/null >>"$SUMMARY"
done
