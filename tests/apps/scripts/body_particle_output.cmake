# vortex-body's particle files carry the particles' velocity and vorticity: two steps on the
# smallest sphere, then CHECK (apps/body/particle_output_check.cpp) reads the second step's
# particle file and checkpoint and compares the arrays with an independent direct sum of the
# particles and the sheet. The .pvd lists the files.
include(${CMAKE_CURRENT_LIST_DIR}/run_checks.cmake)
file(REMOVE_RECURSE ${DIR})
set(stream 1,0,0.25)
run_or_fail("vortex-body" ${BODY} --frequency 2 --radius 0.5 --re 50 --dt 0.05 --spacing 0.2
  --stream ${stream} --steps 2 --every 1 --checkpoint-every 1 --backend cpu
  --no-plot --quiet --output ${DIR}/out)
file(READ ${DIR}/out/particles.pvd pvd)
foreach(step 000001 000002)
  string(FIND "${pvd}" "particles-${step}.vtp" at)
  if(at LESS 0)
    message(FATAL_ERROR "particles.pvd does not list particles-${step}.vtp:\n${pvd}")
  endif()
endforeach()
run_or_fail("particle_output_check" ${CHECK} ${DIR}/out/particles-000002.vtp
  ${DIR}/out/checkpoint-000002.bin 2 0.5 0.2 ${stream})
message(STATUS "${out}")
