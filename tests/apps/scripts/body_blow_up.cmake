# A step whose convection grows the strongest particle's |Gamma| beyond --max-growth ends the run
# with an error that says so, before its CSV row: the sphere of the restart test grows it 0.999,
# 1.0087 and 1.0050 times in its first three steps, so --max-growth 1.005 stops it in step 2 with
# one row written and no JSON summary.
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${BODY} --frequency 3 --re 50 --dt 0.05 --spacing 0.15 --quiet --no-plot
  --every 0 --steps 3 --backend cpu --max-growth 1.005 --output ${DIR}/out --json ${DIR}/s.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the run went on past --max-growth:\n${out}${err}")
endif()
foreach(e "the convection grew the strongest particle's |Gamma| 1.009 times in one step"
    "above max_growth 1.005: the stretching has outrun the time step")
  string(FIND "${err}" "${e}" at)
  if(at LESS 0)
    message(FATAL_ERROR "error message '${err}' (exit ${rc}) does not contain '${e}'")
  endif()
endforeach()
file(STRINGS ${DIR}/out/diagnostics.csv lines)
list(LENGTH lines n)
if(NOT n EQUAL 2 OR EXISTS ${DIR}/s.json)
  message(FATAL_ERROR "expected the header and step 1's row and no summary, got ${n} lines")
endif()
# The default (100) lets the same run through.
execute_process(COMMAND ${BODY} --frequency 3 --re 50 --dt 0.05 --spacing 0.15 --quiet --no-plot
  --every 0 --steps 3 --backend cpu --output ${DIR}/default RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the default --max-growth stopped a healthy run: ${err}")
endif()
