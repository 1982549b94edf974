# vortex-bench (built with VORTEX_BUILD_BENCHMARKS): its help, its JSON, runs too large for the
# machine, the generated cases, report mode with its sweeps and plots, and the tolerance sweep.
if(NOT TARGET vortex-bench)
  return()
endif()

add_test(NAME app.bench.help COMMAND vortex-bench --help)
set_tests_properties(app.bench.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--case cube\\|plummer\\|ring.*--runs LIST.*--json FILE")
add_test(NAME app.bench.json-cube COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
  -DDIR=${VORTEX_APP_TEST_DIR}/bench-cube -DCASE=cube -DRUNS=cpu-direct,cpu-tree
  -P ${VORTEX_APP_SCRIPTS}/bench_json.cmake)
add_test(NAME app.bench.json-ring COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
  -DDIR=${VORTEX_APP_TEST_DIR}/bench-ring -DCASE=ring -DRUNS=cpu-tree-double
  -P ${VORTEX_APP_SCRIPTS}/bench_json.cmake)

# Runs too large for the machine are refused at once, with the numbers.
add_test(NAME app.bench.too-large COMMAND vortex-bench --n 2000000000000 --runs none)
add_test(NAME app.bench.largest-n COMMAND vortex-bench --n 18446744073709551615 --runs none)
set_tests_properties(app.bench.too-large app.bench.largest-n PROPERTIES TIMEOUT 20
  PASS_REGULAR_EXPRESSION "error: --n [0-9]+ \\(the particles, trees and results\\) needs about [0-9.e+]+ GB of memory; this machine has [0-9.e+]+ GB available")

# The two-scale and ellipsoid cases, the latter at 1e-30 scale: exit 0 and finite errors.
foreach(bench_case "two-scale|--n|2000" "ellipsoid|--n|2000|--scale|1e-30")
  string(REGEX MATCH "^[a-z-]+" name "${bench_case}")
  add_test(NAME app.bench.case-${name} COMMAND ${CMAKE_COMMAND}
    -DBENCH=$<TARGET_FILE:vortex-bench>
    "-DARGS=--case|${bench_case}|--runs|cpu-tree|--sample|200"
    -P ${VORTEX_APP_SCRIPTS}/bench_finite_errors.cmake)
  set_tests_properties(app.bench.case-${name} PROPERTIES TIMEOUT 60
    FAIL_REGULAR_EXPRESSION "nan|inf")
endforeach()
add_test(NAME app.bench.bad-runs COMMAND vortex-bench --n 10 --runs gpu-tree)
set_tests_properties(app.bench.bad-runs PROPERTIES PASS_REGULAR_EXPRESSION
  "vortex-bench: error: --runs: 'gpu-tree'")

# Report mode: the Figure 7 table, every sweep at tiny sizes and the plots, and a table whose
# direct sums are extrapolated from sampled targets.
add_test(NAME app.bench.report COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
  -DDIR=${VORTEX_APP_TEST_DIR}/bench-report
  -DPLOT=${PROJECT_SOURCE_DIR}/scripts/plot-report.sh
  -P ${VORTEX_APP_SCRIPTS}/bench_report.cmake)
add_test(NAME app.bench.report-extrapolated COMMAND ${CMAKE_COMMAND}
  -DBENCH=$<TARGET_FILE:vortex-bench> -DDIR=${VORTEX_APP_TEST_DIR}/bench-report-extrapolated
  -DEXTRAPOLATE=ON -P ${VORTEX_APP_SCRIPTS}/bench_report.cmake)
set_tests_properties(app.bench.report app.bench.report-extrapolated PROPERTIES TIMEOUT 120)
add_test(NAME app.bench.tolerance COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
  -DDIR=${VORTEX_APP_TEST_DIR}/bench-tolerance
  -DPLOT=${PROJECT_SOURCE_DIR}/scripts/plot-report.sh
  -P ${VORTEX_APP_SCRIPTS}/bench_tolerance.cmake)
set_tests_properties(app.bench.tolerance PROPERTIES TIMEOUT 120)
add_test(NAME app.bench.report-bad-sweep COMMAND vortex-bench --sweep sizes --out unused)
set_tests_properties(app.bench.report-bad-sweep PROPERTIES PASS_REGULAR_EXPRESSION
  "vortex-bench: error: --sweep: unknown sweep 'sizes'")
