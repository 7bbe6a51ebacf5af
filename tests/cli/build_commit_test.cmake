# cmake/build_commit.cmake on scratch trees: "unknown" outside a git checkout (a release tarball) and
# for a tree inside some other repository; the checkout's HEAD at its top, "+dirty" once a tracked file
# changes. Run by ctest: cmake -DSCRIPT=cmake/build_commit.cmake -DWORK=<scratch dir> -P this file.
if(NOT SCRIPT OR NOT WORK)
  message(FATAL_ERROR "pass -DSCRIPT=<cmake/build_commit.cmake> -DWORK=<scratch dir>")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/tarball")

# The commit build_commit.cmake writes for source tree `dir`.
function(commit_of dir out)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${dir} -DOUT=${WORK}/build_commit.hpp -P ${SCRIPT}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "build_commit.cmake failed on ${dir}")
  endif()
  file(READ "${WORK}/build_commit.hpp" text)
  if(NOT text MATCHES "#define PP_BUILD_COMMIT \"([^\"]*)\"")
    message(FATAL_ERROR "no PP_BUILD_COMMIT in:\n${text}")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(expect what got want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}: PP_BUILD_COMMIT is '${got}', expected '${want}'")
  endif()
  message(STATUS "${what}: '${got}'")
endfunction()

commit_of("${WORK}/tarball" c)
expect("not a git checkout" "${c}" "unknown")

find_package(Git QUIET)
if(NOT GIT_FOUND)
  message(STATUS "git not found: the checkout cases are not run")
  return()
endif()
set(repo "${WORK}/repo")
file(MAKE_DIRECTORY "${repo}/tree")
file(WRITE "${repo}/tree/a.txt" "a\n")
set(git ${GIT_EXECUTABLE} -C ${repo} -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false)
execute_process(COMMAND ${git} init -q COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${git} add tree/a.txt COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${git} commit -q -m one COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${git} rev-parse --short=12 HEAD OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)

commit_of("${repo}/tree" c)
expect("a tree inside another repository" "${c}" "unknown")
commit_of("${repo}" c)
expect("the top of a clean checkout" "${c}" "${head}")
file(WRITE "${repo}/tree/a.txt" "b\n")
commit_of("${repo}" c)
expect("a checkout with a changed tracked file" "${c}" "${head}+dirty")
file(REMOVE_RECURSE "${WORK}")
