# Smoke tests of the command-line apps, included by the top-level CMakeLists.txt with tests and
# apps on (after the apps, whose targets they run). One file per app registers its tests
# (app.<app>.*); tests/apps/scripts/ holds what they run in CMake's script mode (cmake -P). Each
# test works in its own folder under the build tree's app-tests/.

set(VORTEX_APP_TEST_DIR ${PROJECT_BINARY_DIR}/app-tests)
set(VORTEX_APP_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/scripts)

include(${CMAKE_CURRENT_LIST_DIR}/eval.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/bench.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/ring.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/body.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/bench_mpi.cmake)

# What the apps share: one name and one help text for every option that vortex-body and
# vortex-ring both offer.
if(TARGET vortex-body AND TARGET vortex-ring)
  add_test(NAME app.shared-options COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
    -DRING=$<TARGET_FILE:vortex-ring> -P ${VORTEX_APP_SCRIPTS}/shared_options.cmake)
  set_tests_properties(app.shared-options PROPERTIES TIMEOUT 30)
endif()

# A thread count past the limit (kMaxThreads) is refused by every app with a message naming it,
# before any thread is started with that count.
set(threads_error "--threads must be in 0..1024 (0: OpenMP's default), got 100000")
set(VORTEX_THREAD_LIMIT_ARGS_eval ${VORTEX_APP_CASE}/particles.csv
  -o ${VORTEX_APP_TEST_DIR}/threads-eval.csv --method direct)
set(VORTEX_THREAD_LIMIT_ARGS_ring --steps 1 --no-plot --output ${VORTEX_APP_TEST_DIR}/threads-ring)
set(VORTEX_THREAD_LIMIT_ARGS_body --steps 1 --no-plot --output ${VORTEX_APP_TEST_DIR}/threads-body)
set(VORTEX_THREAD_LIMIT_ARGS_bench --n 200 --runs cpu-direct)
foreach(app eval ring body bench)
  if(TARGET vortex-${app})
    string(REPLACE ";" "|" args "${VORTEX_THREAD_LIMIT_ARGS_${app}};--threads;100000")
    add_test(NAME app.${app}.threads-limit COMMAND ${CMAKE_COMMAND}
      -DAPP=$<TARGET_FILE:vortex-${app}> "-DARGS=${args}" "-DEXPECT=${threads_error}"
      -P ${VORTEX_APP_SCRIPTS}/expect_error.cmake)
    set_tests_properties(app.${app}.threads-limit PROPERTIES TIMEOUT 30)
  endif()
endforeach()
# vortex-eval reads the case that eval.cmake's fixture writes.
set_tests_properties(app.eval.threads-limit PROPERTIES FIXTURES_REQUIRED vortex_app_case)
