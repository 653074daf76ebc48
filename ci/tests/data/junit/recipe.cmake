# Throwaway project: runs hilperf's real case binaries under CTest 3.25 the way cases/CMakeLists.txt
# does, with a scratch profile (own bench mj0, speed 1000 so Link.LinkSpeed fails, jumbo off so
# mtu9000 skips), a peer that never answers (hil.peer.up fails), and a 1 s timeout on IcmpLatency.
cmake_minimum_required(VERSION 3.25)
project(mj NONE)
enable_testing()
include(GoogleTest)
set(BIN /tmp/mj/bin)
add_executable(hil_cases IMPORTED)
set_target_properties(hil_cases PROPERTIES IMPORTED_LOCATION ${BIN}/hil_cases)
add_executable(hil_traffic_cases IMPORTED)
set_target_properties(hil_traffic_cases PROPERTIES IMPORTED_LOCATION ${BIN}/hil_traffic_cases)
set(X ${CMAKE_BINARY_DIR}/gtest-xml)
gtest_discover_tests(hil_cases TEST_PREFIX "hil." DISCOVERY_MODE PRE_TEST NO_PRETTY_VALUES
  TEST_FILTER "Link.LinkState:Link.LinkSpeed:MtuTier/MtuReadBack.SetAndReadBack/mtu9000"
  XML_OUTPUT_DIR ${X}
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_bench TIMEOUT 60 ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
gtest_discover_tests(hil_cases TEST_PREFIX "hil." DISCOVERY_MODE PRE_TEST NO_PRETTY_VALUES
  TEST_FILTER "IcmpLatency.*" XML_OUTPUT_DIR ${X}
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_bench TIMEOUT 1 ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
gtest_discover_tests(hil_traffic_cases TEST_PREFIX "hil." DISCOVERY_MODE PRE_TEST NO_PRETTY_VALUES
  TEST_FILTER "MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500:Direction/TcpThroughput.MeetsLimit/DutTransmits"
  XML_OUTPUT_DIR ${X}
  PROPERTIES LABELS hil FIXTURES_REQUIRED hil_peer TIMEOUT 60 ENVIRONMENT HILPERF_PROFILE_ECHOED=1)
set(_owner ${CMAKE_BINARY_DIR}/bench-created-by-ctest)
add_test(NAME hil.bench.up COMMAND ${BIN}/hilperf-testbed up --owner-file ${_owner})
add_test(NAME hil.bench.down COMMAND ${BIN}/hilperf-testbed down --owner-file ${_owner})
set_tests_properties(hil.bench.up PROPERTIES FIXTURES_SETUP hil_bench RESOURCE_LOCK hil_bench TIMEOUT 60)
set_tests_properties(hil.bench.down PROPERTIES FIXTURES_CLEANUP hil_bench DEPENDS hil.peer.down
                     RESOURCE_LOCK hil_bench TIMEOUT 60)
set(_peer ${CMAKE_BINARY_DIR}/hil-peer)
add_test(NAME hil.peer.up COMMAND ${BIN}/hilperf-testbed peer-up --pidfile ${_peer}.pid --log ${_peer}.log)
add_test(NAME hil.peer.down COMMAND ${BIN}/hilperf-testbed peer-down --pidfile ${_peer}.pid)
set_tests_properties(hil.peer.up PROPERTIES FIXTURES_SETUP hil_peer FIXTURES_REQUIRED hil_bench
                     RESOURCE_LOCK hil_bench TIMEOUT 60 ENVIRONMENT HILPERF_PEER_BINARY=/bin/false)
set_tests_properties(hil.peer.down PROPERTIES FIXTURES_CLEANUP hil_peer RESOURCE_LOCK hil_bench TIMEOUT 60)
add_test(NAME hil.history.regression
         COMMAND sh -c "exec \"$0\" \"\${HILPERF_RESULTS:-hil-results.jsonl}\" --regressions"
                 ${BIN}/hilperf-report)
set_tests_properties(hil.history.regression PROPERTIES FIXTURES_CLEANUP "hil_bench;hil_peer"
                     SKIP_RETURN_CODE 77 TIMEOUT 60)
set_property(DIRECTORY PROPERTY LABELS hil)
