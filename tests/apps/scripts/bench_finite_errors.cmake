# Runs vortex-bench with ARGS (a cpu-tree run) and checks that it exits 0 and that the cpu-tree
# row's errors (its last four columns: u.mean, du.mean, u.L2, du.L2) are finite numbers below 1.
#   cmake -DBENCH=<vortex-bench> "-DARGS=<arguments joined by |>" -P bench_finite_errors.cmake

string(REPLACE "|" ";" ARGS "${ARGS}")  # the arguments come joined by |
execute_process(COMMAND ${BENCH} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "vortex-bench exited with '${rc}'\n${out}\n${err}")
endif()
string(REGEX MATCH "\ncpu-tree [^\n]*" row "${out}")
if(NOT row)
  message(FATAL_ERROR "no cpu-tree row in\n${out}")
endif()
message(STATUS "${row}")
string(STRIP "${row}" row)
string(REGEX REPLACE " +" ";" columns "${row}")
list(LENGTH columns count)
math(EXPR first "${count} - 4")
list(SUBLIST columns ${first} 4 errors)
foreach(e ${errors})
  if(NOT e MATCHES "^[0-9]\\.[0-9]+e[-+][0-9]+$" OR e GREATER 1)
    message(FATAL_ERROR "error column '${e}' is not a finite number below 1: ${row}")
  endif()
endforeach()
