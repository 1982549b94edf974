# Runs APP with ARGS and checks that it exits with an error whose message contains EXPECT.
#   cmake -DAPP=<app> "-DARGS=<arguments joined by |>" "-DEXPECT=<text>" -P expect_error.cmake

string(REPLACE "|" ";" ARGS "${ARGS}")  # the arguments come joined by |
execute_process(COMMAND ${APP} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# rc is a number for an exit, a text such as "Segmentation fault" for a signal.
if(NOT rc MATCHES "^[0-9]+$" OR rc EQUAL 0)
  message(FATAL_ERROR "expected an error exit, got '${rc}'\n${out}\n${err}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at LESS 0)
  message(FATAL_ERROR "error message '${err}' does not contain '${EXPECT}'")
endif()
