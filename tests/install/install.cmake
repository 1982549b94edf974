# The installed package as a user sees it: the build installed into a folder of the build tree,
# then examples/cpp configured against it with find_package(vortex), every installed header
# compiled on its own, and the examples run.
set(VORTEX_INSTALL_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/install-test)
add_test(NAME install.package
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSOURCE=${PROJECT_SOURCE_DIR}
    -DWORK=${VORTEX_INSTALL_TEST_DIR} -DGENERATOR=${CMAKE_GENERATOR}
    -P ${CMAKE_CURRENT_LIST_DIR}/check_install.cmake)
set_tests_properties(install.package PROPERTIES TIMEOUT 900 RUN_SERIAL ON)
