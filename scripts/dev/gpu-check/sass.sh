#!/usr/bin/env bash
# Stage sass: registers, shared memory and stack of every kernel of the near-field and far-field
# (orders 7 and 8) objects, and the instruction mix of the hot ones (the float pair kernel, the
# order-7 far kernel), in sass_summary.txt; their SASS in sass_*.txt.

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "$0")/common.sh"

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
