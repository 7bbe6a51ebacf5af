# Helpers shared by every layer's CMakeLists.

# Layering is enforced by include paths, not by review. A layer's headers are reachable only through
# its own include root, build/include/<folder>/, which holds one link, <folder> -> src/<folder>; a
# target puts that root on the path of whoever links it. So `#include "msm/booth.hpp"` compiles only in
# a target that links pp::msm (directly or through a layer it links), and an include that runs up a
# layer, or sideways to one the target does not link, fails with "No such file or directory".

# pp_layer_includes(TARGET SCOPE): TARGET exposes this folder's headers to itself (SCOPE PUBLIC) or
# only to its users (INTERFACE). For every library defined in src/<folder>, or in src/<layer>/<lib>
# when a layer has several libraries, one folder each (src/cuda/): its headers then read
# "<layer>/<lib>/x.hpp" and its include root is build/include/<layer>_<lib>/, holding the one link
# <layer>/<lib> -> src/<layer>/<lib>, so each library of the layer has a wall of its own.
function(pp_layer_includes target scope)
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
  string(REPLACE "/" "_" root_name ${folder})
  set(root ${PROJECT_BINARY_DIR}/include/${root_name})
  set(target_dir ${CMAKE_CURRENT_SOURCE_DIR})
  set(current "")
  if(IS_SYMLINK ${root}/${folder})
    file(READ_SYMLINK ${root}/${folder} current)
  endif()
  if(NOT current STREQUAL target_dir)  # first configure, or the checkout moved
    file(REMOVE ${root}/${folder})
    get_filename_component(parent ${root}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${target_dir} ${root}/${folder} SYMBOLIC)
  endif()
  target_include_directories(${target} ${scope} ${root})
endfunction()

# pp_layer(NAME SOURCES... DEPS ...): a static library pp_NAME (alias pp::NAME) for one src/ layer, or an
# interface library when it has no sources. DEPS: the layers (and external libraries) its files
# include, each named once; what they link comes with them. Layers (and a layer's libraries) are
# defined bottom up, so a pp:: library in DEPS must be defined already: one defined later sits above
# this one, and linking it would open the include wall from below.
function(pp_layer name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS" ${ARGN})
  foreach(dep ${A_DEPS})
    if(dep MATCHES "^pp::" AND NOT TARGET ${dep})
      message(FATAL_ERROR "pp_layer(${name}): ${dep} is not defined yet: a library links only those below it")
    endif()
  endforeach()
  if(A_SOURCES)
    add_library(pp_${name} STATIC ${A_SOURCES})
    pp_layer_includes(pp_${name} PUBLIC)
    target_link_libraries(pp_${name} PUBLIC ${A_DEPS})
  else()
    add_library(pp_${name} INTERFACE)
    pp_layer_includes(pp_${name} INTERFACE)
    target_link_libraries(pp_${name} INTERFACE ${A_DEPS})
  endif()
  add_library(pp::${name} ALIAS pp_${name})
endfunction()

# pp_test(NAME SOURCES... DEPS ... LABELS ...): a GoogleTest binary registered with ctest, linked with
# tests/support (seeds, status matchers, generators: tests/support/README.md); it exits 77
# (skipped) when every test in it skipped (tests/support/gtest_main.cpp). CUSTOM_MAIN: SOURCES bring
# their own main(). The main and (PP_TEST_PCH) the precompiled GoogleTest/GoogleMock headers come
# from pp_gtest_main (tests/CMakeLists.txt), compiled once per build rather than once per binary.
# Label tsan: the test runs threads against each other, so the tsan preset builds it (target
# tsan_targets) and runs it under ThreadSanitizer. COST: its seconds on CI's 2 cores, for the slow
# ones: ctest has no timing data on a fresh machine and would start them in declaration order, so
# the slowest could start last and leave the other core idle.
function(pp_test name)
  cmake_parse_arguments(A "CUSTOM_MAIN" "TIMEOUT;COST" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${A_SOURCES})
  if(NOT A_CUSTOM_MAIN)
    target_link_libraries(${name} PRIVATE pp_gtest_main)
  endif()
  target_link_libraries(${name} PRIVATE ${A_DEPS} pp::gtest_support)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  if(PP_TEST_PCH)
    target_precompile_headers(${name} REUSE_FROM pp_gtest_main)
    target_compile_options(${name} PRIVATE -pthread)  # the header's flags (tests/CMakeLists.txt)
  endif()
  if(NOT A_LABELS)
    set(A_LABELS unit)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 600)
  endif()
  if("tsan" IN_LIST A_LABELS AND TARGET tsan_targets)
    add_dependencies(tsan_targets ${name})
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${A_LABELS}" TIMEOUT ${A_TIMEOUT}
    ENVIRONMENT "PP_SOURCE_DIR=${PROJECT_SOURCE_DIR};PP_BINARY_DIR=${PROJECT_BINARY_DIR}"
    SKIP_RETURN_CODE 77)
  if(A_COST)
    set_tests_properties(${name} PROPERTIES COST ${A_COST})
  endif()
endfunction()

# pp_bench(NAME SOURCES... DEPS ...): a Google Benchmark binary, linked with pp::test_support (seeds
# and generators shared with the tests).
function(pp_bench name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_DEPS} pp::test_support benchmark::benchmark)
endfunction()
