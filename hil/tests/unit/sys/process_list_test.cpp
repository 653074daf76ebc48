// process_ids and process_name on this machine's real /proc.
#include "hil/sys/process_list.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

// The process list is /proc's: it holds this process and init, ascending, and names them.
TEST(ProcessList, HoldsThisProcessAndInitInOrderAndNamesThem) {
  const std::vector<pid_t> pids = hil::sys::process_ids();
  EXPECT_TRUE(std::is_sorted(pids.begin(), pids.end()));
  EXPECT_TRUE(std::binary_search(pids.begin(), pids.end(), ::getpid()));
  EXPECT_TRUE(std::binary_search(pids.begin(), pids.end(), 1));
  EXPECT_FALSE(hil::sys::process_name(::getpid()).empty());
  EXPECT_EQ(hil::sys::process_name(::getpid()).find('\n'), std::string::npos);
}

TEST(ProcessList, AProcessThatEndedHasNoName) {
  EXPECT_EQ(hil::sys::process_name(999'999'999), "");
}

}  // namespace
