// The Y.1564 step verdicts on steps made by hand: IR and FLR from the frames counted, FTD and FDV
// from the probes' round trips, a cause for each way a step fails, the first failing step named.
#include "hil/measure/y1564_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using hil::measure::check_y1564;
using hil::measure::check_y1564_step;
using hil::measure::y1564_limits;
using hil::measure::y1564_step;
using ::testing::HasSubstr;
using ::testing::Not;

// 512-byte frames on 10 Mbit/s: 2,349.6 frames/s at the line rate; CIR 8 Mbit/s of frames.
const y1564_limits limits{512, 10, 10e6 / ((512 + 20) * 8.0), 8, 0, 5, 2, {}};

// A step of 2 s at percent of the CIR: the stream sent on schedule and lost `lost` frames; 100
// probes, all answered, median 0.1 ms, p99 0.3, minimum 0.05.
y1564_step step(double percent, std::uint64_t lost = 0) {
  y1564_step s;
  s.percent = percent;
  const double fps = hil::measure::step_fps(limits, percent) - 50;  // the probes' 50/s
  s.trial.duration = 2s;
  s.trial.stream.offered_fps = fps;
  s.trial.stream.sent_fps = fps;
  s.trial.stream.sent = static_cast<std::uint64_t>(fps * 2);
  s.trial.stream.received = s.trial.stream.sent - lost;
  s.trial.probes_sent = 100;
  s.trial.probes_received = 100;
  s.trial.round_trip.min_us = 50;
  s.trial.round_trip.p50_us = 100;
  s.trial.round_trip.p99_us = 300;
  s.trial.round_trip.max_us = 400;
  return s;
}

TEST(Y1564Checks, AStepsRateIsItsShareOfTheCirInFrames) {
  EXPECT_NEAR(hil::measure::step_fps(limits, 100), 8e6 / (512 * 8.0), 1e-9);
  EXPECT_NEAR(hil::measure::step_fps(limits, 25), 8e6 / 4 / (512 * 8.0), 1e-9);
}

TEST(Y1564Checks, ProbesSentOverPartOfTheStepCountAtTheirOwnRate) {
  // The probes' 50/s over the middle 1.6 s of the 2 s stream: 80 of them, still 50/s of the rate.
  auto s = step(75);
  s.trial.probe_window = 1600ms;
  s.trial.probes_sent = 80;
  s.trial.probes_received = 80;
  EXPECT_NEAR(hil::measure::information_rate_mbps(limits, s), 6.0, 0.01);
  s.trial.probes_received = 40;
  EXPECT_NEAR(hil::measure::information_rate_mbps(limits, s), 6.0 - 40 * 512 * 8 / 1.6 / 1e6, 0.01);
}

TEST(Y1564Checks, ALosslessStepOnScheduleDeliversItsRateAndPasses) {
  const auto s = step(75);
  const auto v = check_y1564_step(limits, s);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "Y1564 frame512 step 75%");
  EXPECT_NEAR(hil::measure::information_rate_mbps(limits, s), 6.0, 0.01);
  EXPECT_EQ(hil::measure::frame_loss_percent(s), 0);
  EXPECT_THAT(v.observed, HasSubstr("75 %: IR 6.00 of 6.00 Mbit/s, FLR 0.000 %, FTD 0.100 ms, "
                                    "FDV 0.250 ms (100/100 probes)"));
}

TEST(Y1564Checks, LossAboveTheAcceptedRatioFailsTheStepAsThePorts) {
  const auto v = check_y1564_step(limits, step(100, 20));
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("FLR 0.512 %"));  // 20 of 3,806 + 100 frames
  EXPECT_THAT(v.cause, HasSubstr("the port loses 0.512 % of the frames at 8.00 Mbit/s, 83.1 % of "
                                 "the media maximum"));
  y1564_limits lenient = limits;
  lenient.flr_percent = 1;
  EXPECT_TRUE(check_y1564_step(lenient, step(100, 20)).pass);
}

TEST(Y1564Checks, DelayOrItsVariationAboveTheCriteriaFailsAsAQueue) {
  auto slow = step(50);
  slow.trial.round_trip.p50_us = 6'000;
  slow.trial.round_trip.p99_us = 6'500;
  const auto v = check_y1564_step(limits, slow);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("FTD 6.000 ms"));
  EXPECT_THAT(v.cause, HasSubstr("frames wait in a queue"));
  EXPECT_THAT(v.cause, Not(HasSubstr("loses")));
  auto varied = step(50);
  varied.trial.round_trip.p99_us = 2'100;  // 2.05 ms above the minimum: over 2
  EXPECT_FALSE(check_y1564_step(limits, varied).pass);
  varied.trial.round_trip.p99_us = 2'000;
  EXPECT_TRUE(check_y1564_step(limits, varied).pass);
}

TEST(Y1564Checks, ASenderShortOfTheStepFailsAsTheToolsLimit) {
  auto s = step(100);
  s.trial.stream.sent_fps = s.trial.stream.offered_fps * 0.6;
  s.trial.stream.sent = static_cast<std::uint64_t>(s.trial.stream.sent_fps * 2);
  s.trial.stream.received = s.trial.stream.sent;
  const auto v = check_y1564_step(limits, s);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("no figure: the sender could not keep the step's rate"));
  EXPECT_THAT(v.cause, Not(HasSubstr("the port loses")));
}

TEST(Y1564Checks, UnansweredProbesFailTheStep) {
  auto s = step(25);
  s.trial.probes_received = 0;
  const auto v = check_y1564_step(limits, s);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("no echo reply came back"));
}

TEST(Y1564Checks, TheServiceNamesItsFirstFailingStepAndHowFarItPassed) {
  const std::vector<y1564_step> steps{step(25), step(50), step(75, 100), step(100, 400)};
  const auto v = check_y1564(limits, steps);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.check, "Y1564 frame512");
  EXPECT_EQ(*v.observed_value, 50);
  EXPECT_EQ(*v.limit_value, 100);
  EXPECT_THAT(v.cause, HasSubstr("at 75 % of CIR: the port loses"));
  EXPECT_THAT(v.observed, HasSubstr("50 %: IR 4.00 of 4.00 Mbit/s"));
  EXPECT_THAT(v.observed, HasSubstr("— failed"));
  EXPECT_THAT(v.observed, ::testing::StartsWith("steps up to 50 % of CIR passed (25 %: IR"));
  EXPECT_THAT(v.limit,
              HasSubstr("every step (25 %, 50 %, 75 %, 100 % of CIR 8.00 Mbit/s, frames of "
                        "512 bytes)"));
  const auto all = check_y1564(limits, {step(25), step(50), step(75), step(100)});
  EXPECT_TRUE(all.pass) << all.message();
  EXPECT_EQ(*all.observed_value, 100);
}

TEST(Y1564Checks, NoStepsIsAFailureNotAPass) {
  const auto v = check_y1564(limits, {});
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("y1564.steps is empty"));
}

}  // namespace
