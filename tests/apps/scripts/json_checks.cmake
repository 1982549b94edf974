# Checks of the JSON that vortex-bench writes, for the scripts that read it (included, cmake -P).

# The member at the path ARGN of `json_text` is a number of any sign (a fitted exponent of small,
# noisy timings may be < 0).
function(require_signed_number json_text)
  string(JSON type TYPE "${json_text}" ${ARGN})
  if(NOT type STREQUAL "NUMBER")
    message(FATAL_ERROR "${ARGN} is ${type}, not a number")
  endif()
endfunction()

# The member at the path ARGN of `json_text` is a number, and not negative.
function(require_number json_text)
  require_signed_number("${json_text}" ${ARGN})
  string(JSON value GET "${json_text}" ${ARGN})
  if(value LESS 0)
    message(FATAL_ERROR "${ARGN} is negative: ${value}")
  endif()
endfunction()
