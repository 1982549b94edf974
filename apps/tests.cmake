# Smoke tests of the command-line apps (included by the top-level CMakeLists.txt with tests and
# apps on). Each test works in its own folder under the build tree.

set(VORTEX_APP_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/app-tests)
set(VORTEX_APP_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/apps/tests)

add_test(NAME app.eval.help COMMAND vortex-eval --help)
set_tests_properties(app.eval.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--method direct\\|tree.*--backend auto\\|cpu\\|cuda.*--core NAME")

# A small generated case shared by the vortex-eval tests.
set(VORTEX_APP_CASE ${VORTEX_APP_TEST_DIR}/case)
file(MAKE_DIRECTORY ${VORTEX_APP_CASE})
add_test(NAME app.bench.write-particles
  COMMAND vortex-bench --case cube --n 600 --seed 3 --runs none
    --write-particles ${VORTEX_APP_CASE}/particles.csv)
add_test(NAME app.bench.write-targets
  COMMAND vortex-bench --case ring --n 200 --runs none
    --write-particles ${VORTEX_APP_CASE}/targets.csv)
add_test(NAME app.bench.write-particles-vtp
  COMMAND vortex-bench --case plummer --n 500 --seed 4 --runs none
    --write-particles ${VORTEX_APP_CASE}/particles.vtp)
set_tests_properties(app.bench.write-particles app.bench.write-targets
  app.bench.write-particles-vtp PROPERTIES FIXTURES_SETUP vortex_app_case)
set_tests_properties(app.bench.write-targets app.bench.write-particles-vtp PROPERTIES
  DEPENDS app.bench.write-particles)

function(vortex_eval_output_test name input output)
  add_test(NAME app.eval.${name} COMMAND ${CMAKE_COMMAND} -DEVAL=$<TARGET_FILE:vortex-eval>
    -DINPUT=${input} -DOUTPUT=${VORTEX_APP_CASE}/${output} ${ARGN}
    -P ${VORTEX_APP_SCRIPTS}/eval_output.cmake)
  set_tests_properties(app.eval.${name} PROPERTIES FIXTURES_REQUIRED vortex_app_case)
endfunction()
vortex_eval_output_test(csv-velocity ${VORTEX_APP_CASE}/particles.csv velocity.csv -DMETHOD=direct)
vortex_eval_output_test(csv-gradient ${VORTEX_APP_CASE}/particles.csv gradient.csv -DMETHOD=direct
  -DGRADIENT=ON)
vortex_eval_output_test(csv-targets ${VORTEX_APP_CASE}/particles.csv targets-out.csv
  -DMETHOD=direct -DGRADIENT=ON -DTARGETS=${VORTEX_APP_CASE}/targets.csv)
vortex_eval_output_test(vtp-in-vtp-out ${VORTEX_APP_CASE}/particles.vtp field.vtp -DMETHOD=direct
  -DGRADIENT=ON)
vortex_eval_output_test(tree-csv ${VORTEX_APP_CASE}/particles.csv tree.csv -DMETHOD=tree
  -DGRADIENT=ON)

foreach(kind nan inf sigma-zero sigma-negative not-a-number missing-column empty header-only
    unreadable vtp-radius bad-targets output-extension unknown-option bad-option-value cuda
    output-is-input output-unwritable output-before-input)
  add_test(NAME app.eval.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DEVAL=$<TARGET_FILE:vortex-eval> -DDIR=${VORTEX_APP_TEST_DIR}/bad-input-${kind}
    -DKIND=${kind} -P ${VORTEX_APP_SCRIPTS}/bad_input.cmake)
endforeach()

if(TARGET vortex-bench)
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
  add_test(NAME app.ring.too-many-layers COMMAND vortex-ring --layers 100 --steps 1 --no-plot
    --output ${VORTEX_APP_TEST_DIR}/ring-too-many-layers)
  set_tests_properties(app.ring.too-many-layers PROPERTIES TIMEOUT 20 PASS_REGULAR_EXPRESSION
    "error: --layers 100 \\([0-9]+ particles per ring\\) needs about [0-9.e+]+ GB of memory")
  add_test(NAME app.ring.relaxation-rate COMMAND vortex-ring --relaxation-rate 300 --dt 0.005
    --steps 1 --no-plot --output ${VORTEX_APP_TEST_DIR}/ring-relaxation-rate)
  set_tests_properties(app.ring.relaxation-rate PROPERTIES TIMEOUT 20 PASS_REGULAR_EXPRESSION
    "--relaxation-rate 300.000000 with --dt 0.005000 turns the strengths by more")
  # The two-scale and ellipsoid cases, the latter at 1e-30 scale: exit 0 and finite errors.
  file(WRITE ${VORTEX_APP_TEST_DIR}/bench_finite_errors.cmake [=[
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
# The last four columns: u.mean, du.mean, u.L2, du.L2.
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
]=])
  foreach(bench_case "two-scale|--n|2000" "ellipsoid|--n|2000|--scale|1e-30")
    string(REGEX MATCH "^[a-z-]+" name "${bench_case}")
    add_test(NAME app.bench.case-${name} COMMAND ${CMAKE_COMMAND}
      -DBENCH=$<TARGET_FILE:vortex-bench>
      "-DARGS=--case|${bench_case}|--runs|cpu-tree|--sample|200"
      -P ${VORTEX_APP_TEST_DIR}/bench_finite_errors.cmake)
    set_tests_properties(app.bench.case-${name} PROPERTIES TIMEOUT 60
      FAIL_REGULAR_EXPRESSION "nan|inf")
  endforeach()
  add_test(NAME app.bench.bad-runs COMMAND vortex-bench --n 10 --runs gpu-tree)
  set_tests_properties(app.bench.bad-runs PROPERTIES PASS_REGULAR_EXPRESSION
    "vortex-bench: error: --runs: 'gpu-tree'")
endif()

# Report mode: the Figure 7 table, every sweep at tiny sizes and the plots, and a table whose
# direct sums are extrapolated from sampled targets.
if(TARGET vortex-bench)
  add_test(NAME app.bench.report COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
    -DDIR=${VORTEX_APP_TEST_DIR}/bench-report
    -DPLOT=${CMAKE_CURRENT_SOURCE_DIR}/scripts/plot-report.sh
    -P ${VORTEX_APP_SCRIPTS}/report_smoke.cmake)
  add_test(NAME app.bench.report-extrapolated COMMAND ${CMAKE_COMMAND}
    -DBENCH=$<TARGET_FILE:vortex-bench> -DDIR=${VORTEX_APP_TEST_DIR}/bench-report-extrapolated
    -DEXTRAPOLATE=ON -P ${VORTEX_APP_SCRIPTS}/report_smoke.cmake)
  set_tests_properties(app.bench.report app.bench.report-extrapolated PROPERTIES TIMEOUT 120)
  add_test(NAME app.bench.tolerance COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:vortex-bench>
    -DDIR=${VORTEX_APP_TEST_DIR}/bench-tolerance
    -DPLOT=${CMAKE_CURRENT_SOURCE_DIR}/scripts/plot-report.sh
    -P ${VORTEX_APP_SCRIPTS}/tolerance_smoke.cmake)
  set_tests_properties(app.bench.tolerance PROPERTIES TIMEOUT 120)
  add_test(NAME app.bench.report-bad-sweep COMMAND vortex-bench --sweep sizes --out unused)
  set_tests_properties(app.bench.report-bad-sweep PROPERTIES PASS_REGULAR_EXPRESSION
    "vortex-bench: error: --sweep: unknown sweep 'sizes'")
endif()

# One name and one help text for every option that vortex-body and vortex-ring both offer.
if(TARGET vortex-body AND TARGET vortex-ring)
  add_test(NAME app.shared-options COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
    -DRING=$<TARGET_FILE:vortex-ring> -P ${VORTEX_APP_SCRIPTS}/shared_options.cmake)
  set_tests_properties(app.shared-options PROPERTIES TIMEOUT 30)
endif()

# A thread count past the limit (kMaxThreads) is refused by every app with a message naming it,
# before any thread is started with that count.
file(WRITE ${VORTEX_APP_TEST_DIR}/expect_error.cmake [=[
string(REPLACE "|" ";" ARGS "${ARGS}")  # the arguments come joined by |
execute_process(COMMAND ${APP} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# rc is a number for an exit, a text such as "Segmentation fault" for a signal.
if(NOT rc MATCHES "^[0-9]+$" OR rc EQUAL 0)
  message(FATAL_ERROR "expected an error exit, got '${rc}'\n${out}\n${err}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at LESS 0)
  message(FATAL_ERROR "error message '${err}' does not contain '${EXPECT}'")
endif()
]=])
set(threads_error "--threads must be in 0..1024 (0: OpenMP's default), got 100000")
set(VORTEX_THREAD_LIMIT_ARGS_eval ${VORTEX_APP_CASE}/particles.csv
  -o ${VORTEX_APP_TEST_DIR}/threads-eval.csv --method direct)
set(VORTEX_THREAD_LIMIT_ARGS_ring --steps 1 --no-plot --output ${VORTEX_APP_TEST_DIR}/threads-ring)
set(VORTEX_THREAD_LIMIT_ARGS_body --steps 1 --no-plot --output ${VORTEX_APP_TEST_DIR}/threads-body)
set(VORTEX_THREAD_LIMIT_ARGS_bench --n 200 --runs cpu-direct)
foreach(app eval ring body bench)
  if(TARGET vortex-${app})
    string(REPLACE ";" "|" args "${VORTEX_THREAD_LIMIT_ARGS_${app}};--threads;100000")
    add_test(NAME app.${app}.threads-limit COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:vortex-${app}> "-DARGS=${args}" "-DEXPECT=${threads_error}"
      -P ${VORTEX_APP_TEST_DIR}/expect_error.cmake)
    set_tests_properties(app.${app}.threads-limit PROPERTIES TIMEOUT 30)
  endif()
endforeach()
set_tests_properties(app.eval.threads-limit PROPERTIES FIXTURES_REQUIRED vortex_app_case)
