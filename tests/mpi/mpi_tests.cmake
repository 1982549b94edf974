# Open MPI's settings for the tests: runs as root where the CI does, more ranks than cores, one
# thread a rank.
set(VORTEX_MPI_TEST_ENVIRONMENT
  "OMP_NUM_THREADS=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  CACHE INTERNAL "")

# vortex_add_mpi_test(<source> <ranks>...): one executable with an MPI main(), and a ctest test per
# rank count, named mpi.<name>.<ranks>, bounded by a timeout so that a hang fails rather than waits.
function(vortex_add_mpi_test source)
  get_filename_component(name ${source} NAME_WE)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/mpi/${source}
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi_main.cpp)
  target_link_libraries(${name} PRIVATE vortex_test_support vortex_mpi GTest::gtest)
  foreach(ranks ${ARGN})
    add_test(NAME mpi.${name}.${ranks}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
              $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(mpi.${name}.${ranks} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks}
      ENVIRONMENT "${VORTEX_MPI_TEST_ENVIRONMENT}")
  endforeach()
endfunction()

vortex_add_mpi_test(test_distributed_solver.cpp 1 2 3 4)
vortex_add_mpi_test(test_distributed_failures.cpp 1 2 3)
# The time-stepping toolkit with the distributed solver as its evaluator.
vortex_add_mpi_test(test_distributed_time_stepping.cpp 1 2 3)
# The C interface's distributed solver (vortex_mpi.h).
if(VORTEX_WITH_C)
  vortex_add_mpi_test(test_c_api_mpi.cpp 1 3)
  target_link_libraries(test_c_api_mpi PRIVATE vortex_c)
endif()
# The vortex method's steps on ranks: VRM and particle control with halos.
vortex_add_mpi_test(test_distributed_toolkit.cpp 1 2 3 4)
target_link_libraries(test_distributed_toolkit PRIVATE vortex_toolkit)
