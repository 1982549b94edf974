# vortex-bench-mpi (builds with MPI): its JSON on 1 CPU rank (particles in slabs) and 3 (in the
# solver's ranges, after a repartition), and a refused option.
if(TARGET vortex-bench-mpi)
  set(deal_1 slabs)
  set(deal_3 tree)
  foreach(ranks 1 3)
    add_test(NAME app.bench-mpi.json-${ranks} COMMAND ${CMAKE_COMMAND}
      -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DBENCH=$<TARGET_FILE:vortex-bench-mpi> -DRANKS=${ranks}
      -DDEAL=${deal_${ranks}}
      -DDIR=${VORTEX_APP_TEST_DIR}/bench-mpi-${ranks} -P ${VORTEX_APP_SCRIPTS}/bench_mpi_json.cmake)
    set_tests_properties(app.bench-mpi.json-${ranks} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks}
      ENVIRONMENT "${VORTEX_MPI_TEST_ENVIRONMENT}")
  endforeach()
  add_test(NAME app.bench-mpi.both-sizes COMMAND ${MPIEXEC_EXECUTABLE} -n 2
    $<TARGET_FILE:vortex-bench-mpi> --n 100 --per-rank 50)
  set_tests_properties(app.bench-mpi.both-sizes PROPERTIES TIMEOUT 60 PROCESSORS 2
    ENVIRONMENT "${VORTEX_MPI_TEST_ENVIRONMENT}" PASS_REGULAR_EXPRESSION
    "error: give --n or --per-rank, not both")
endif()
