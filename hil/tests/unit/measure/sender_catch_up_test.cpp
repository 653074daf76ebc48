// A sender that fell behind its schedule and caught up above the offered rate
// (trial_outcome::loss_within_catch_up): a trial whose loss that burst may explain is not the
// constant load it claims, and is measured again; a loss beyond it counts at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

#include "hil/measure/rfc2544_search.hpp"

namespace {

using hil::measure::find_throughput;
using hil::measure::search_options;
using hil::measure::trial_outcome;

constexpr double gigabit_64 = 1'488'095.238;

search_options options() {
  search_options o;
  o.max_fps = gigabit_64;
  o.resolution = 0.001;
  return o;
}

// A port that carries `limit` frames/s and loses the excess; its sender kept the count, and at
// most `overdue` frames were behind at once.
trial_outcome port(double limit, double fps, std::chrono::milliseconds d,
                   std::optional<std::uint64_t> overdue) {
  const double seconds = std::chrono::duration<double>(d).count();
  trial_outcome t;
  t.offered_fps = fps;
  t.sent_fps = fps;
  t.sent = static_cast<std::uint64_t>(fps * seconds);
  t.received = std::min(t.sent, static_cast<std::uint64_t>(std::min(fps, limit) * seconds));
  t.sender_overdue = overdue;
  return t;
}

TEST(SenderCatchUp, ALossIsWithinTheCatchUpUpToTheFramesOverdueAndOnlyForOurSender) {
  trial_outcome t;
  t.sent = 2203;
  t.received = 2203 - 159;
  EXPECT_FALSE(t.loss_within_catch_up()) << "a peer's sender: nothing is known of its schedule";
  t.sender_overdue = 159;
  EXPECT_TRUE(t.loss_within_catch_up()) << "159 lost, 159 overdue";
  t.sender_overdue = 158;
  EXPECT_FALSE(t.loss_within_catch_up()) << "one frame more than the burst";
  t.received = t.sent;
  EXPECT_FALSE(t.loss_within_catch_up()) << "no loss";
}

// The shape seen on the simulated 10 Mbit/s port with a busy core: at 93 % of the port's rate a
// 100 ms stall left 223 frames overdue and the catch-up lost 159 of them. The trial is measured
// again; the next, on schedule, passes and counts.
TEST(SenderCatchUp, ALossWithinTheCatchUpIsMeasuredAgainAndTheNextTrialCounts) {
  int calls = 0;
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    auto t = port(900'000, fps, d, 3);
    if (++calls == 2) {  // the first midpoint, 744,048 frames/s: below the port's rate
      t.sender_overdue = 74'405;
      t.received = t.sent - 50'000;
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

// Above the port's rate the loss is far beyond a few frames overdue: it counts at once.
TEST(SenderCatchUp, ALossBeyondTheCatchUpCountsAtOnce) {
  const auto r =
      find_throughput(options(), [&](double fps, auto d) { return port(900'000, fps, d, 3); });
  ASSERT_GE(r.trials.size(), 2U);
  EXPECT_TRUE(r.trials[0].valid);
  EXPECT_FALSE(r.trials[0].passed);
  EXPECT_LT(r.trials[1].outcome.offered_fps, r.trials[0].outcome.offered_fps)
      << "the first point failed at once: the search went on below";
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_GE(*r.throughput_fps, 900'000 - 0.001 * gigabit_64);
}

// A sender behind by more than a port loses on every trial: each point is measured three times,
// then fails on its last trial's loss, never passes.
TEST(SenderCatchUp, ALossWithinTheCatchUpEveryTimeFailsThePoint) {
  const auto r = find_throughput(options(), [&](double fps, auto d) {
    auto t = port(2e6, fps, d, 500);
    t.received = t.sent - 100;
    return t;
  });
  ASSERT_GE(r.trials.size(), 4U);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(r.trials[i].valid) << i;
    EXPECT_DOUBLE_EQ(r.trials[i].outcome.offered_fps, gigabit_64) << i;
  }
  EXPECT_LT(r.trials[3].outcome.offered_fps, gigabit_64) << "the point failed: the search went on";
  EXPECT_FALSE(r.throughput_fps) << "every trial lost frames";
  EXPECT_FALSE(r.tool_limited);
}

}  // namespace
