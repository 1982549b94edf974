# Script mode: install BUILD into WORK/prefix, build SOURCE/examples/cpp against it (with every
# installed header compiled on its own), run the examples.
file(REMOVE_RECURSE ${WORK})
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ${out}")
endfunction()
run("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
file(GLOB_RECURSE installed RELATIVE ${WORK}/prefix/include ${WORK}/prefix/include/*)
list(LENGTH installed count)
message(STATUS "installed headers: ${count}")
run("configure the examples" ${CMAKE_COMMAND} -S ${SOURCE}/examples/cpp -B ${WORK}/examples
  -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${WORK}/prefix -DVORTEX_CHECK_HEADERS=ON
  -DCMAKE_BUILD_TYPE=Release)
run("build the examples" ${CMAKE_COMMAND} --build ${WORK}/examples -j2)
run("ring_velocity" ${WORK}/examples/ring_velocity ${WORK}/ring.vtp)
if(NOT EXISTS ${WORK}/ring.vtp)
  message(FATAL_ERROR "ring_velocity wrote no ring.vtp")
endif()
run("sphere_step" ${WORK}/examples/sphere_step)
