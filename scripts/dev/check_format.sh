#!/usr/bin/env bash
# Every C++ and CUDA file that git tracks is formatted as .clang-format says. Installs Debian's
# clang-format when it is missing and this runs as root.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format \
      >/dev/null
  else
    echo "check_format: clang-format is not installed (apt-get install clang-format)" >&2
    exit 1
  fi
fi
mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh' '*.h')
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  echo "$out" | grep -E "error:" | cut -d: -f1 | sort -u | sed 's/^/check_format: not formatted: /' >&2
  echo "check_format: run clang-format -i on the files above" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted ($(clang-format --version | head -1))"
