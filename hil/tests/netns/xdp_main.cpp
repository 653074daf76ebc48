// main of the XDP tests: builds this run's veth pair (xdp_pair.hpp) and runs the tests inside its
// receiving namespace, with a bpffs of that private mount namespace's own on /sys/fs/bpf (the
// sysfs enter_netns mounts hides the host's), so libxdp can pin its dispatcher there where the
// kernel lets it load one.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "hil/sys/netns.hpp"
#include "hil/tests/netns/xdp_pair.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  try {
    const hil::test::xdp_pair_session pair;
    return hil::sys::run_in_netns(hil::test::xdp_pair().rx_netns, [] {
      if (::mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700") != 0) {
        std::cerr << "no bpffs on /sys/fs/bpf (" << std::strerror(errno)
                  << "): libxdp attaches each program alone\n";
      }
      return RUN_ALL_TESTS();
    });
  } catch (const std::exception& e) {
    std::cerr << "cannot build the XDP test link: " << e.what() << '\n';
    return 1;
  }
}
