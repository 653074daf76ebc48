# The completeness check that ends every hil run (cmake -P; hil/report/completeness.hpp):
#   MODE=begin  writes the run's start (seconds since the epoch) to BEGIN_FILE
#   MODE=check  lists the cases of CASES ('|'-separated; each run through LAUNCHER when set, as CTest's discovery
#               runs them) with the run's profile, and runs REPORT --complete on the results file
#               ($HILPERF_RESULTS, else hil-results.jsonl here) counting records since BEGIN_FILE;
#               REPORT runs under RUNNER ('|'-separated) when set: qemu-user for an ARM build.
# A case of the listing without a record never ran: the check fails naming it.
if(MODE STREQUAL "begin")
  string(TIMESTAMP now "%s" UTC)
  file(WRITE "${BEGIN_FILE}" "${now}\n")
  message(STATUS "hilperf: run begins at ${now} (the completeness check counts records from here)")
  return()
endif()

if(NOT EXISTS "${BEGIN_FILE}")
  message(FATAL_ERROR "hilperf: ${BEGIN_FILE} is missing: hil.run.begin did not run")
endif()
file(READ "${BEGIN_FILE}" begin)
string(STRIP "${begin}" begin)
set(listing_file "${CMAKE_CURRENT_BINARY_DIR}/hil-cases-listing.txt")
set(listing "")
string(REPLACE "|" ";" CASES "${CASES}")
foreach(binary IN LISTS CASES)
  execute_process(COMMAND ${LAUNCHER} "${binary}" --gtest_list_tests
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hilperf: listing the cases of ${binary} failed (${rc}): ${err}")
  endif()
  string(APPEND listing "${out}")
endforeach()
file(WRITE "${listing_file}" "${listing}")
if(DEFINED ENV{HILPERF_RESULTS} AND NOT "$ENV{HILPERF_RESULTS}" STREQUAL "")
  set(results "$ENV{HILPERF_RESULTS}")
else()
  set(results "hil-results.jsonl")
endif()
string(REPLACE "|" ";" RUNNER "${RUNNER}")
execute_process(COMMAND ${RUNNER} "${REPORT}" "${results}" --complete "${listing_file}"
                        --since-ms "${begin}000"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hilperf: the run is incomplete (see above)")
endif()
