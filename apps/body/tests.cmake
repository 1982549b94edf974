# Smoke tests of vortex-body (included by the top-level CMakeLists.txt with tests and apps on).

set(VORTEX_BODY_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/app-tests/body)
set(VORTEX_BODY_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/apps/body)

add_test(NAME app.body.help COMMAND vortex-body --help)
set_tests_properties(app.body.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--body sphere\\|ellipsoid.*--re RE.*--json FILE.*--restart FILE")

add_test(NAME app.body.bem-only COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/bem-only -P ${VORTEX_BODY_SCRIPTS}/bem_only_test.cmake)

foreach(kind re dt missing-mesh open-mesh inverted-mesh stretching relaxation-rate stop-after
    vrm-backend bad-case
    shed-offset-negative shed-offset-zero shed-offset-large spacing-large frequency-large
    shed-layer-thin re-large dt-small speed-large shed-core-small memory merge-distance
    remove-threshold every-negative
    case-bool-for-number case-bool-for-string case-number-for-string case-string-for-number
    case-string-for-flag case-unknown-key case-repeated-key case-unicode-escape)
  add_test(NAME app.body.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-${kind} -DKIND=${kind}
    -P ${VORTEX_BODY_SCRIPTS}/bad_input_test.cmake)
endforeach()
# A run that fits the machine but not a 2 GB address-space limit is refused under the limit
# (not in AddressSanitizer builds: their shadow memory cannot be reserved under such a limit).
if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize=address")
  add_test(NAME app.body.bad-input.memory-limit COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-memory-limit
    -DKIND=memory-limit -DLIMIT_KB=2000000 -P ${VORTEX_BODY_SCRIPTS}/bad_input_test.cmake)
  set_tests_properties(app.body.bad-input.memory-limit PROPERTIES TIMEOUT 150)
endif()

# vortex-ring's input checks, and its case files (read by the same strict reader).
foreach(kind re-negative nu-negative dt-small core-radius merge-distance progress-negative
    case-bool-for-number case-bool-for-integer case-unicode-escape)
  add_test(NAME app.ring.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DRING=$<TARGET_FILE:vortex-ring> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-ring-${kind}
    -DKIND=ring-${kind} -P ${VORTEX_BODY_SCRIPTS}/bad_input_test.cmake)
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

# The particle files' velocity and vorticity against a direct sum of the particles and the sheet.
add_executable(particle_output_check ${VORTEX_BODY_SCRIPTS}/particle_output_check.cpp)
target_link_libraries(particle_output_check PRIVATE vortex_bodies)
target_compile_options(particle_output_check PRIVATE -Wall -Wextra)
add_test(NAME app.body.particle-output COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DCHECK=$<TARGET_FILE:particle_output_check> -DDIR=${VORTEX_BODY_TEST_DIR}/particle-output
  -P ${VORTEX_BODY_SCRIPTS}/particle_output_test.cmake)
set_tests_properties(app.body.particle-output PROPERTIES TIMEOUT 120)
