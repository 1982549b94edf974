# Runs vortex-ring in one process and with --mpi on RANKS ranks (ARGS the run's options), and
# compares the two diagnostics.csv files row by row: the particle count exactly, the impulse, the
# energy, the ring's position, radius, circulation and speed to TOLERANCE of their scale (default
# 1e-10).
#   cmake -DMPIEXEC=<mpiexec> -DRING=<vortex-ring> -DPYTHON=<python3> -DRANKS=<n> -DARGS=<options>
#         -DDIR=<work folder> [-DTOLERANCE=<t>] -P ring_mpi.cmake

cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
if(NOT DEFINED TOLERANCE)
  set(TOLERANCE 1e-10)
endif()
file(REMOVE_RECURSE "${DIR}")
separate_arguments(args UNIX_COMMAND "${ARGS}")
run_or_fail("vortex-ring" "${RING}" ${args} --backend cpu --no-plot --output "${DIR}/one")
run_or_fail("vortex-ring --mpi" "${MPIEXEC}" -n ${RANKS} "${RING}" --mpi ${args} --backend cpu
  --no-plot --output "${DIR}/ranks")
if(NOT out MATCHES "particles at the end")
  message(FATAL_ERROR "rank 0 printed no summary: ${out}")
endif()
run_or_fail("the comparison" "${PYTHON}" ${CMAKE_CURRENT_LIST_DIR}/compare_columns.py
  "${DIR}/one/diagnostics.csv" "${DIR}/ranks/diagnostics.csv" 0 count)
run_or_fail("the comparison" "${PYTHON}" ${CMAKE_CURRENT_LIST_DIR}/compare_columns.py
  "${DIR}/one/diagnostics.csv" "${DIR}/ranks/diagnostics.csv" ${TOLERANCE} impulse_z energy ring_z
  ring_r ring_circulation speed)
message(STATUS "${out}")
