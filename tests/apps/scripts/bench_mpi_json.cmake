# Runs vortex-bench-mpi on RANKS ranks at a small size and checks its JSON: the schema, a stage
# table whose total is at least its sums, and errors against the direct sum within the default
# tolerance (2e-4).
#   cmake -DMPIEXEC=<mpiexec> -DBENCH=<vortex-bench-mpi> -DRANKS=<n> -DDIR=<work folder>
#         -P bench_mpi_json.cmake

cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/json_checks.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(json_file "${DIR}/bench.json")
run_or_fail("vortex-bench-mpi" "${MPIEXEC}" -n ${RANKS} "${BENCH}" --case plummer --n 20000
  --repeat 2 --sample 200 --backend cpu --json "${json_file}")
if(NOT out MATCHES "20000 particles on ${RANKS} ranks")
  message(FATAL_ERROR "the run is not described: ${out}")
endif()
file(READ "${json_file}" json)
foreach(key case particles ranks deal gradient backend precision device tree slowest mean
    imbalance totals let_nodes_received_rank0 let_particles_received_rank0 errors)
  string(JSON type ERROR_VARIABLE missing TYPE "${json}" ${key})
  if(missing)
    message(FATAL_ERROR "bench.json has no '${key}': ${json}")
  endif()
endforeach()
string(JSON ranks GET "${json}" ranks)
if(NOT ranks EQUAL RANKS)
  message(FATAL_ERROR "ranks is ${ranks}, expected ${RANKS}")
endif()
foreach(stage agree partition upward exchange lists sums results total)
  require_number("${json}" slowest ${stage})
  require_number("${json}" mean ${stage})
endforeach()
string(JSON total GET "${json}" slowest total)
string(JSON sums GET "${json}" slowest sums)
if(total LESS sums)
  message(FATAL_ERROR "the slowest total ${total} s is less than its sums ${sums} s")
endif()
foreach(field velocity_mean_rel gradient_mean_rel)
  string(JSON e GET "${json}" errors ${field})
  if(NOT e LESS 2e-4)
    message(FATAL_ERROR "${field} ${e} is not below 2e-4")
  endif()
endforeach()
