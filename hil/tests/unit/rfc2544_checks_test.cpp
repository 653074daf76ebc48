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

const frame_limits limits{64, 1000, 1'488'095.2, 95.0, 0};

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
  t.outcome = {14'881, 14'881, 14'881, 0};
  r.trials = {t};
  const frame_limits jumbo{9018, 1000, 13'830.5, 95.0, 0.001};
  const auto v = check_frame_throughput(jumbo, r);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("no rate with at most 0.1 % loss (lowest tried 14881"));
  EXPECT_THAT(v.cause, HasSubstr("an MTU below 9000 on the DUT, the peer or a switch"));
}

}  // namespace
