# The hil tests over the programs hil_cases, hil_traffic_cases, hilperf-testbed and hilperf-report:
# the discovered cases and the fixtures around them (cases/CMakeLists.txt explains the labels). Two
# projects include it: this one's cases/CMakeLists.txt, over the targets it builds, and
# ci/cmake/board-run, over the same programs built elsewhere (IMPORTED executables; ci/board-build
# --prebuilt), so both run the same tests.
# HIL_RUNNER_EMULATOR: the command that runs this build's programs on the runner (qemu-user for an
# ARM build, empty for a native one); the report's runs below go through it, as CTest runs
# hilperf-testbed through its CROSSCOMPILING_EMULATOR.

# Run on the board from the runner (docs/running-on-a-board.md, "Running the cases on the board"):
# the launcher, e.g. ci/board-launcher, prefixes every case and the listing discovery runs.
# CROSSCOMPILING_EMULATOR is read by gtest_discover_tests (and add_test with a target) whether
# cross-compiling or not, and must be set before gtest_discover_tests below. Empty: the cases run
# here, as before.
set(HIL_BOARD_LAUNCHER "" CACHE FILEPATH
    "Launcher that runs each hil case binary on the board (ci/board-launcher); empty runs them here")
if(HIL_BOARD_LAUNCHER)
  set_target_properties(hil_cases hil_traffic_cases PROPERTIES
                        CROSSCOMPILING_EMULATOR "${HIL_BOARD_LAUNCHER}")
endif()

