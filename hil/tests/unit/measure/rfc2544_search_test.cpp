// The RFC 2544 throughput search (measure/rfc2544_search) on scripted trials: a monotone port, a
// noisy one, a pass above a fail, a confirmation that fails, a sender that cannot keep up.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "hil/measure/rfc2544_search.hpp"

namespace {

using hil::measure::find_throughput;
using hil::measure::search_options;
using hil::measure::trial_outcome;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr double gigabit_64 = 1'488'095.238;

search_options options() {
  search_options o;
  o.max_fps = gigabit_64;
  o.resolution = 0.001;
  return o;
}

// A port that carries `limit` frames/s and loses the excess, a sender that keeps any schedule.
trial_outcome port(double limit, double fps, std::chrono::milliseconds d) {
  trial_outcome t;
  t.offered_fps = fps;
  t.sent_fps = fps;
  t.sent = static_cast<std::uint64_t>(fps * static_cast<double>(d.count()) / 1000);
  const double carried = std::min(fps, limit) * static_cast<double>(d.count()) / 1000;
  t.received = std::min(t.sent, static_cast<std::uint64_t>(carried));
  return t;
}

TEST(Rfc2544Search, AMonotonePortIsFoundWithinTheResolution) {
  const double limit = 612'345;
  const auto r =
      find_throughput(options(), [&](double fps, auto d) { return port(limit, fps, d); });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, limit);
  EXPECT_GE(*r.throughput_fps, limit - 0.001 * gigabit_64);
  EXPECT_TRUE(r.trials.back().confirmation);
  EXPECT_EQ(r.trials.back().duration, 10s);
  EXPECT_LE(r.trials.size(), 12U)
      << "log2(1000) ≈ 10 halvings, the first trial and the confirmation";
  EXPECT_FALSE(r.tool_limited);
}

TEST(Rfc2544Search, ALineRatePortNeedsOneTrialAndAConfirmation) {
  const auto r = find_throughput(options(), [&](double fps, auto d) { return port(2e6, fps, d); });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_DOUBLE_EQ(*r.throughput_fps, gigabit_64);
  EXPECT_EQ(r.trials.size(), 2U);
}

