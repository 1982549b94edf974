# Runs vortex-bench at a small size and checks its JSON against the documented schema:
#   {"case","n","seed","core","results":[{"method","backend","precision","tree_build","n_targets_timed",
#    "times":{"total","tree","multipole","lists","near","far","transfer","setup",
#             "far_plan","m2l","l2l","l2p","m2p"},"interactions_per_s",
#    "error":{"velocity_mean_rel","gradient_mean_rel","velocity_rel_l2","gradient_rel_l2",
#             "n_sampled"}}]}
#   cmake -DBENCH=<vortex-bench> -DDIR=<work folder> -DCASE=<case> -DRUNS=<runs> -P bench_json.cmake

cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/json_checks.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(json_file "${DIR}/bench.json")
run_or_fail("vortex-bench" "${BENCH}" --case ${CASE} --n 1500 --seed 7 --runs ${RUNS} --sample 200
  --order 6 --json "${json_file}")
if(NOT out MATCHES "seed = 7")
  message(FATAL_ERROR "the seed is not printed: ${out}")
endif()
file(READ "${json_file}" json)

# The members of the object at ARGN are exactly `expected`.
function(require_keys json_text expected)
  string(JSON count LENGTH "${json_text}" ${ARGN})
  set(keys "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${json_text}" ${ARGN} ${i})
    list(APPEND keys "${key}")
  endforeach()
  # CMake lists an object's members in sorted order; compare as sets.
  list(SORT keys)
  list(SORT expected)
  if(NOT keys STREQUAL expected)
    message(FATAL_ERROR "keys of '${ARGN}' are '${keys}', expected '${expected}'")
  endif()
endfunction()

require_keys("${json}" "case;n;seed;core;results")
string(JSON case_name GET "${json}" case)
string(JSON seed GET "${json}" seed)
string(JSON core GET "${json}" core)
if(NOT case_name STREQUAL CASE OR NOT seed EQUAL 7 OR NOT core STREQUAL "exponential")
  message(FATAL_ERROR "case/seed/core are ${case_name}/${seed}/${core}")
endif()
require_number("${json}" n)
string(JSON n GET "${json}" n)
string(REPLACE "," ";" run_list "${RUNS}")
list(LENGTH run_list expected_runs)
string(JSON runs LENGTH "${json}" results)
if(NOT runs EQUAL expected_runs)
  message(FATAL_ERROR "${runs} results for ${expected_runs} runs")
endif()
math(EXPR last "${runs} - 1")
foreach(r RANGE ${last})
  string(JSON method GET "${json}" results ${r} method)
  # Tree runs also record the tree options used and the tolerance they were picked for.
  set(tree_keys "")
  if(method STREQUAL "tree")
    set(tree_keys ";tree;tolerance")
    require_keys("${json}" "order;theta;kappa;target_bucket;source_bucket;arity"
      results ${r} tree)
    require_number("${json}" results ${r} tree order)
    require_number("${json}" results ${r} tolerance)
  endif()
  require_keys("${json}"
    "method;backend;precision;tree_build;n_targets_timed;times;interactions_per_s;pair_interactions;multipole_interactions;device_bytes;pinned_bytes;peak_host_bytes;pair_gflops;far_gflops_at_order_p;near_peak_fraction;far_peak_fraction;device_fp32_peak;near_items;far_items;near_item_max;far_item_max;error${tree_keys}"
    results ${r})
  # The process's peak resident set holds at least the case's particles (7 doubles each).
  string(JSON peak GET "${json}" results ${r} peak_host_bytes)
  math(EXPR particle_bytes "${n} * 56")
  if(peak LESS particle_bytes)
    message(FATAL_ERROR "peak_host_bytes ${peak} below the particles' ${n} * 56 bytes")
  endif()
  string(JSON pairs GET "${json}" results ${r} pair_interactions)
  if(pairs LESS_EQUAL 0)
    message(FATAL_ERROR "pair_interactions ${pairs}: no pair was summed")
  endif()
  require_keys("${json}"
    "total;tree;multipole;lists;near;far;transfer;setup;far_plan;m2l;l2l;l2p;m2p"
    results ${r} times)
  require_keys("${json}"
    "velocity_mean_rel;gradient_mean_rel;velocity_rel_l2;gradient_rel_l2;n_sampled"
    results ${r} error)
  foreach(stage total tree multipole lists near far transfer setup far_plan m2l l2l l2p m2p)
    require_number("${json}" results ${r} times ${stage})
  endforeach()
  foreach(metric velocity_mean_rel gradient_mean_rel velocity_rel_l2 gradient_rel_l2 n_sampled)
    require_number("${json}" results ${r} error ${metric})
  endforeach()
  require_number("${json}" results ${r} interactions_per_s)
  string(JSON timed GET "${json}" results ${r} n_targets_timed)
  string(JSON sampled GET "${json}" results ${r} error n_sampled)
  if(NOT timed EQUAL n OR NOT sampled EQUAL 200)
    message(FATAL_ERROR "n_targets_timed ${timed} (n = ${n}), n_sampled ${sampled}")
  endif()
  string(JSON method GET "${json}" results ${r} method)
  string(JSON backend GET "${json}" results ${r} backend)
  string(JSON precision GET "${json}" results ${r} precision)
  list(GET run_list ${r} run)
  if(NOT run MATCHES "^${backend}-${method}" OR NOT precision MATCHES "^(double|float)$")
    message(FATAL_ERROR "result ${r} is ${backend}/${method}/${precision} for run ${run}")
  endif()
  # A direct sum on the CPU in double precision is the reference itself.
  if(method STREQUAL "direct" AND backend STREQUAL "cpu" AND precision STREQUAL "double")
    string(JSON error GET "${json}" results ${r} error velocity_rel_l2)
    if(error GREATER 1e-12)
      message(FATAL_ERROR "cpu-direct differs from the reference: ${error}")
    endif()
  endif()
endforeach()
message(STATUS "${json_file}: ${runs} results, schema as documented")
