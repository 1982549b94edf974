#!/usr/bin/env bash
# Installs what vortex needs on a Debian machine (when run as root and something is missing),
# then configures and builds in ./build. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libeigen3-dev zlib1g-dev libboost-dev libgtest-dev libvtk9-dev gnuplot-nox
  gfortran python3-dev python3-numpy python3-pytest pybind11-dev nlohmann-json3-dev libopenmpi-dev
  openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing packages: ${missing[*]} (run as root to install them with apt-get)" >&2
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
# Built for this machine (-march=native); an installed library defaults to portable code.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVORTEX_NATIVE=ON "$@" >build-configure.log 2>&1 || {
  cat build-configure.log >&2
  exit 1
}
grep -E "^-- vortex:" build-configure.log || true
cmake --build build -j"$jobs"
