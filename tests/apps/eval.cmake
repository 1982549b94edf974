# vortex-eval: its help, the result files it writes from CSV and VTP particles (direct and tree,
# with and without gradient and targets), and bad input refused cleanly.

add_test(NAME app.eval.help COMMAND vortex-eval --help)
set_tests_properties(app.eval.help PROPERTIES PASS_REGULAR_EXPRESSION
  "--method direct\\|tree.*--backend auto\\|cpu\\|cuda.*--core NAME")

# A small generated case shared by the vortex-eval tests (written by vortex-bench).
set(VORTEX_APP_CASE ${VORTEX_APP_TEST_DIR}/case)
file(MAKE_DIRECTORY ${VORTEX_APP_CASE})
add_test(NAME app.bench.write-particles
  COMMAND vortex-bench --case cube --n 600 --seed 3 --runs none
    --write-particles ${VORTEX_APP_CASE}/particles.csv)
add_test(NAME app.bench.write-targets
  COMMAND vortex-bench --case ring --n 200 --runs none
    --write-particles ${VORTEX_APP_CASE}/targets.csv)
add_test(NAME app.bench.write-particles-vtp
  COMMAND vortex-bench --case plummer --n 500 --seed 4 --runs none
    --write-particles ${VORTEX_APP_CASE}/particles.vtp)
set_tests_properties(app.bench.write-particles app.bench.write-targets
  app.bench.write-particles-vtp PROPERTIES FIXTURES_SETUP vortex_app_case)
set_tests_properties(app.bench.write-targets app.bench.write-particles-vtp PROPERTIES
  DEPENDS app.bench.write-particles)

function(vortex_eval_output_test name input output)
  add_test(NAME app.eval.${name} COMMAND ${CMAKE_COMMAND} -DEVAL=$<TARGET_FILE:vortex-eval>
    -DINPUT=${input} -DOUTPUT=${VORTEX_APP_CASE}/${output} ${ARGN}
    -P ${VORTEX_APP_SCRIPTS}/eval_output.cmake)
  set_tests_properties(app.eval.${name} PROPERTIES FIXTURES_REQUIRED vortex_app_case)
endfunction()
vortex_eval_output_test(csv-velocity ${VORTEX_APP_CASE}/particles.csv velocity.csv -DMETHOD=direct)
vortex_eval_output_test(csv-gradient ${VORTEX_APP_CASE}/particles.csv gradient.csv -DMETHOD=direct
  -DGRADIENT=ON)
vortex_eval_output_test(csv-targets ${VORTEX_APP_CASE}/particles.csv targets-out.csv
  -DMETHOD=direct -DGRADIENT=ON -DTARGETS=${VORTEX_APP_CASE}/targets.csv)
vortex_eval_output_test(vtp-in-vtp-out ${VORTEX_APP_CASE}/particles.vtp field.vtp -DMETHOD=direct
  -DGRADIENT=ON)
vortex_eval_output_test(tree-csv ${VORTEX_APP_CASE}/particles.csv tree.csv -DMETHOD=tree
  -DGRADIENT=ON)

foreach(kind nan inf sigma-zero sigma-negative not-a-number missing-column empty header-only
    unreadable vtp-radius bad-targets output-extension unknown-option bad-option-value cuda
    output-is-input output-unwritable output-before-input)
  add_test(NAME app.eval.bad-input.${kind} COMMAND ${CMAKE_COMMAND}
    -DEVAL=$<TARGET_FILE:vortex-eval> -DDIR=${VORTEX_APP_TEST_DIR}/bad-input-${kind}
    -DKIND=${kind} -P ${VORTEX_APP_SCRIPTS}/eval_bad_input.cmake)
endforeach()

# --check: the sampled accuracy check fails (status 3, results written) on a cloud with half its
# targets at one corner, where the treecode errs above the tolerance (against a direct sum written
# in the script), passes on the cube, and only reports where the tree options are set by hand.
find_program(VORTEX_TEST_PYTHON3 python3)
if(VORTEX_TEST_PYTHON3)
  add_test(NAME app.eval.check COMMAND ${VORTEX_TEST_PYTHON3} ${VORTEX_APP_SCRIPTS}/eval_check.py
    $<TARGET_FILE:vortex-eval> ${VORTEX_APP_TEST_DIR}/eval-check)
  set_tests_properties(app.eval.check PROPERTIES TIMEOUT 60)
endif()
