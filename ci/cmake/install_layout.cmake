# Where `cmake --install` and the .deb (ci/cmake/package.cmake) put things, and the paths between
# them that the installed programs use to find each other (hil/sys/install_paths.hpp):
#   bin/                     hilperf, hilperf-peer, hilperf-testbed, hilperf-report, the benchmarks
#   libexec/hilperf/         hil_cases, hil_traffic_cases
#   share/hilperf/boards/    the board profiles (ci/boards/*.toml)
#   share/hilperf/farms/     the board farms (ci/farms/*.toml)
# Included before the targets are defined: their compile definitions use the relative paths.
include(GNUInstallDirs)

set(HIL_INSTALL_CASES_DIR "${CMAKE_INSTALL_LIBEXECDIR}/hilperf")
set(HIL_INSTALL_BOARDS_DIR "${CMAKE_INSTALL_DATADIR}/hilperf/boards")

# hil_install_relative(<var> <from> <to>): <to> relative to <from>, both install directories.
function(hil_install_relative var from to)
  foreach(dir from to)
    if(IS_ABSOLUTE "${${dir}}")
      set(_${dir} "${${dir}}")
    else()
      set(_${dir} "${CMAKE_INSTALL_PREFIX}/${${dir}}")
    endif()
  endforeach()
  file(RELATIVE_PATH _rel "${_from}" "${_to}")
  if(_rel STREQUAL "")
    set(_rel ".")
  endif()
  set(${var} "${_rel}" PARENT_SCOPE)
endfunction()

# From each installed program's directory to the peer and to the boards.
hil_install_relative(HIL_CASES_TO_BIN "${HIL_INSTALL_CASES_DIR}" "${CMAKE_INSTALL_BINDIR}")
hil_install_relative(HIL_BIN_TO_BOARDS "${CMAKE_INSTALL_BINDIR}" "${HIL_INSTALL_BOARDS_DIR}")
hil_install_relative(HIL_CASES_TO_BOARDS "${HIL_INSTALL_CASES_DIR}" "${HIL_INSTALL_BOARDS_DIR}")

# The default profile once installed, relative to bin/ and to libexec/hilperf/: the installed copy
# of HIL_PROFILE when it is one of ci/boards, else empty (HIL_PROFILE's own path stays the default).
get_filename_component(_hil_profile_dir "${HIL_PROFILE}" DIRECTORY)
get_filename_component(_hil_profile_name "${HIL_PROFILE}" NAME)
if(_hil_profile_dir STREQUAL "${PROJECT_SOURCE_DIR}/ci/boards")
  set(HIL_BIN_PROFILE_INSTALLED "${HIL_BIN_TO_BOARDS}/${_hil_profile_name}")
  set(HIL_CASES_PROFILE_INSTALLED "${HIL_CASES_TO_BOARDS}/${_hil_profile_name}")
else()
  set(HIL_BIN_PROFILE_INSTALLED "")
  set(HIL_CASES_PROFILE_INSTALLED "")
endif()
