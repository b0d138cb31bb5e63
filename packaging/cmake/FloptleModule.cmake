# floptle_add_module(NAME [QT] DEPS ...): one library per module folder.
#   Public headers live in NAME/include/floptle/NAME/, sources in NAME/src/.
#   DEPS is the module's public link list, PRIVATE_DEPS what only its sources use; the layering of ARCHITECTURE.md is written there.
#   A module without QT fails to build if any of its files includes a Qt header.
function(floptle_add_module NAME)
  cmake_parse_arguments(ARG "QT" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS
    "${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp" "${CMAKE_CURRENT_SOURCE_DIR}/src/*.h")
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/include/*.h")
  set(target floptle_${NAME})
  if(sources)
    add_library(${target} STATIC ${sources} ${headers})
    target_include_directories(${target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include"
                                         PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
    target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE floptle_compiler_config ${ARG_PRIVATE_DEPS})
  else()
    # No code yet: the target exists so the link lists above can already name it.
    add_library(${target} INTERFACE)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/include")
      target_include_directories(${target} INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/include")
    endif()
    target_link_libraries(${target} INTERFACE ${ARG_DEPS})
  endif()
  add_library(floptle::${NAME} ALIAS ${target})

  if(NOT ARG_QT AND (sources OR headers))
    # Layering guard: nothing below the editor includes Qt.
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${NAME}_no_qt.stamp")
    add_custom_command(OUTPUT "${stamp}"
      COMMAND "${CMAKE_COMMAND}" -DMODULE=${NAME} -DFILES="${sources}\;${headers}"
              -DSTAMP="${stamp}" -P "${PROJECT_SOURCE_DIR}/packaging/cmake/CheckNoQt.cmake"
      DEPENDS ${sources} ${headers} "${PROJECT_SOURCE_DIR}/packaging/cmake/CheckNoQt.cmake"
      COMMENT "Checking that ${NAME} includes no Qt header")
    add_custom_target(${target}_no_qt DEPENDS "${stamp}")
    add_dependencies(${target} ${target}_no_qt)
  endif()
endfunction()
