// The simulated bench from the host's side: idempotent up, complete down, nothing on the host's
// own interfaces changes, and the layout's settings (peer MTU, shaping) are applied.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/bench/sim_bench.hpp"
#include "hil/link/link_control.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;

class SimBench : public ::testing::Test {
 protected:
  void TearDown() override { hil::bench::bench_down(layout_); }
  hil::bench::sim_layout layout_ = hil::test::unique_layout();
};

TEST_F(SimBench, UpLeavesTheHostInterfacesAlone) {
  hil::link::link_control host;
  const auto before = host.interface_names();
  ASSERT_EQ(hil::bench::bench_up(layout_), hil::bench::up_result::created);
  EXPECT_EQ(host.interface_names(), before);
  EXPECT_TRUE(hil::bench::bench_is_up(layout_));
}

TEST_F(SimBench, UpIsIdempotent) {
  EXPECT_EQ(hil::bench::bench_up(layout_), hil::bench::up_result::created);
  EXPECT_EQ(hil::bench::bench_up(layout_), hil::bench::up_result::already_up);
  EXPECT_TRUE(hil::bench::bench_is_up(layout_));
}

TEST_F(SimBench, DownRemovesEverythingAndIsIdempotent) {
  hil::bench::bench_up(layout_);
  hil::bench::bench_down(layout_);
  EXPECT_FALSE(hil::sys::netns_exists(layout_.dut_netns));
  EXPECT_FALSE(hil::sys::netns_exists(layout_.peer_netns));
  EXPECT_NO_THROW(hil::bench::bench_down(layout_));
}

TEST_F(SimBench, APartialBenchIsRebuilt) {
  hil::sys::run_checked({"ip", "netns", "add", layout_.dut_netns});
  EXPECT_EQ(hil::bench::bench_up(layout_), hil::bench::up_result::created);
  EXPECT_TRUE(hil::bench::bench_is_up(layout_));
}

TEST_F(SimBench, AppliesPeerMtuShapingAndAddresses) {
  layout_.peer_mtu = 1500;
  layout_.shape_mbit = 500;
  hil::bench::bench_up(layout_);
  const std::string status = hil::bench::bench_status(layout_);
  EXPECT_THAT(status, HasSubstr("pc0@"));
  EXPECT_THAT(status, HasSubstr("mtu 1500"));
  EXPECT_THAT(status, HasSubstr("tbf"));
  EXPECT_THAT(status, HasSubstr("rate 500Mbit"));
  EXPECT_THAT(status, HasSubstr("198.18.0.10/24"));
  EXPECT_THAT(status, HasSubstr("2001:2::195/64"));
}

TEST_F(SimBench, TheTwoEndsReachEachOther) {
  hil::bench::bench_up(layout_);
  const auto r = hil::sys::run(
      {"ip", "netns", "exec", layout_.dut_netns, "ping", "-c", "1", "-W", "2", "198.18.0.195"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
