// measure/frame_path: the names of the Rfc2544 and Y1564 cases per path, their report words, and
// causes that blame the side that sent or received.
#include "hil/measure/frame_path.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_search.hpp"

namespace {

using hil::measure::frame_direction;
using hil::measure::frame_path;
using ::testing::HasSubstr;
using ::testing::Not;

const frame_path receives{frame_direction::dut_receives, 4};
const frame_path ipv6_receives{frame_direction::dut_receives, 6};

TEST(FramePath, NamesCasesWithTheDefaultPathUnchanged) {
  EXPECT_EQ(hil::measure::frame_path_name(64, {}), "frame64");
  EXPECT_EQ(hil::measure::frame_path_name(64, receives), "frame64_dut_receives");
  EXPECT_EQ(hil::measure::frame_path_name(82, {frame_direction::dut_transmits, 6}), "frame82_ipv6");
  EXPECT_EQ(hil::measure::frame_path_name(1518, ipv6_receives), "frame1518_ipv6_dut_receives");
  EXPECT_EQ(hil::measure::frame_path_words({}), "");
  EXPECT_EQ(hil::measure::frame_path_words(ipv6_receives), "IPv6, DUT receives");
}

TEST(FramePath, DirectionWordsRoundTripAndOthersAreRefused) {
  frame_direction d = frame_direction::dut_transmits;
  EXPECT_TRUE(hil::measure::parse_direction("dut_receives", d));
  EXPECT_EQ(d, frame_direction::dut_receives);
  EXPECT_STREQ(hil::measure::direction_name(d), "dut_receives");
  EXPECT_FALSE(hil::measure::parse_direction("rx", d));
  EXPECT_EQ(d, frame_direction::dut_receives) << "unchanged on a refusal";
}

TEST(FramePath, ASenderShortOnTheReceivingPathIsThePeersLimit) {
  const hil::measure::trial_outcome t{14'881, 1'200, 1'200, 1'200, std::nullopt, std::nullopt};
  EXPECT_THAT(hil::measure::tool_limited_words(t, frame_direction::dut_transmits),
              HasSubstr("the DUT's CPU or the tool is the limit, not the link"));
  const auto peer = hil::measure::tool_limited_words(t, frame_direction::dut_receives);
  EXPECT_THAT(peer, HasSubstr("offered 14881 frames/s, sent 1200: the peer's CPU"));
  EXPECT_THAT(peer, Not(HasSubstr("DUT's CPU")));
}

TEST(FramePath, ThePortsLossOnTheReceivingPathBlamesTheDutsReceivePath) {
  hil::measure::search_result r;
  r.throughput_fps = 7'000;
  const hil::measure::frame_limits l{64, 10, 14'880.95, 95.0, 0, ipv6_receives};
  const auto v = hil::measure::check_frame_throughput(l, r);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.check, "Rfc2544Throughput frame64_ipv6_dut_receives");
  EXPECT_THAT(v.cause, HasSubstr("the DUT's receive path"));
  EXPECT_THAT(v.cause, HasSubstr("RX ring"));
  const hil::measure::frame_limits tx{64, 10, 14'880.95, 95.0, 0, {}};
  EXPECT_THAT(hil::measure::check_frame_throughput(tx, r).cause,
              HasSubstr("receiving the transmit completions"));
}

}  // namespace
