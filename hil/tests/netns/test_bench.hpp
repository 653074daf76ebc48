// A simulated bench of the test's own: unique namespace names per process so tests never touch
// the suite's bench (hp0) or each other's.
#pragma once

#include <string>

#include "hil/bench/sim_bench.hpp"

namespace hil::test {

// A layout named after this process: hilperf-t<pid>-dut / -peer, dut0 <-> pc0.
inline bench::sim_layout unique_layout() {
  bench::sim_layout l = bench::private_layout("t", "dut0");
  l.dut_ipv6 = "2001:2::10/64";
  l.peer_ipv6 = "2001:2::195/64";
  l.shape_mbit = 1000;  // a gigabit link, as on a board: timing does not depend on spare CPU
  l.peer_mtu = 9000;
  return l;
}

// The bench netns_main.cpp built for this run: computed once in main (before it forks into the
// DUT namespace), so the tests in the child see the parent's names.
inline const bench::sim_layout& run_layout() {
  static const bench::sim_layout layout = unique_layout();
  return layout;
}

}  // namespace hil::test
