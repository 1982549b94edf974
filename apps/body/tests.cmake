# Smoke tests of vortex-body (included by the top-level CMakeLists.txt with tests and apps on).

set(VORTEX_BODY_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/app-tests/body)
set(VORTEX_BODY_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/apps/body)

add_test(NAME app.body.help COMMAND vortex-body --help)
set_tests_properties(app.body.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--body sphere\\|ellipsoid.*--re RE.*--json FILE.*--restart FILE")

add_test(NAME app.body.bem-only COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/bem-only -P ${VORTEX_BODY_SCRIPTS}/bem_only_test.cmake)

foreach(kind re dt missing-mesh open-mesh inverted-mesh stretching relaxation-rate stop-after
    vrm-backend bad-case)
  add_test(NAME app.body.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-${kind} -DKIND=${kind}
    -P ${VORTEX_BODY_SCRIPTS}/bad_input_test.cmake)
endforeach()

add_test(NAME app.body.restart COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/restart -P ${VORTEX_BODY_SCRIPTS}/restart_test.cmake)
set_tests_properties(app.body.restart PROPERTIES TIMEOUT 300)

add_test(NAME app.body.discoid-script COMMAND ${CMAKE_COMMAND} -DBUILD=$<TARGET_FILE_DIR:vortex-body>
  -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/scripts/discoid.sh -DDIR=${VORTEX_BODY_TEST_DIR}/discoid
  -P ${VORTEX_BODY_SCRIPTS}/discoid_test.cmake)
set_tests_properties(app.body.discoid-script PROPERTIES TIMEOUT 300)

foreach(kind csv-full csv-limit json-full json-missing-folder json-proc)
  add_test(NAME app.body.output-failure.${kind} COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/output-failure-${kind}
    -DKIND=${kind} -P ${VORTEX_BODY_SCRIPTS}/output_failure_test.cmake)
  set_tests_properties(app.body.output-failure.${kind} PROPERTIES TIMEOUT 120)
endforeach()
