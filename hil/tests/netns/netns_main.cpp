// main of the netns tier for link control: every run gets a bench of its own and runs its tests
// inside that bench's DUT namespace, as the hil suite does on the simulated bench.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>

#include "hil/sys/netns.hpp"
#include "hil/tests/netns/test_bench.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  try {
    const hil::bench::bench_session bench(hil::test::run_layout());
    return hil::sys::run_in_netns(bench.layout().dut_netns, [] { return RUN_ALL_TESTS(); });
  } catch (const std::exception& e) {
    std::cerr << "cannot build the test bench: " << e.what() << '\n';
    return 1;
  }
}
