# Included by ctest (TEST_INCLUDE_FILES), after the cases were discovered: how the hil cases share
# the bench, decided when ctest runs, so one build serves one board and a farm.
#   $HILPERF_FARM unset  every case takes RESOURCE_LOCK hil_bench: one case at a time on the board.
#   $HILPERF_FARM set    every case asks for RESOURCE_GROUPS boards:1; with ctest -j N and
#                        --resource-spec-file (hilperf-testbed farm-spec), CTest hands each case
#                        one board (CTEST_RESOURCE_GROUP_0_BOARDS) and never one board to two
#                        cases. Without the spec file the cases refuse to run (no board allocated).
# Every case also requires hil_run (cases/CMakeLists.txt: the run's start and its completeness
# check), beside the bench or the peer: a list value, which gtest_discover_tests' PROPERTIES cannot
# carry on CMake 3.25, so it is set here.
# hil_cases_TESTS, hil_traffic_cases_TESTS and hil_console_cases_TESTS are the lists
# gtest_discover_tests defines.
if(DEFINED ENV{HILPERF_FARM} AND NOT "$ENV{HILPERF_FARM}" STREQUAL "")
  set(_hil_share RESOURCE_GROUPS "boards:1")
else()
  set(_hil_share RESOURCE_LOCK hil_bench)
endif()
foreach(_hil_case IN LISTS hil_cases_TESTS)
  set_tests_properties("${_hil_case}" PROPERTIES ${_hil_share} FIXTURES_REQUIRED "hil_bench;hil_run")
endforeach()
foreach(_hil_case IN LISTS hil_traffic_cases_TESTS)
  set_tests_properties("${_hil_case}" PROPERTIES ${_hil_share} FIXTURES_REQUIRED "hil_peer;hil_run")
endforeach()
foreach(_hil_case IN LISTS hil_console_cases_TESTS)
  set_tests_properties("${_hil_case}" PROPERTIES ${_hil_share} FIXTURES_REQUIRED "hil_bench;hil_run")
endforeach()
