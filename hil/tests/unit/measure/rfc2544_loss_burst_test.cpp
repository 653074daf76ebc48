// RFC 2544 frame loss sweep and back-to-back search (measure/rfc2544_loss, rfc2544_burst) on
// scripted trials, and their verdicts (measure/rfc2544_checks): a port that carries a share of line
// rate, one that never loses, a sender that cannot keep up, a port whose queue holds a burst.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "hil/measure/rfc2544_burst.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_loss.hpp"

namespace {

using hil::measure::burst_options;
using hil::measure::find_back_to_back;
using hil::measure::loss_sweep_options;
using hil::measure::sweep_frame_loss;
using hil::measure::trial_outcome;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr double line_10m_64 = 14'880.95;

// A port that carries `limit` frames/s and loses the excess; the sender keeps any schedule up to
// `sender` frames/s.
trial_outcome port(double limit, double fps, std::chrono::milliseconds d, double sender = 1e9) {
  const double seconds = static_cast<double>(d.count()) / 1000;
  trial_outcome t;
  t.offered_fps = fps;
  t.sent_fps = std::min(fps, sender);
  t.sent = static_cast<std::uint64_t>(t.sent_fps * seconds);
  t.received = std::min(t.sent, static_cast<std::uint64_t>(std::min(t.sent_fps, limit) * seconds));
  return t;
}

loss_sweep_options sweep_options() {
  loss_sweep_options o;
  o.max_fps = line_10m_64;
  return o;
}

TEST(Rfc2544FrameLoss, ALineRatePortSettlesAfterTwoLoadsWithoutLoss) {
  const auto r =
      sweep_frame_loss(sweep_options(), [](double fps, auto d) { return port(1e9, fps, d); });
  ASSERT_EQ(r.steps.size(), 2U);
  EXPECT_DOUBLE_EQ(r.steps[0].load, 1.0);
  EXPECT_DOUBLE_EQ(r.steps[1].load, 0.9);
  EXPECT_TRUE(r.settled);
  const hil::measure::frame_limits l{64, 10, line_10m_64, 95, 0, {}};
  const auto v = hil::measure::check_frame_loss(l, r);
  EXPECT_TRUE(v.pass) << v.observed;
  EXPECT_EQ(v.observed_value, 0.0);
  EXPECT_EQ(v.check, "Rfc2544FrameLoss frame64");
  EXPECT_THAT(v.observed, HasSubstr("loss-free from 100 % down"));
}

TEST(Rfc2544FrameLoss, APortAtHalfItsLineRateLosesTheExcessAtEachLoadDownToIt) {
  const double limit = line_10m_64 / 2;
  const auto r =
      sweep_frame_loss(sweep_options(), [&](double fps, auto d) { return port(limit, fps, d); });
  // 100 … 50 % lose (50 % itself carries exactly: loss-free), then 40 %: settled at 50, 40.
  ASSERT_EQ(r.steps.size(), 7U);
  EXPECT_TRUE(r.settled);
  EXPECT_NEAR(r.steps[0].trial.outcome.loss_ratio(), 0.5, 1e-3);
  EXPECT_NEAR(r.steps[1].trial.outcome.loss_ratio(), 1 - 0.5 / 0.9, 1e-3);
  EXPECT_TRUE(r.steps[5].trial.passed);
  const hil::measure::frame_limits l{64, 10, line_10m_64, 95, 0, {}};
  const auto v = hil::measure::check_frame_loss(l, r);
  EXPECT_FALSE(v.pass);
  EXPECT_NEAR(*v.observed_value, 100 * (1 - 0.5 / 0.9), 0.1) << "the worst step at or below 95 %";
  EXPECT_THAT(v.observed, HasSubstr("at 90 % of the media maximum"));
  EXPECT_THAT(v.cause, HasSubstr("at 90 % of its line rate"));
  // With the floor at half the line rate the same sweep passes: nothing lost at or below it.
  const hil::measure::frame_limits half{64, 10, line_10m_64, 50, 0, {}};
  EXPECT_TRUE(hil::measure::check_frame_loss(half, r).pass);
}

TEST(Rfc2544FrameLoss, APortThatNeverCarriesRunsEveryStepAndFails) {
  const auto r =
      sweep_frame_loss(sweep_options(), [](double fps, auto d) { return port(0, fps, d); });
  EXPECT_EQ(r.steps.size(), 10U) << "100 % down to 10 %";
  EXPECT_FALSE(r.settled);
  const auto v = hil::measure::check_frame_loss({64, 10, line_10m_64, 30, 0, {}}, r);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.observed_value, 100.0);
  EXPECT_THAT(v.observed, HasSubstr("did not find two loss-free loads"));
}

TEST(Rfc2544FrameLoss, ASenderThatCannotKeepTheLoadStopsTheSweepAsTheToolsLimit) {
  const auto r =
      sweep_frame_loss(sweep_options(), [](double fps, auto d) { return port(1e9, fps, d, 5000); });
  ASSERT_TRUE(r.tool_limited);
  EXPECT_THAT(*r.tool_limited, HasSubstr("sent 5000"));
  EXPECT_EQ(r.trials.size(), 3U) << "measured again twice";
  EXPECT_TRUE(r.steps.empty());
  const auto v = hil::measure::check_frame_loss({64, 10, line_10m_64, 95, 0, {}}, r);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_THAT(v.cause, HasSubstr("not the link"));
}

