// The hil suite's main: profile first (the MTU tiers that name the cases come from it), then gtest,
// then the tests where the DUT lives. Exit codes: gtest's (0 pass, 1 fail), 2 for a bad profile or
// a bench that cannot be brought up.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <string>

#include "fixtures/suite.hpp"

int main(int argc, char** argv) {
  bool listing = false;  // CTest parses the listing: nothing else may go to stdout then
  for (int i = 1; i < argc; ++i)
    listing = listing || std::strcmp(argv[i], "--gtest_list_tests") == 0;
  try {
    const auto& profile = hil::fixtures::load_suite_profile(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (listing) return RUN_ALL_TESTS();
#ifdef HIL_NEEDS_PEER
    const std::string peer_binary = HIL_PEER_BINARY;  // started on the sim bench if none answers
#else
    const std::string peer_binary;
#endif
    return hil::fixtures::run_at_dut(
        profile, [] { return RUN_ALL_TESTS(); }, true, peer_binary);
  } catch (const hil::profile::profile_error& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 2;
  }
}
