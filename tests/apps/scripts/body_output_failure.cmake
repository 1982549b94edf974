# vortex-body with an output that cannot be written: exits non-zero with an error that names the
# file, and writes no JSON summary that claims the run completed. /dev/full fails every write
# with ENOSPC; a file size limit fails the CSV partway through the run; an unwritable --json path
# fails before the first step.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/out)
set(common --frequency 2 --re 50 --dt 0.05 --spacing 0.2 --every 0 --no-plot --output ${DIR}/out)
set(prefix "")
if(KIND STREQUAL "csv-full")
  # A full disk under the CSV.
  file(CREATE_LINK /dev/full ${DIR}/out/diagnostics.csv SYMBOLIC)
  set(args --steps 2)
  set(expect "out/diagnostics.csv: cannot write: No space left on device")
elseif(KIND STREQUAL "csv-limit")
  # The CSV's first rows fit under the size limit (2 KiB, or 4 where sh counts in KiB), a later
  # one does not (EFBIG with SIGXFSZ ignored): the run must not end with a summary of its early
  # steps.
  set(prefix sh -c "ulimit -f 4 && trap '' XFSZ && exec \"$0\" \"$@\"")
  set(args --steps 8 --json ${DIR}/s.json)
  set(expect "out/diagnostics.csv: cannot write:")
elseif(KIND STREQUAL "json-full")
  # The summary on a device that takes no bytes: it cannot be replaced by a rename, it is written
  # in place and its failure reported.
  file(CREATE_LINK /dev/full ${DIR}/s.json SYMBOLIC)
  set(args --steps 1 --json ${DIR}/s.json)
  set(expect "s.json: cannot write: No space left on device")
elseif(KIND STREQUAL "json-missing-folder")
  set(args --steps 10 --json ${DIR}/none/s.json)
  set(expect "none/s.json: cannot write:")
elseif(KIND STREQUAL "json-proc")
  set(args --steps 10 --json /proc/vortex-body-summary.json)
  set(expect "/proc/vortex-body-summary.json: cannot write:")
else()
  message(FATAL_ERROR "unknown KIND ${KIND}")
endif()
string(TIMESTAMP start "%s")
execute_process(COMMAND ${prefix} ${BODY} ${common} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP end "%s")
if(rc EQUAL 0)
  message(FATAL_ERROR "vortex-body exited 0 with an unwritable output (${KIND}):\n${out}${err}")
endif()
string(FIND "${err}" "${expect}" at)
if(at LESS 0)
  message(FATAL_ERROR "error message '${err}' does not contain '${expect}' (${KIND})")
endif()
if(NOT KIND STREQUAL "json-full" AND EXISTS ${DIR}/s.json)
  message(FATAL_ERROR "vortex-body wrote a summary after a failed write (${KIND})")
endif()
if(KIND MATCHES "^json-(missing-folder|proc)$")
  # Refused at start-up: no step ran, nothing of a step was written.
  math(EXPR seconds "${end} - ${start}")
  if(out MATCHES "step [0-9]" OR EXISTS ${DIR}/out/diagnostics.csv OR seconds GREATER 20)
    message(FATAL_ERROR "the unwritable --json was found only after the run (${seconds} s):\n"
      "${out}")
  endif()
endif()
