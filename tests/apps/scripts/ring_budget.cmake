# Runs a viscous vortex-ring (ARGS its options, NU its viscosity) and checks the energy budget of
# its diagnostics.csv with ring_budget.py: within TOLERANCE after the first SKIP intervals; then
# checks that the same file with a viscosity 10 % too large fails the budget check.
#   cmake -DRING=<vortex-ring> -DPYTHON=<python3> -DARGS=<options> -DNU=<nu> -DTOLERANCE=<t>
#         -DSKIP=<intervals> -DDIR=<work folder> -P ring_budget.cmake

cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE "${DIR}")
separate_arguments(args UNIX_COMMAND "${ARGS}")
run_or_fail("vortex-ring" "${RING}" ${args} --no-plot --quiet --output "${DIR}")
set(check ${CMAKE_CURRENT_LIST_DIR}/ring_budget.py "${DIR}/diagnostics.csv")
run_or_fail("the budget check" "${PYTHON}" ${check} ${NU} ${TOLERANCE} ${SKIP})
message(STATUS "${out}")
execute_process(COMMAND "${PYTHON}" -c "print(${NU} * 1.1)" OUTPUT_VARIABLE wrong_nu
  OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND "${PYTHON}" ${check} ${wrong_nu} ${TOLERANCE} ${SKIP}
  RESULT_VARIABLE rc OUTPUT_VARIABLE wrong_out ERROR_VARIABLE wrong_err)
if(rc EQUAL 0 OR NOT wrong_out MATCHES "budget off by")
  message(FATAL_ERROR "the budget check passed with nu = ${wrong_nu}:\n${wrong_out}${wrong_err}")
endif()