TEST(Rfc2544FrameLoss, AShortSenderThatLostFramesCountsAsLoss) {
  // The sender reaches 12,000 frames/s, the port 6,000: the 100 % step is short and lossy.
  const auto r = sweep_frame_loss(sweep_options(),
                                  [](double fps, auto d) { return port(6000, fps, d, 12'000); });
  EXPECT_FALSE(r.tool_limited);
  ASSERT_FALSE(r.steps.empty());
  EXPECT_FALSE(r.steps[0].trial.valid);
  EXPECT_FALSE(r.steps[0].trial.passed);
  EXPECT_NEAR(r.steps[0].trial.outcome.loss_ratio(), 0.5, 1e-3);
}

TEST(Rfc2544FrameLoss, OptionsItCannotUseAreRefused) {
  auto o = sweep_options();
  o.step = 0.2;
  EXPECT_THROW((void)sweep_frame_loss(o, [](double, auto) { return trial_outcome{}; }),
               std::invalid_argument)
      << "RFC 2544 asks steps of at most 10 %";
  o = sweep_options();
  o.max_fps = 0;
  EXPECT_THROW((void)sweep_frame_loss(o, [](double, auto) { return trial_outcome{}; }),
               std::invalid_argument);
}

// A port that drains `rate` frames/s and holds `queue` frames: a burst of n at fps > rate keeps
// n · rate / fps + queue of them.
trial_outcome queued_port(double rate, std::uint64_t queue, double fps, std::uint64_t n,
                          double sender = 1e9) {
  trial_outcome t;
  t.offered_fps = fps;
  t.sent_fps = std::min(fps, sender);
  t.sent = n;
  const double kept = t.sent_fps <= rate
                          ? static_cast<double>(n)
                          : static_cast<double>(n) * rate / t.sent_fps + static_cast<double>(queue);
  t.received = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(kept));
  return t;
}

burst_options burst() {
  burst_options o;
  o.line_fps = line_10m_64;
  o.max_frames = 29'762;  // 2 s at line rate
  o.resolution = 0.01;
  o.repeats = 3;
  return o;
}

TEST(Rfc2544BackToBack, APortThatCarriesLineRateTakesTheLongestBurstWhole) {
  const auto r = find_back_to_back(
      burst(), [](double fps, std::uint64_t n) { return queued_port(1e9, 0, fps, n); });
  EXPECT_EQ(r.longest, (std::vector<std::uint64_t>{29'762, 29'762, 29'762}));
  EXPECT_EQ(r.trials.size(), 3U);
  EXPECT_EQ(r.spread(), 0.0);
  const auto v = hil::measure::check_back_to_back({64, 10, line_10m_64, 29'762, 100, {}}, r);
  EXPECT_TRUE(v.pass) << v.observed;
  EXPECT_EQ(v.check, "Rfc2544BackToBack frame64");
  EXPECT_DOUBLE_EQ(*v.observed_value, 29'762);
}

TEST(Rfc2544BackToBack, APortAtHalfLineRateHoldsTwiceItsQueue) {
  // Whole while n/2 + 500 ≥ n: up to 1,000 frames.
  const auto r = find_back_to_back(burst(), [](double fps, std::uint64_t n) {
    return queued_port(line_10m_64 / 2, 500, fps, n);
  });
  ASSERT_EQ(r.longest.size(), 3U);
  for (const auto n : r.longest) {
    EXPECT_LE(n, 1000U);
    EXPECT_GE(n, 990U) << "within 1 % of the answer";
  }
  EXPECT_LE(r.trials.size(), 3U * 20) << "a binary search, not a walk";
  const auto v = hil::measure::check_back_to_back({64, 10, line_10m_64, 29'762, 100, {}}, r);
  EXPECT_FALSE(v.pass);
  EXPECT_NEAR(*v.observed_value, 1000, 10);
  EXPECT_THAT(v.cause, HasSubstr("txqueuelen"));
  EXPECT_THAT(v.cause, HasSubstr("after about 99"));
}

TEST(Rfc2544BackToBack, ASlowSenderSaysItsGapsWereWiderThanTheMinimum) {
  const auto r = find_back_to_back(
      burst(), [](double fps, std::uint64_t n) { return queued_port(1e9, 0, fps, n, 9000); });
  EXPECT_DOUBLE_EQ(r.slowest_below_line_rate(), 9000);
  const auto v = hil::measure::check_back_to_back({64, 10, line_10m_64, 29'762, 100, {}}, r);
  EXPECT_TRUE(v.pass) << "the DUT's port took every burst the DUT could send";
  EXPECT_THAT(v.observed, HasSubstr("9000 frames/s, below line rate"));
}

TEST(Rfc2544BackToBack, ThreeRepeatsOfDifferentBurstsGiveTheirAverageAndSpread) {
  int call = 0;
  std::uint64_t queue = 0;
  const auto r = find_back_to_back(burst(), [&](double fps, std::uint64_t n) {
    if (n == 29'762) queue = 100 * static_cast<std::uint64_t>(++call);  // a new repeat
    return queued_port(line_10m_64 / 2, queue, fps, n);
  });
  ASSERT_EQ(r.longest.size(), 3U);
  EXPECT_NEAR(r.average(), 400, 4) << "bursts of 200, 400 and 600";
  EXPECT_NEAR(r.spread(), 200, 4);
}

TEST(Rfc2544BackToBack, OptionsItCannotUseAreRefused) {
  auto o = burst();
  o.max_frames = 0;
  EXPECT_THROW((void)find_back_to_back(o, [](double, std::uint64_t) { return trial_outcome{}; }),
               std::invalid_argument);
  o = burst();
  o.repeats = 0;
  EXPECT_THROW((void)find_back_to_back(o, [](double, std::uint64_t) { return trial_outcome{}; }),
               std::invalid_argument);
}

}  // namespace
