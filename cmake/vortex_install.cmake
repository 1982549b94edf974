# Registers a library target for the install tree and the package's export set, with the folder of
# its public headers.
function(vortex_install_library target)
  cmake_parse_arguments(ARG "" "HEADERS" "" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY VORTEX_EXPORT_TARGETS ${target})
  if(ARG_HEADERS)
    install(DIRECTORY ${ARG_HEADERS}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endfunction()
