# vortex-body: its help, a BEM-only run, bad input refused (also under an address-space limit),
# a restart that repeats the original run, the discoid script, outputs that cannot be written,
# and the particle files' fields against a direct sum.

set(VORTEX_BODY_TEST_DIR ${VORTEX_APP_TEST_DIR}/body)

add_test(NAME app.body.help COMMAND vortex-body --help)
set_tests_properties(app.body.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--body sphere\\|ellipsoid.*--re RE.*--json FILE.*--restart FILE")

add_test(NAME app.body.bem-only COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/bem-only -P ${VORTEX_APP_SCRIPTS}/body_bem_only.cmake)

foreach(kind re dt missing-mesh open-mesh inverted-mesh stretching relaxation-rate stop-after
    vrm-backend control-backend bem-precision merge-into particle-order bad-case
    shed-offset-negative shed-offset-zero shed-offset-large spacing-large frequency-large
    shed-layer-thin re-large dt-small speed-large shed-core-small memory merge-distance
    remove-threshold every-negative wall-exact-reach outflow-negative outflow-close
    case-bool-for-number case-bool-for-string case-number-for-string case-string-for-number
    case-string-for-flag case-unknown-key case-repeated-key case-unicode-escape field-grid-small
    field-grid-alone field-grid-memory max-growth-one)
  add_test(NAME app.body.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-${kind} -DKIND=${kind}
    -P ${VORTEX_APP_SCRIPTS}/body_ring_bad_input.cmake)
endforeach()
# A run that fits the machine but not a 2 GB address-space limit is refused under the limit
# (not in AddressSanitizer builds: their shadow memory cannot be reserved under such a limit).
if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize=address")
  add_test(NAME app.body.bad-input.memory-limit COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/bad-memory-limit
    -DKIND=memory-limit -DLIMIT_KB=2000000 -P ${VORTEX_APP_SCRIPTS}/body_ring_bad_input.cmake)
  set_tests_properties(app.body.bad-input.memory-limit PROPERTIES TIMEOUT 150)
endif()

add_test(NAME app.body.restart COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/restart -P ${VORTEX_APP_SCRIPTS}/body_restart.cmake)
set_tests_properties(app.body.restart PROPERTIES TIMEOUT 300)

add_test(NAME app.body.blow-up COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DDIR=${VORTEX_BODY_TEST_DIR}/blow-up -P ${VORTEX_APP_SCRIPTS}/body_blow_up.cmake)
set_tests_properties(app.body.blow-up PROPERTIES TIMEOUT 120)

add_test(NAME app.body.discoid-script COMMAND ${CMAKE_COMMAND} -DBUILD=$<TARGET_FILE_DIR:vortex-body>
  -DSCRIPT=${PROJECT_SOURCE_DIR}/scripts/discoid.sh -DDIR=${VORTEX_BODY_TEST_DIR}/discoid
  -P ${VORTEX_APP_SCRIPTS}/body_discoid.cmake)
set_tests_properties(app.body.discoid-script PROPERTIES TIMEOUT 300)

foreach(kind csv-full csv-limit json-full json-missing-folder json-proc)
  add_test(NAME app.body.output-failure.${kind} COMMAND ${CMAKE_COMMAND}
    -DBODY=$<TARGET_FILE:vortex-body> -DDIR=${VORTEX_BODY_TEST_DIR}/output-failure-${kind}
    -DKIND=${kind} -P ${VORTEX_APP_SCRIPTS}/body_output_failure.cmake)
  set_tests_properties(app.body.output-failure.${kind} PROPERTIES TIMEOUT 120)
endforeach()

# The particle files' velocity and vorticity against a direct sum of the particles and the sheet
# (the check is a program of its own, next to vortex-body's sources).
add_executable(particle_output_check ${PROJECT_SOURCE_DIR}/apps/body/particle_output_check.cpp)
target_link_libraries(particle_output_check PRIVATE vortex_bodies)
target_compile_options(particle_output_check PRIVATE -Wall -Wextra)
add_test(NAME app.body.particle-output COMMAND ${CMAKE_COMMAND} -DBODY=$<TARGET_FILE:vortex-body>
  -DCHECK=$<TARGET_FILE:particle_output_check> -DDIR=${VORTEX_BODY_TEST_DIR}/particle-output
  -P ${VORTEX_APP_SCRIPTS}/body_particle_output.cmake)
set_tests_properties(app.body.particle-output PROPERTIES TIMEOUT 120)

# scripts/body-force-origins.py: the forces about other impulse origins, against the shift
# 1/2 d × dOmega/dt on a made-up CSV; bad CSVs refused by line and column.
find_program(VORTEX_TEST_PYTHON3 python3)
if(VORTEX_TEST_PYTHON3)
  add_test(NAME app.body.force-origins COMMAND ${VORTEX_TEST_PYTHON3}
    ${VORTEX_APP_SCRIPTS}/force_origins_check.py ${PROJECT_SOURCE_DIR}/scripts/body-force-origins.py
    ${VORTEX_BODY_TEST_DIR}/force-origins)
  set_tests_properties(app.body.force-origins PROPERTIES TIMEOUT 60)
  # The impulse budget's columns: the wall's pressure and friction against the impulse route.
  add_test(NAME app.body.impulse-budget COMMAND ${VORTEX_TEST_PYTHON3}
    ${VORTEX_APP_SCRIPTS}/body_impulse_budget.py $<TARGET_FILE:vortex-body>
    ${VORTEX_BODY_TEST_DIR}/impulse-budget)
  set_tests_properties(app.body.impulse-budget PROPERTIES TIMEOUT 120)
  # scripts/studies/discoid-convergence.py: the observed order and Richardson estimate of made-up
  # series that follow f* + C h^p exactly.
  add_test(NAME app.body.convergence-script COMMAND ${VORTEX_TEST_PYTHON3}
    ${VORTEX_APP_SCRIPTS}/convergence_check.py
    ${PROJECT_SOURCE_DIR}/scripts/studies/discoid-convergence.py ${VORTEX_BODY_TEST_DIR}/convergence)
  set_tests_properties(app.body.convergence-script PROPERTIES TIMEOUT 60)
  # --field-grid: Q and |omega| against central differences of the written velocity, the far
  # field, the body's points, the wake centre, and the run unchanged by the sampling.
  # (numpy: the first Python that has it, else the one found, which then fails and says why)
  set(field_python ${VORTEX_TEST_PYTHON3})
  foreach(python ${VORTEX_TEST_PYTHON3} /usr/bin/python3)
    execute_process(COMMAND ${python} -c "import numpy" RESULT_VARIABLE no_numpy
      OUTPUT_QUIET ERROR_QUIET)
    if(no_numpy EQUAL 0)
      set(field_python ${python})
      break()
    endif()
  endforeach()
  add_test(NAME app.body.field-grid COMMAND ${field_python}
    ${VORTEX_APP_SCRIPTS}/body_field_grid.py $<TARGET_FILE:vortex-body>
    ${VORTEX_BODY_TEST_DIR}/field-grid)
  set_tests_properties(app.body.field-grid PROPERTIES TIMEOUT 180)
  # scripts/studies/disc-normal.py: the drag, side forces and their frequency of a made-up run,
  # by both routes; bad CSVs refused.
  add_test(NAME app.body.disc-normal-script COMMAND ${field_python}
    ${VORTEX_APP_SCRIPTS}/disc_normal_check.py ${PROJECT_SOURCE_DIR}/scripts/studies/disc-normal.py
    ${VORTEX_BODY_TEST_DIR}/disc-normal)
  set_tests_properties(app.body.disc-normal-script PROPERTIES TIMEOUT 60)
endif()
