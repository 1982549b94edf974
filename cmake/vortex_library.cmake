# The parts every library target of the project declares alike: the alias vortex::NAME and its
# export name; include/ as the folder of its headers in the build tree (the install prefix's
# include/ once installed) and, where the target has one, src/ as the folder of its private
# headers.
function(vortex_library_layout target name)
  add_library(vortex::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  get_target_property(type ${target} TYPE)
  set(scope PUBLIC)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  elseif(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  endif()
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()

# A library's sources that call the GPU: CUDA ones (linking vortex_gpu) in a CUDA build, else the
# NO_CUDA ones that stand in for them.
function(vortex_gpu_sources target)
  cmake_parse_arguments(ARG "" "" "CUDA;NO_CUDA" ${ARGN})
  if(VORTEX_HAVE_CUDA)
    target_sources(${target} PRIVATE ${ARG_CUDA})
    target_link_libraries(${target} PRIVATE vortex_gpu)
  else()
    target_sources(${target} PRIVATE ${ARG_NO_CUDA})
  endif()
endfunction()
