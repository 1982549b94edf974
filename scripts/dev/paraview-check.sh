#!/usr/bin/env bash
# Opens vortex's outputs in Debian's ParaView as a user would (pvbatch under xvfb-run): the
# particle file of vortex-eval on data/ring-4995.csv, and the .pvd series of particles and surface
# of vortex-body on the discoid rehearsal's case (2 steps, every step written). Reads every array
# by name and renders a picture of each (scripts/dev/paraview_check.py).
#
# Debian's paraview package conflicts with libvtk9-dev (it ships a VTK of its own), so it cannot
# stay installed beside the build's dependencies. With --install (as root), the script installs
# paraview, python3-paraview and xvfb (apt removes libvtk9-dev and python3-vtk9), runs the
# check, and installs libvtk9-dev and python3-vtk9 again. The apps it runs need no VTK at run time.
#
#   scripts/dev/paraview-check.sh [--install] [BUILD_DIR] [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
install=0
if [[ ${1:-} == --install ]]; then install=1; shift; fi
build=${1:-$root/build}
out=${2:-paraview-check}
apt() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
restore_vtk=0
if ! dpkg -s python3-paraview >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null; then
  if [[ $install == 1 && $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    dpkg -s libvtk9-dev >/dev/null 2>&1 && restore_vtk=1
    apt-get update -qq
    apt paraview python3-paraview xvfb xauth
  else
    echo "paraview-check: pvbatch or xvfb-run missing; run with --install as root (it swaps" \
      "libvtk9-dev for Debian's paraview and back), or install paraview, python3-paraview and xvfb" >&2
    exit 2
  fi
fi
if [[ $restore_vtk == 1 ]]; then
  trap 'apt libvtk9-dev python3-vtk9 && DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq paraview >/dev/null' EXIT
fi
for app in vortex-eval vortex-body; do
  [[ -x $build/$app ]] || { echo "paraview-check: $build/$app not found (build it first)" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$build/vortex-eval" "$root/data/ring-4995.csv" --gradient -o "$out/ring-4995.vtp" >/dev/null
rm -rf "$out/body"
"$build/vortex-body" --case "$root/data/discoid-rehearsal.json" --steps 2 --every 1 \
  --no-plot --output "$out/body" >"$out/body.log"
xvfb-run -a pvbatch "$root/scripts/dev/paraview_check.py" "$out" "$out/ring-4995.vtp" "$out/body"
