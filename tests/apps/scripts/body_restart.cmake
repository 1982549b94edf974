# A short run with checkpoints (every K steps and at the last), then a restart from the first
# checkpoint: the continued run repeats the forces of the original to rounding (the CSV rows are
# identical); restarts of another case are refused.
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE ${DIR})
# Fails unless line `line` of the CSV lines in lists `a` and `b` agrees in every column but the
# timing, memory and cost columns (named seconds*, *_bytes_per_particle and bem_products in the
# header: a restarted run's first solve computes the product that the run before took from its
# last solve).
function(expect_same_row a b line what)
  list(GET ${a} 0 header)
  list(GET ${a} ${line} row_a)
  list(GET ${b} ${line} row_b)
  string(REPLACE "," ";" names "${header}")
  string(REPLACE "," ";" cells_a "${row_a}")
  string(REPLACE "," ";" cells_b "${row_b}")
  list(LENGTH names n)
  list(LENGTH cells_a na)
  list(LENGTH cells_b nb)
  if(NOT na EQUAL n OR NOT nb EQUAL n)
    message(FATAL_ERROR "${what}: row ${line} has ${na} and ${nb} values for ${n} columns")
  endif()
  math(EXPR last "${n} - 1")
  foreach(k RANGE ${last})
    list(GET names ${k} name)
    if(name MATCHES "^seconds|_bytes_per_particle$|^bem_products$")
      continue()
    endif()
    list(GET cells_a ${k} x)
    list(GET cells_b ${k} y)
    if(NOT x STREQUAL y)
      message(FATAL_ERROR "${what} differs at row ${line} in ${name}:\n${row_a}\n${row_b}")
    endif()
  endforeach()
endfunction()
set(common --frequency 3 --re 50 --dt 0.05 --spacing 0.15 --quiet --no-plot --every 0)
run_or_fail("first run" ${BODY} ${common} --steps 2 --checkpoint-every 1 --output ${DIR}/a)
# A checkpoint of another case is refused before anything is written, naming the setting and
# both values.
foreach(case "--re;60|re = 50, this run has re = 60"
    "--dt;0.04|dt = 0.05, this run has dt = 0.04"
    "--radius;0.6|radius = 0.5, this run has radius = 0.6"
    "--body;ellipsoid|body = sphere, this run has body = ellipsoid"
    "--frequency;4|frequency = 3, this run has frequency = 4"
    "--angle;30|stream = 1,0,0, this run has stream = 0.866"
    "--spacing;0.1|h = 0.15, this run has h = 0.1"
    "--stretching;transpose|stretching = classical, this run has stretching = transpose")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts -1 expect)
  list(REMOVE_AT parts -1)
  execute_process(COMMAND ${BODY} ${common} ${parts} --steps 1
    --restart ${DIR}/a/checkpoint-000001.bin --output ${DIR}/refused RESULT_VARIABLE rc
    ERROR_VARIABLE err)
  string(FIND "${err}" "checkpoint-000001.bin: checkpoint was written with ${expect}" at)
  if(rc EQUAL 0 OR at LESS 0 OR EXISTS ${DIR}/refused)
    message(FATAL_ERROR "restart with ${parts}: expected a refusal naming '${expect}', got rc ${rc}: "
      "${err}")
  endif()
endforeach()
file(COPY ${DIR}/a/ DESTINATION ${DIR}/b)
run_or_fail("restarted run" ${BODY} ${common} --steps 1
  --restart ${DIR}/a/checkpoint-000001.bin --output ${DIR}/b)
file(STRINGS ${DIR}/a/diagnostics.csv original)
read_lines_expecting(${DIR}/b/diagnostics.csv 3 continued "restarted run")
expect_same_row(original continued 2 "restart")
# The velocity benchmark on the checkpoint's particles: its treecode within the default tolerance
# (2e-4) of the double-precision direct sum.
run_or_fail("--bench-velocity" ${BODY} ${common} --restart ${DIR}/a/checkpoint-000002.bin
  --bench-velocity 2 --bench-sample 200 --backend cpu --output ${DIR}/c)
if(NOT out MATCHES "median of 2 calls" OR
   NOT out MATCHES "velocity mean relative ([0-9.e+-]+), L2 [0-9.e+-]+; gradient mean relative ([0-9.e+-]+)")
  message(FATAL_ERROR "--bench-velocity printed no timing or errors:\n${out}")
endif()
set(u_err ${CMAKE_MATCH_1})
set(du_err ${CMAKE_MATCH_2})
if(NOT u_err LESS 2e-4 OR NOT du_err LESS 2e-4)
  message(FATAL_ERROR "--bench-velocity errors ${u_err} / ${du_err} exceed 2e-4:\n${out}")
endif()
# The boundary-element benchmark: on the checkpoint the sheet is already solved for its particles
# (no iteration, its residual within GMRES's tolerance, 1e-6); at t = 0+ from zero it iterates to
# the tolerance.
run_or_fail("--bench-bem on a checkpoint" ${BODY} ${common} --restart
  ${DIR}/a/checkpoint-000002.bin --bench-bem 2 --backend cpu --output ${DIR}/c)
if(NOT out MATCHES "boundary-element solve \\(GMRES\\): [0-9]+ panels, the checkpoint's particles" OR
   NOT out MATCHES "solve 2: [0-9.]+ s \\(right-hand side [0-9.]+ s\\), 0 iterations, residual ([0-9.e+-]+)")
  message(FATAL_ERROR "--bench-bem on a checkpoint printed no solve without iterations:\n${out}")