TEST(Rfc2544Search, AnAcceptedLossRatioFindsTheHigherPartialDropRate) {
  auto o = options();
  o.accepted_loss = 0.01;  // 1 %: the port's 600,000 with up to 1 % more offered
  const auto r = find_throughput(o, [&](double fps, auto d) { return port(600'000, fps, d); });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_GT(*r.throughput_fps, 600'000);
  EXPECT_LE(*r.throughput_fps, 600'000 / 0.99);
}

TEST(Rfc2544Search, APassAboveAFailIsKeptAndTheAnswerLiesBetweenTheirNeighbours) {
  // Noise: 744,047 (the first midpoint) fails once although the port carries 900,000.
  int calls = 0;
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    ++calls;
    auto t = port(900'000, fps, d);
    if (calls == 2) t.received = t.sent - 1;
    return t;
  });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LT(*r.throughput_fps, gigabit_64 / 2) << "the search believed the fail: all above is out";
  EXPECT_GE(*r.throughput_fps, gigabit_64 / 2 - 0.001 * gigabit_64);
}

TEST(Rfc2544Search, AFailedConfirmationSearchesOnBelowIt) {
  // Short trials pass up to 700,000, long ones only up to 650,000 (a buffer that fills slowly).
  const auto r = find_throughput(options(), [&](double fps, std::chrono::milliseconds d) {
    return port(d >= 10s ? 650'000 : 700'000, fps, d);
  });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 650'000);
  EXPECT_GE(*r.throughput_fps, 650'000 - 0.001 * gigabit_64 * 2);
  int confirmations = 0;
  for (const auto& t : r.trials) confirmations += t.confirmation ? 1 : 0;
  EXPECT_GE(confirmations, 2);
}

TEST(Rfc2544Search, ASenderThatFallsShortStopsTheSearchAndSaysWhoIsTheLimit) {
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    auto t = port(2e6, std::min(fps, 612'000.0), d);
    t.offered_fps = fps;
    return t;
  });
  EXPECT_FALSE(r.throughput_fps);
  ASSERT_TRUE(r.tool_limited);
  EXPECT_THAT(*r.tool_limited, HasSubstr("offered 1488095 frames/s, sent 612000"));
  EXPECT_THAT(*r.tool_limited, HasSubstr("the DUT's CPU or the tool is the limit, not the link"));
}

// The sender reaches only 612,000 frames/s, but the port loses frames above 300,000: the trials
// above the sender's reach lost frames too, so after two more each they fail (the port's doing,
// at no more than the offered rate) and the search goes on below them to the port's answer.
TEST(Rfc2544Search, ASenderShortEveryTimeWhoseFramesWereLostFailsThePoint) {
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    auto t = port(300'000, std::min(fps, 612'000.0), d);
    t.offered_fps = fps;
    return t;
  });
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_NEAR(*r.throughput_fps, 300'000, 0.001 * gigabit_64);
  EXPECT_LE(*r.throughput_fps, 300'000);
  ASSERT_GE(r.trials.size(), 4U);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(r.trials[i].valid) << i;
    EXPECT_FALSE(r.trials[i].passed) << i;
    EXPECT_DOUBLE_EQ(r.trials[i].outcome.offered_fps, gigabit_64) << i;
  }
  EXPECT_LT(r.trials[3].outcome.offered_fps, gigabit_64) << "the point failed: the search went on";
}

// A sender that stalled and caught up in a burst the shaped port's queue could not hold: short and
// lossy once, then the schedule kept without loss. The point is the second trial's, a pass, not a
// loss the port would not have had paced.
TEST(Rfc2544Search, AShortLossyTrialIsMeasuredAgainAndTheKeptOneCounts) {
  int calls = 0;
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    ++calls;
    auto t = port(900'000, fps, d);
    if (calls == 2) {  // the first midpoint, 744,048: 95 % sent, 1,000 of them lost
      t.sent = t.sent * 95 / 100;
      t.sent_fps = fps * 0.95;
      t.received = t.sent - 1000;
    }
    return t;
  });
  ASSERT_GE(r.trials.size(), 3U);
  EXPECT_FALSE(r.trials[1].valid);
  EXPECT_FALSE(r.trials[1].passed);
  EXPECT_TRUE(r.trials[2].valid);
  EXPECT_TRUE(r.trials[2].passed);
  EXPECT_DOUBLE_EQ(r.trials[2].outcome.offered_fps, r.trials[1].outcome.offered_fps);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 900'000);
  EXPECT_GE(*r.throughput_fps, 900'000 - 0.001 * gigabit_64);
}

TEST(Rfc2544Search, APortThatLosesEverythingHasNoThroughput) {
  const auto r = find_throughput(options(), [&](double fps, auto d) { return port(0, fps, d); });
  EXPECT_FALSE(r.throughput_fps);
  EXPECT_FALSE(r.tool_limited);
}

TEST(Rfc2544Search, UnusableOptionsAreRefused) {
  auto o = options();
  o.resolution = 0;
  EXPECT_THROW((void)find_throughput(o, {}), std::invalid_argument);
  o = options();
  o.max_fps = 0;
  EXPECT_THROW((void)find_throughput(o, {}), std::invalid_argument);
  o = options();
  o.accepted_loss = 1;
  EXPECT_THROW((void)find_throughput(o, {}), std::invalid_argument);
}

TEST(Rfc2544Search, OneFrameOfRoundingIsNotAShortfall) {
  // 1,762.22 frames/s for 1 s: 1,761 sent is the schedule's count, give or take its ends.
  auto o = options();
  o.max_fps = 1762.22;
  const auto r = find_throughput(o, [&](double fps, auto d) {
    auto t = port(1e6, fps, d);
    t.sent = static_cast<std::uint64_t>(fps * std::chrono::duration<double>(d).count()) - 1;
    t.received = t.sent;
    return t;
  });
  EXPECT_FALSE(r.tool_limited) << *r.tool_limited;
  EXPECT_TRUE(r.throughput_fps);
}

TEST(Rfc2544Search, ATrialWhoseSenderStalledOnceIsMeasuredAgain) {
  int calls = 0;
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    auto t = port(900'000, fps, d);
    if (++calls == 3) t.sent = t.sent / 2;  // one stall: half the frames went out
    return t;
  });
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_GE(r.trials.size(), 4U);
  EXPECT_FALSE(r.trials[2].valid);
  EXPECT_TRUE(r.trials[3].valid);
  EXPECT_EQ(r.trials[2].outcome.offered_fps, r.trials[3].outcome.offered_fps) << "the same rate";
}

}  // namespace
