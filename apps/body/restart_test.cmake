# A short run with checkpoints, then a restart from the first checkpoint: the continued run
# repeats the forces of the original to rounding (the CSV rows are identical).
file(REMOVE_RECURSE ${DIR})
set(common --frequency 3 --re 50 --dt 0.05 --spacing 0.15 --quiet --no-plot --every 0)
execute_process(COMMAND ${BODY} ${common} --steps 2 --checkpoint-every 1 --out ${DIR}/a
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "first run failed: ${err}")
endif()
file(COPY ${DIR}/a/ DESTINATION ${DIR}/b)
execute_process(COMMAND ${BODY} ${common} --steps 1 --restart ${DIR}/a/checkpoint-000001.bin
  --out ${DIR}/b RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "restarted run failed: ${err}")
endif()
file(STRINGS ${DIR}/a/diagnostics.csv original)
file(STRINGS ${DIR}/b/diagnostics.csv continued)
list(LENGTH continued rows)
if(NOT rows EQUAL 3)
  message(FATAL_ERROR "restarted CSV has ${rows} lines, expected 3")
endif()
list(GET original 2 row_a)
list(GET continued 2 row_b)
# Compare all but the timing columns (the last four).
string(REGEX REPLACE ",[^,]*,[^,]*,[^,]*,[^,]*$" "" row_a "${row_a}")
string(REGEX REPLACE ",[^,]*,[^,]*,[^,]*,[^,]*$" "" row_b "${row_b}")
if(NOT row_a STREQUAL row_b)
  message(FATAL_ERROR "restart differs:\n${row_a}\n${row_b}")
endif()
