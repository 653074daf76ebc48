# Proves a CI-file checker can fail: writes a copy of INPUT with one deliberate defect to OUTPUT,
# runs the checker on it and passes only when the checker rejects it with output matching EXPECT.
# A checker that accepts the copy, or rejects it for another reason (say, a missing interpreter),
# fails this test, and so does a defect that cannot be made (FIND not in INPUT).
#
# cmake -DPROGRAM=<interpreter> -DSCRIPT=<checker> -DINPUT=<file> -DOUTPUT=<file>
#       -DFIND=<text> [-DREPLACE=<text>] [-DOCCURRENCE=all|last] -DEXPECT=<regex> -P expect_rejected.cmake
#   OCCURRENCE all (default) replaces every FIND; last replaces only the last one (e.g. the final
#   closing brace, to unbalance a file).
cmake_minimum_required(VERSION 3.25)

foreach(var PROGRAM SCRIPT INPUT OUTPUT FIND EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_rejected: -D${var}=… is required")
  endif()
endforeach()
if(NOT DEFINED REPLACE)
  set(REPLACE "")
endif()

file(READ "${INPUT}" text)
if(OCCURRENCE STREQUAL "last")
  string(FIND "${text}" "${FIND}" at REVERSE)
else()
  string(FIND "${text}" "${FIND}" at)
endif()
if(at EQUAL -1)
  message(FATAL_ERROR "expect_rejected: '${FIND}' is not in ${INPUT}; the defect cannot be made")
endif()
if(OCCURRENCE STREQUAL "last")
  string(LENGTH "${FIND}" find_length)
  math(EXPR after "${at} + ${find_length}")
  string(SUBSTRING "${text}" 0 ${at} head)
  string(SUBSTRING "${text}" ${after} -1 tail)
  set(broken "${head}${REPLACE}${tail}")
else()
  string(REPLACE "${FIND}" "${REPLACE}" broken "${text}")
endif()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${OUTPUT}" "${broken}")

execute_process(COMMAND "${PROGRAM}" "${SCRIPT}" "${OUTPUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "expect_rejected: the checker accepted ${OUTPUT} ('${FIND}' → '${REPLACE}'):\n${out}")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "expect_rejected: the checker rejected ${OUTPUT} (exit ${rc}) but its "
                      "output does not match '${EXPECT}':\n${out}")
endif()
message(STATUS "expect_rejected: rejected as expected (exit ${rc}):\n${out}")
