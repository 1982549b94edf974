# Registers a library target for the install tree and the package's export set, with the public
# headers it installs: PUBLIC names them relative to the folder HEADERS (vortex/solver.hpp). What a
# target does not name stays in the source tree: its internals are no part of the installed API,
# and the installed headers include only installed ones (tests/install/ checks both).
function(vortex_install_library target)
  cmake_parse_arguments(ARG "" "HEADERS" "PUBLIC" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY VORTEX_EXPORT_TARGETS ${target})
  foreach(header ${ARG_PUBLIC})
    get_filename_component(folder ${header} DIRECTORY)
    install(FILES ${ARG_HEADERS}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${folder})
    set_property(GLOBAL APPEND PROPERTY VORTEX_PUBLIC_HEADERS ${header})
  endforeach()
endfunction()
