// RFC 2544's frame arithmetic (measure/frames): payloads per frame size for IPv4 and IPv6, the
// media maximum of a link, frame and wire bit rates.
#include <gtest/gtest.h>

#include "hil/measure/frames.hpp"

namespace {

using namespace hil::measure;

TEST(Frames, PayloadsOfTheRfcsFrameSizes) {
  EXPECT_EQ(udp_payload_for_frame(64, false), 18U);
  EXPECT_EQ(udp_payload_for_frame(128, false), 82U);
  EXPECT_EQ(udp_payload_for_frame(1518, false), 1472U);  // iperf3's -l 1472 fills a 1500 MTU
  EXPECT_EQ(udp_payload_for_frame(9000, false), 8954U);
  EXPECT_EQ(udp_payload_for_frame(1518, true), 1452U);
  EXPECT_EQ(udp_payload_for_frame(128, true), 62U);
}

TEST(Frames, FramesTooSmallForTheirHeadersOrAPayloadHaveNone) {
  EXPECT_FALSE(udp_payload_for_frame(63, false));
  EXPECT_FALSE(udp_payload_for_frame(64, true)) << "14 + 40 + 8 + 4 = 66 before any payload";
  EXPECT_FALSE(udp_payload_for_frame(66, true));
  EXPECT_EQ(udp_payload_for_frame(67, true), 1U);
  EXPECT_FALSE(udp_payload_for_frame(64, false, 20)) << "a 20-byte sender header needs 66";
  EXPECT_EQ(udp_payload_for_frame(66, false, 20), 20U);
}

TEST(Frames, APayloadsFrameIsPaddedToEthernetsMinimum) {
  EXPECT_EQ(frame_for_udp_payload(18, false), 64U);
  EXPECT_EQ(frame_for_udp_payload(1, false), 64U);
  EXPECT_EQ(frame_for_udp_payload(1472, false), 1518U);
  EXPECT_EQ(frame_for_udp_payload(1452, true), 1518U);
}

TEST(Frames, MediaMaximaOfGigabitAndFastEthernet) {
  EXPECT_NEAR(media_max_fps(1'000'000'000, 64), 1'488'095.2, 0.1);
  EXPECT_NEAR(media_max_fps(1'000'000'000, 1518), 81'274.4, 0.1);
  EXPECT_NEAR(media_max_fps(100'000'000, 64), 148'809.5, 0.1);
  EXPECT_NEAR(media_max_fps(10'000'000, 1518), 812.7, 0.1);
}

TEST(Frames, AtTheMediaMaximumTheWireIsFullAndTheFramesCarryLess) {
  const double fps = media_max_fps(1'000'000'000, 64);
  EXPECT_NEAR(wire_bps(fps, 64), 1e9, 1);
  EXPECT_NEAR(frame_bps(fps, 64), 761'904'762, 1) << "64 of every 84 bytes on the wire";
}

}  // namespace
