// The hil suite's main: profile first (the MTU tiers that name the cases come from it), then gtest,
// then the tests where the DUT lives. Exit codes: gtest's (0 pass, 1 fail), 2 for a bad profile or
// a bench that cannot be brought up.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <string>

#include "fixtures/results.hpp"
#include "fixtures/suite.hpp"
#include "hil/sys/install_paths.hpp"

int main(int argc, char** argv) {
  bool listing = false;  // CTest parses the listing: nothing else may go to stdout then
  for (int i = 1; i < argc; ++i)
    listing = listing || std::strcmp(argv[i], "--gtest_list_tests") == 0;
  try {
    const auto& profile = hil::fixtures::load_suite_profile(argc, argv, listing);
    ::testing::InitGoogleTest(&argc, argv);
    if (listing) return RUN_ALL_TESTS();
    // Every case that runs leaves one record, also when it skips or fails before its verdict.
    ::testing::UnitTest::GetInstance()->listeners().Append(new hil::fixtures::record_every_case);
#ifdef HIL_CONSOLE_CASES
    // The simulated MCU, started on the sim bench when none is at console.port:
    // $HILPERF_MCU_SIM_BINARY, else the installed one next to these cases, else the build tree's.
    const std::string mcu_binary =
        hil::sys::locate_installed("HILPERF_MCU_SIM_BINARY", HIL_MCU_SIM_INSTALLED,
                                   HIL_MCU_SIM_BINARY)
            .string();
    return hil::fixtures::run_at_pc(
        profile, [] { return RUN_ALL_TESTS(); }, true, mcu_binary);
#else
    if (profile.dut.mode == hil::profile::dut_mode::console) {
      return hil::fixtures::run_skipped_for_console(profile, [] { return RUN_ALL_TESTS(); });
    }
#ifdef HIL_NEEDS_PEER
    // Started on the sim bench if none answers: $HILPERF_PEER_BINARY, else the installed one next
    // to these cases (../../bin/hilperf-peer), else the build tree's.
    const std::string peer_binary =
        hil::sys::locate_installed("HILPERF_PEER_BINARY", HIL_PEER_INSTALLED, HIL_PEER_BINARY)
            .string();
#else
    const std::string peer_binary;
#endif
    return hil::fixtures::run_at_dut(
        profile, [] { return RUN_ALL_TESTS(); }, true, peer_binary);
#endif
  } catch (const hil::profile::profile_error& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 2;
  }
}