endif()
if(NOT CMAKE_MATCH_1 LESS 1e-6)
  message(FATAL_ERROR "--bench-bem: the checkpoint's sheet has residual ${CMAKE_MATCH_1}:\n${out}")
endif()
run_or_fail("--bench-bem at t = 0+" ${BODY} ${common} --bench-bem 2 --backend cpu --output ${DIR}/c)
if(NOT out MATCHES "solve 2: [0-9.]+ s \\(right-hand side [0-9.]+ s\\), ([1-9][0-9]*) iterations, residual ([0-9.e+-]+), ([0-9]+) products")
  message(FATAL_ERROR "--bench-bem at t = 0+ printed no iterated solve:\n${out}")
endif()
if(NOT CMAKE_MATCH_2 LESS 1e-6 OR NOT CMAKE_MATCH_3 GREATER CMAKE_MATCH_1)
  message(FATAL_ERROR "--bench-bem at t = 0+: residual ${CMAKE_MATCH_2}, ${CMAKE_MATCH_3} products for ${CMAKE_MATCH_1} iterations:\n${out}")
endif()
# A wall-time limit that every step passes: the run stops after its first step with that step's
# checkpoint, and the restart from it continues to the same rows as the uninterrupted run.
run_or_fail("--stop-after" ${BODY} ${common} --steps 2 --stop-after 1e-9 --output ${DIR}/d)
if(NOT out MATCHES "stopped after [0-9]+ s at step 1 of 2" OR
   NOT EXISTS ${DIR}/d/checkpoint-000001.bin)
  message(FATAL_ERROR "--stop-after did not stop after step 1 with a checkpoint:\n${out}${err}")
endif()
run_or_fail("run continued after --stop-after" ${BODY} ${common} --steps 1
  --restart ${DIR}/d/checkpoint-000001.bin --output ${DIR}/d)
read_lines_expecting(${DIR}/d/diagnostics.csv 3 stopped "stopped and continued run")
expect_same_row(original stopped 1 "stopped and continued run")
expect_same_row(original stopped 2 "stopped and continued run")
# With an outflow (the sphere's size is sqrt(3), so 2 behind it): a restart continues to the same
# rows, the outflow's column included; a restart with another outflow, or none, is refused by name.
run_or_fail("run with an outflow" ${BODY} ${common} --outflow 2 --steps 2 --checkpoint-every 1
  --output ${DIR}/e)
file(STRINGS ${DIR}/e/diagnostics.csv with_outflow)
list(GET with_outflow 0 header)
if(NOT header MATCHES ",outflow,wake_x,wake_y,wake_z,wake_strength$")
  message(FATAL_ERROR "the CSV has no outflow column:\n${header}")
endif()
file(COPY ${DIR}/e/ DESTINATION ${DIR}/f)
run_or_fail("restarted run with an outflow" ${BODY} ${common} --outflow 2 --steps 1
  --restart ${DIR}/e/checkpoint-000001.bin --output ${DIR}/f)
read_lines_expecting(${DIR}/f/diagnostics.csv 3 continued_outflow "restarted run with an outflow")
expect_same_row(with_outflow continued_outflow 2 "restart with an outflow")
foreach(case "--outflow;3|outflow = 2, this run has outflow = 3" "--outflow;0|this run has no outflow")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts -1 expect)
  list(REMOVE_AT parts -1)
  execute_process(COMMAND ${BODY} ${common} ${parts} --steps 1
    --restart ${DIR}/e/checkpoint-000001.bin --output ${DIR}/refused-outflow RESULT_VARIABLE rc
    ERROR_VARIABLE err)
  string(FIND "${err}" "${expect}" at)
  if(rc EQUAL 0 OR at LESS 0 OR EXISTS ${DIR}/refused-outflow)
    message(FATAL_ERROR "restart with ${parts}: expected a refusal naming '${expect}', got rc ${rc}: "
      "${err}")
  endif()
endforeach()
# A CSV of other columns (another build's) is not continued: the run says so and writes no row.
file(COPY ${DIR}/e/ DESTINATION ${DIR}/g)
file(READ ${DIR}/g/diagnostics.csv text)
string(REPLACE ",wake_strength\n" "\n" text "${text}")
file(WRITE ${DIR}/g/diagnostics.csv "${text}")
execute_process(COMMAND ${BODY} ${common} --outflow 2 --steps 1
  --restart ${DIR}/e/checkpoint-000001.bin --output ${DIR}/g RESULT_VARIABLE rc ERROR_VARIABLE err)
string(FIND "${err}" "its columns are not this build's" at)
if(rc EQUAL 0 OR at LESS 0)
  message(FATAL_ERROR "a CSV of other columns was continued (rc ${rc}): ${err}")
endif()
# --checkpoint-every writes at the run's last step too, where the step is not a multiple of it:
# a longer run continues from the end.
run_or_fail("run ending between checkpoints" ${BODY} ${common} --steps 3 --checkpoint-every 2
  --output ${DIR}/h)
foreach(step 000002 000003)
  if(NOT EXISTS ${DIR}/h/checkpoint-${step}.bin)
    message(FATAL_ERROR "--steps 3 --checkpoint-every 2 wrote no checkpoint-${step}.bin")
  endif()
endforeach()
if(EXISTS ${DIR}/h/checkpoint-000001.bin)
  message(FATAL_ERROR "--checkpoint-every 2 wrote a checkpoint at step 1")
endif()