# PRE_TEST: the case list (named from the profile's MTU tiers) is read when ctest runs.
# NO_PRETTY_VALUES keeps names free of parameter bytes. PROPERTIES values must be single-valued:
# CMake 3.25 splits a list value into further key/value pairs, so every property after it is lost.
# LABELS hil is set on each case, not only on the directory: ctest run from a build directory
# reached through a symlink matches directory labels by path and then sees only the fixture tests.
# XML_OUTPUT_DIR: each case also writes gtest's XML to gtest-xml/<ctest name>.xml (parameterised
# names make subdirectories), which ci/merge-junit merges into the JUnit report for the
# RecordProperty values and the failure text CTest's own JUnit leaves out (docs/junit-report.md).
# HILPERF_PROFILE_ECHOED: hil.bench.up has echoed the effective profile in full once; each case
# prints one line naming it instead (fixtures/suite.cpp).
gtest_discover_tests(hil_cases
  TEST_PREFIX "hil."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 30
  NO_PRETTY_VALUES
  XML_OUTPUT_DIR ${CMAKE_BINARY_DIR}/gtest-xml
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_bench TIMEOUT 300
             ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
# Nightly TCP runs last 600 s each: the timeout leaves room for that plus set-up.
gtest_discover_tests(hil_traffic_cases
  TEST_PREFIX "hil."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 30
  NO_PRETTY_VALUES
  XML_OUTPUT_DIR ${CMAKE_BINARY_DIR}/gtest-xml
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_peer TIMEOUT 900
             ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
# A console DUT's rows need no peer fixture: hilperf's own iPerf 2 end runs in the case. They run
# on the runner, so a tree that runs the cases on a board (ci/cmake/board-run) has none.
if(TARGET hil_console_cases)
gtest_discover_tests(hil_console_cases
  TEST_PREFIX "hil."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 30
  NO_PRETTY_VALUES
  XML_OUTPUT_DIR ${CMAKE_BINARY_DIR}/gtest-xml
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_bench TIMEOUT 300
             ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
endif()
# After the discoveries: RESOURCE_LOCK hil_bench for one board, RESOURCE_GROUPS boards:1 in a
# farm ($HILPERF_FARM at ctest time; farm_mode.cmake).
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_CURRENT_LIST_DIR}/farm_mode.cmake)

set(_owner ${CMAKE_CURRENT_BINARY_DIR}/bench-created-by-ctest)
add_test(NAME hil.bench.up COMMAND hilperf-testbed up --owner-file ${_owner})
add_test(NAME hil.bench.down COMMAND hilperf-testbed down --owner-file ${_owner})
set_tests_properties(hil.bench.up PROPERTIES FIXTURES_SETUP hil_bench RESOURCE_LOCK hil_bench
                                             TIMEOUT 60 LABELS hil)
set_tests_properties(hil.bench.down PROPERTIES FIXTURES_CLEANUP hil_bench DEPENDS hil.peer.down
                                               RESOURCE_LOCK hil_bench
                                               TIMEOUT 60 LABELS hil)
# The peer (hilperf-peer or stock iperf3 per profile) in the peer namespace; an external peer is
# only checked. A peer that does not answer fails hil.peer.up: every traffic case is then reported
# not-run with "Fixture dependency failed", and ctest exits non-zero.
set(_peer ${CMAKE_CURRENT_BINARY_DIR}/hil-peer)
add_test(NAME hil.peer.up COMMAND hilperf-testbed peer-up --pidfile ${_peer}.pid --log ${_peer}.log)
add_test(NAME hil.peer.down COMMAND hilperf-testbed peer-down --pidfile ${_peer}.pid)
set_tests_properties(hil.peer.up PROPERTIES FIXTURES_SETUP hil_peer FIXTURES_REQUIRED hil_bench
                                            RESOURCE_LOCK hil_bench TIMEOUT 60 LABELS hil)
set_tests_properties(hil.peer.down PROPERTIES FIXTURES_CLEANUP hil_peer RESOURCE_LOCK hil_bench
                                              TIMEOUT 60 LABELS hil)
# Nightly history: this run against the median of the board's earlier runs ([history] in the
# profile; docs/history.md), then kept. A cleanup of both fixtures, so it runs after every case;
# skipped (77, with the reason) when the profile sets neither history.url nor history.dir; failed
# (3, naming the store and its error) when the store cannot be reached, the run kept for the next.
add_test(NAME hil.history.regression
         COMMAND sh -c "exec \"$0\" \"$@\" \"\${HILPERF_RESULTS:-hil-results.jsonl}\" --regressions"
                 ${HIL_RUNNER_EMULATOR} $<TARGET_FILE:hilperf-report>)
set_tests_properties(hil.history.regression PROPERTIES FIXTURES_CLEANUP "hil_bench;hil_peer"
                                                       SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS hil)
# Completeness: hil.run.begin marks the run's start, hil.suite.complete (after every case: a
# cleanup of hil_run, which every case requires, farm_mode.cmake) fails the run naming each case of
# the profile that left no record — neither a verdict nor a reason to skip. A partial run on
# purpose (ctest -R …) says so with -FC hil_run.
set(_begin ${CMAKE_CURRENT_BINARY_DIR}/hil-run-begin)
set(_cases "$<TARGET_FILE:hil_cases>|$<TARGET_FILE:hil_traffic_cases>")
if(TARGET hil_console_cases AND NOT HIL_BOARD_LAUNCHER)
  string(APPEND _cases "|$<TARGET_FILE:hil_console_cases>")
endif()
string(REPLACE ";" "|" _runner "${HIL_RUNNER_EMULATOR}")
add_test(NAME hil.run.begin COMMAND ${CMAKE_COMMAND} -DMODE=begin -DBEGIN_FILE=${_begin}
                                    -P ${CMAKE_CURRENT_LIST_DIR}/check_complete.cmake)
add_test(NAME hil.suite.complete
         COMMAND ${CMAKE_COMMAND} -DMODE=check -DBEGIN_FILE=${_begin}
                 "-DCASES=${_cases}"
                 "-DLAUNCHER=${HIL_BOARD_LAUNCHER}" -DREPORT=$<TARGET_FILE:hilperf-report>
                 "-DRUNNER=${_runner}"
                 -P ${CMAKE_CURRENT_LIST_DIR}/check_complete.cmake)
set_tests_properties(hil.run.begin PROPERTIES FIXTURES_SETUP hil_run TIMEOUT 30 LABELS hil)
set_tests_properties(hil.suite.complete PROPERTIES FIXTURES_CLEANUP hil_run TIMEOUT 180
                                                   LABELS hil)
# The directory label as well, for a test here without its own LABELS hil (see the discovery).
set_property(DIRECTORY PROPERTY LABELS hil)

