# Runs vortex-bench's tolerance sweep at a small size and checks its output: the three files,
# one JSON point per case and tolerance, each with the tree options it used and its errors within
# its tolerance (measured against the direct sum), and (where gnuplot with pngcairo is present)
# the plot.
#   cmake -DBENCH=<vortex-bench> -DDIR=<work folder> -DPLOT=<scripts/plot-report.sh>
#         -P bench_tolerance.cmake

cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE "${DIR}")
run_or_fail("vortex-bench" "${BENCH}" --sweep tolerance --tolerance-n 3000
  --tolerances 1e-3,1e-5 --tolerance-cases cube,plummer,sheet --tolerance-rounds 2 --sample 200
  --repeat 1 --out "${DIR}" --commit smoke-test)
foreach(name sweep-tolerance.csv sweep-tolerance.json sweep-tolerance.txt)
  if(NOT EXISTS "${DIR}/${name}")
    message(FATAL_ERROR "${DIR}/${name} is missing; vortex-bench said:\n${out}")
  endif()
endforeach()
file(READ "${DIR}/sweep-tolerance.json" json)
string(JSON points LENGTH "${json}" points)
if(NOT points EQUAL 6)
  message(FATAL_ERROR "${points} points, expected 3 cases x 2 tolerances")
endif()
math(EXPR last "${points} - 1")
foreach(i RANGE ${last})
  string(JSON tolerance GET "${json}" points ${i} tolerance)
  string(JSON u GET "${json}" points ${i} error velocity_mean_rel)
  string(JSON du GET "${json}" points ${i} error gradient_mean_rel)
  string(JSON order GET "${json}" points ${i} tree_options order)
  string(JSON rounds LENGTH "${json}" points ${i} round_totals)
  string(JSON met GET "${json}" points ${i} met)
  # CMake compares decimal strings only; the sweep's own comparison is checked through "met".
  if(NOT met STREQUAL "ON" AND NOT met STREQUAL "true")
    message(FATAL_ERROR "point ${i}: errors ${u} / ${du} above tolerance ${tolerance}")
  endif()
  if(NOT order GREATER 0 OR NOT rounds EQUAL 2)
    message(FATAL_ERROR "point ${i}: order ${order}, ${rounds} rounds")
  endif()
endforeach()
execute_process(COMMAND gnuplot -e "set terminal" RESULT_VARIABLE no_gnuplot
  OUTPUT_VARIABLE terminals ERROR_VARIABLE terminals)
if(no_gnuplot EQUAL 0 AND terminals MATCHES "pngcairo")
  execute_process(COMMAND bash "${PLOT}" "${DIR}" RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT EXISTS "${DIR}/tolerance.png")
    message(FATAL_ERROR "plot-report.sh failed (${status}): ${err}")
  endif()
endif()
