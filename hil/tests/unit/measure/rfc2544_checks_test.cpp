// The Rfc2544 throughput verdict on search results made by hand: the share of the media maximum
// against the limit, and a cause for each way it fails.
#include "hil/measure/rfc2544_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using hil::measure::check_frame_throughput;
using hil::measure::frame_limits;
using hil::measure::search_result;
using ::testing::HasSubstr;
using ::testing::Not;

const frame_limits limits{64, 1000, 1'488'095.2, 95.0, 0, {}};

search_result found(double fps) {
  search_result r;
  r.throughput_fps = fps;
  return r;
}

TEST(Rfc2544Checks, ARateAtTheLimitPassesAndSaysItsShare) {
  const auto v = check_frame_throughput(limits, found(0.95 * 1'488'095.2));
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "Rfc2544Throughput frame64");
  EXPECT_NEAR(*v.observed_value, 95.0, 1e-9);
  EXPECT_THAT(v.observed, HasSubstr("95.0 % of the media maximum: 1413690 frames/s"));
  EXPECT_THAT(v.limit, HasSubstr(">= 95.0 % of the media maximum, 1488095 frames/s of 64 bytes "
                                 "at 1000 Mbit/s, with zero loss"));
}

TEST(Rfc2544Checks, ARateBelowTheLimitFailsAsThePortsLoss) {
  const auto v = check_frame_throughput(limits, found(600'000));
  EXPECT_FALSE(v.pass);
  EXPECT_NEAR(*v.observed_value, 40.32, 0.01);
  EXPECT_THAT(v.cause, HasSubstr("loses frames of 64 bytes above 600000 frames/s, below its line "
                                 "rate"));
}

TEST(Rfc2544Checks, ASenderShortOfTheRateFailsWithoutAFigure) {
  search_result r;
  r.tool_limited = "offered 1488095 frames/s, sent 612000: the DUT's CPU or the tool is the limit";
  const auto v = check_frame_throughput(limits, r);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value) << "no figure may stand for the port's";
  EXPECT_EQ(v.cause, *r.tool_limited);
}

TEST(Rfc2544Checks, NoLossFreeRateAtAllNamesTheMtu) {
  search_result r;
  hil::measure::trial_record t;
  t.outcome = {14'881, 14'881, 14'881, 0, std::nullopt, std::nullopt};
  r.trials = {t};
  const frame_limits jumbo{9018, 1000, 13'830.5, 95.0, 0.001, {}};
  const auto v = check_frame_throughput(jumbo, r);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("no rate with at most 0.1 % loss (lowest tried 14881"));
  EXPECT_THAT(v.cause, HasSubstr("an MTU below 9000 on the DUT, the peer or a switch"));
}

namespace latency {

using hil::measure::check_frame_latency;
using hil::measure::latency_limits;
using hil::measure::latency_trial;

// 64-byte frames on a 10 Mbit/s port at 95 % of its media maximum for 2 s; limit: median 5 ms.
const latency_limits limits{64, 10, 14880.95, 95.0, 5.0, 0, {}};

latency_trial healthy() {
  latency_trial t;
  t.duration = std::chrono::seconds(2);
  t.stream = {14036.9, 14037.0, 28074, 28074, std::nullopt, std::nullopt};
  t.probes_sent = 160;
  t.probes_received = 160;
  t.round_trip.count = 160;
  t.round_trip.p50_us = 150;
  t.round_trip.p99_us = 900;
  t.round_trip.max_us = 1200;
  return t;
}

TEST(Rfc2544Latency, AMedianWithinTheLimitWithEveryProbeAnsweredPassesWhateverThePeak) {
  auto t = healthy();
  t.round_trip.max_us = 13'000;  // one stall of the sender
  const auto v = check_frame_latency(limits, t);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "Rfc2544Latency frame64");
  EXPECT_NEAR(*v.observed_value, 0.15, 1e-9);
  EXPECT_EQ(v.unit, "ms round trip (median)");
  EXPECT_THAT(v.observed, HasSubstr("median 0.150 ms (p99 0.900, max 13.000) over 160/160 probes"));
  EXPECT_THAT(v.limit,
              HasSubstr("median round trip <= 5 ms for frames of 64 bytes at 95.0 % of the "
                        "media maximum (14137 frames/s at 10 Mbit/s)"));
}

TEST(Rfc2544Latency, AMedianAboveTheLimitFailsAsAQueue) {
  auto t = healthy();
  t.round_trip.p50_us = 25'600;
  const auto v = check_frame_latency(limits, t);
  EXPECT_FALSE(v.pass);
  EXPECT_NEAR(*v.observed_value, 25.6, 1e-9);
  EXPECT_THAT(v.cause, HasSubstr("frames wait in a queue at this load"));
  EXPECT_THAT(v.cause, Not(HasSubstr("loses frames")));
}

TEST(Rfc2544Latency, ALostProbeOrStreamFrameFailsEvenWithALowMedian) {
  auto t = healthy();
  t.probes_received = 159;
  EXPECT_FALSE(check_frame_latency(limits, t).pass);
  t = healthy();
  t.stream.received = 28073;
  const auto v = check_frame_latency(limits, t);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("the port loses frames of 64 bytes at 95.0 % of its line rate"));
}

TEST(Rfc2544Latency, NoReplyAtAllSaysThePeerDoesNotAnswerPing) {
  auto t = healthy();
  t.probes_received = 0;
  t.round_trip = {};
  const auto v = check_frame_latency(limits, t);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_THAT(v.cause, HasSubstr("does not answer ping"));
}

TEST(Rfc2544Latency, ASenderShortOfTheLoadFailsAsTheToolsLimit) {
  auto t = healthy();
  t.stream.sent = 14000;
  t.stream.received = 14000;
  t.stream.sent_fps = 7000;
  const auto v = check_frame_latency(limits, t);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value) << "the latency of a lighter load is not the port's";
  EXPECT_THAT(v.cause, HasSubstr("not the link"));
}

TEST(Rfc2544Latency, AShortStreamThatLostFramesFailsAsThePortsLoss) {
  // The sender fell short of the load and frames were still lost: at no more than the load.
  auto t = healthy();
  t.stream.sent = 14000;
  t.stream.received = 13000;
  t.stream.sent_fps = 7000;
  const auto v = check_frame_latency(limits, t);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("the port loses frames of 64 bytes at 95.0 % of its line rate"));
  EXPECT_THAT(v.observed, Not(HasSubstr("the sender could not keep the load")));
}

}  // namespace latency

}  // namespace
