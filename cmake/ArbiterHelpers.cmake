# Helpers shared by every CMakeLists.txt of the project.

# Warnings for the project's own code (generated code is built without them).
function(arbiter_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                         -Woverloaded-virtual -Wimplicit-fallthrough)
endfunction()

# arbiter_embed_text(<out.cc> <symbol> <input file> <namespace>)
# Writes a source file that defines `std::string_view <namespace>::<symbol>()`
# returning the exact bytes of <input file>, so data files (rulesets) are
# compiled into the binary and rebuilt when they change.
function(arbiter_embed_text out symbol input ns)
  file(READ ${input} content HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
  set(body "// Generated from ${input}; do not edit.\n#include <string_view>\nnamespace ${ns} {\nnamespace {\nconstexpr char kBytes[] = {${bytes} '\\0'};\n}  // namespace\nstd::string_view ${symbol}() { return {kBytes, sizeof(kBytes) - 1}; }\n}  // namespace ${ns}\n")
  file(CONFIGURE OUTPUT ${out} CONTENT "${body}" @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${input})
endfunction()

# arbiter_test(<name> [ONE_PROCESS] SOURCES ... LIBS ... [TEST_PREFIX <prefix>]): a
# GoogleTest program registered with ctest, one ctest test per test case
# (TEST_PREFIX goes before every case's name). With ONE_PROCESS the whole
# program is one ctest test run in one process, for programs whose cases share
# an expensive set-up (a PostgreSQL cluster per process); run one of its cases
# with `build/bin/<name> --gtest_filter=Suite.Case`.
function(arbiter_test name)
  cmake_parse_arguments(ARG "ONE_PROCESS" "TEST_PREFIX" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
  arbiter_warnings(${name})
  if(ARG_ONE_PROCESS)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES TIMEOUT 900)
  else()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${ARG_TEST_PREFIX}"
                         PROPERTIES TIMEOUT 900)
  endif()
endfunction()
include(GoogleTest)
