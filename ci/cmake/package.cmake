# `cmake --install` and the runner's .deb (`cpack` in the build directory). Layout and the paths the
# installed programs use to find each other: ci/cmake/install_layout.cmake. Included at the end of
# the top-level CMakeLists.txt, after every target exists.
#
# The tools go to bin/, the benchmarks as well (they find hilperf and hilperf-peer next to them);
# the hil case binaries to libexec/hilperf/ (run them directly, or through ctest in a build tree);
# the board profiles to share/hilperf/boards/, the farm files to share/hilperf/farms/; the README to
# share/doc/hilperf/ and the pages it links to share/doc/hilperf/docs/. No test binaries.
install(TARGETS hilperf hilperf-peer hilperf-testbed hilperf-report hilperf-bench hilperf-rr-bench
                hilperf-mcu-sim hilperf-board-console hilperf-xdp-port
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS hil_cases hil_traffic_cases hil_console_cases
        RUNTIME DESTINATION ${HIL_INSTALL_CASES_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/ci/boards/ DESTINATION ${HIL_INSTALL_BOARDS_DIR}
        FILES_MATCHING PATTERN "*.toml")
# Farm files name their boards' profiles relatively (../boards/…), which holds here too.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/ci/farms/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hilperf/farms
        FILES_MATCHING PATTERN "*.toml")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")

if(PROJECT_IS_TOP_LEVEL)
  set(HIL_PACKAGE_CONTACT "hilperf maintainers <maintainers@users.noreply.a-seed-c441895c.example>"
      CACHE STRING "Maintainer field of the .deb")
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGE_NAME hilperf)
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_CONTACT "${HIL_PACKAGE_CONTACT}")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "hardware-in-the-loop test suite for a board's Ethernet port")
  # Lines as they appear in the control file (under 80 characters, as Debian policy asks).
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "\
Runs every check of the Ethernet test procedure (link speed and duplex, MTU
tiers, iperf3 throughput and loss, netperf request/response, latency under
load) as GoogleTest cases, against a board or against a simulated bench of
two network namespaces joined by a veth pair. Contains hilperf (a client
speaking iperf3's protocol), hilperf-peer, hilperf-testbed, hilperf-report,
the benchmarks, hilperf-mcu-sim (a firmware console to try the console rows
on), hilperf-board-console (cases run through a board's serial console), the
case binaries in /usr/libexec/hilperf and the board profiles in
/usr/share/hilperf/boards.")
  set(CPACK_DEBIAN_PACKAGE_SECTION net)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # hilperf_<version>_<arch>.deb
  # Libraries from dpkg-shlibdeps (dpkg-dev); programs the suite runs, by hand: ip and tc for the
  # simulated bench and link control. iperf3 serves the sim-iperf3 profile and hilperf-bench; ssh
  # starts the peer in peer.mode = "ssh"; sockperf is hilperf-rr-bench's reference; iperf (2)
  # is the simulated MCU's traffic and the other end of procedure 002's rows; ser2net serves a
  # console on TCP.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "iproute2")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "iperf3")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openssh-client, sockperf, iperf, ser2net")
  # The build is RelWithDebInfo: the package carries stripped binaries.
  set(CPACK_STRIP_FILES ON)
  include(CPack)

  if(HIL_BUILD_TESTS)
    # Installs into a temporary DESTDIR, runs the installed programs, builds the .deb and checks its
    # control fields and contents (ci/check-package).
    add_test(NAME unit.package.deb
             COMMAND ${PROJECT_SOURCE_DIR}/ci/check-package ${PROJECT_BINARY_DIR} ${CMAKE_COMMAND}
                     ${CMAKE_CPACK_COMMAND} ${PROJECT_VERSION})
    # RESOURCE_LOCK: cpack builds `preinstall` in this build tree, as the lint.layers probes do.
    set_tests_properties(unit.package.deb PROPERTIES LABELS unit TIMEOUT 300
                         RESOURCE_LOCK hil_build_tree)
  endif()
endif()
