# vortex-body's particle files carry the particles' velocity and vorticity: two steps on the
# smallest sphere, then CHECK (particle_output_check.cpp) reads the second step's particle file and
# checkpoint and compares the arrays with an independent direct sum of the particles and the
# sheet. The .pvd lists the files.
file(REMOVE_RECURSE ${DIR})
set(stream 1,0,0.25)
execute_process(COMMAND ${BODY} --frequency 2 --radius 0.5 --re 50 --dt 0.05 --spacing 0.2
  --stream ${stream} --steps 2 --every 1 --checkpoint-every 1 --backend cpu
  --no-plot --quiet --output ${DIR}/out RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vortex-body failed (${rc}):\n${out}${err}")
endif()
file(READ ${DIR}/out/particles.pvd pvd)
foreach(step 000001 000002)
  string(FIND "${pvd}" "particles-${step}.vtp" at)
  if(at LESS 0)
    message(FATAL_ERROR "particles.pvd does not list particles-${step}.vtp:\n${pvd}")
  endif()
endforeach()
execute_process(COMMAND ${CHECK} ${DIR}/out/particles-000002.vtp ${DIR}/out/checkpoint-000002.bin
  2 0.5 0.2 ${stream} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "particle_output_check failed (${rc}):\n${out}${err}")
endif()
