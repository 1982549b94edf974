# What the scripts share: running a program that must succeed, and a file that must hold a given
# number of lines. Included by the scripts (cmake -P), from their own folder.

# Runs the command in ARGN and stops the test, with what the command printed, unless it exits 0;
# leaves its standard output and error in `out` and `err`. `what` names the run in the message.
function(run_or_fail what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${stdout}\n${stderr}")
  endif()
  set(out "${stdout}" PARENT_SCOPE)
  set(err "${stderr}" PARENT_SCOPE)
endfunction()

# Reads the lines of `file` into the list `lines_var`, and stops the test unless there are
# `count`; `what` names the file's run in the message.
function(read_lines_expecting file count lines_var what)
  file(STRINGS ${file} lines)
  list(LENGTH lines n)
  if(NOT n EQUAL count)
    message(FATAL_ERROR "${what}: ${file} has ${n} lines, expected ${count}")
  endif()
  set(${lines_var} "${lines}" PARENT_SCOPE)
endfunction()
