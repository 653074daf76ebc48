// The batch pacer's arithmetic: when each frame is due, and what "schedule kept" asks of the two
// counts (what the path took, what the interface put on the link).
#include <gtest/gtest.h>

#include <chrono>

#include "hil/frame/batch_pacer.hpp"

namespace {

using hil::frame::due_after;
using hil::frame::pace_result;
using namespace std::chrono_literals;

TEST(BatchPacer, FramesAreDueOnTheMediaMaximumsGrid) {
  const double media_max_64 = 1e9 / ((64 + 20) * 8.0);  // 1,488,095.2 frames/s
  EXPECT_EQ(due_after(0, media_max_64), 0ns);
  EXPECT_EQ(due_after(1, media_max_64), 672ns);
  EXPECT_EQ(due_after(32, media_max_64), 21504ns) << "a batch of 32 every 21.5 us";
  EXPECT_EQ(due_after(1'488'095, media_max_64), 999'999'840ns);
}

pace_result paced(std::uint64_t scheduled, std::uint64_t accepted, std::uint64_t tx) {
  pace_result r;
  r.frames_per_second = 1'000'000;
  r.scheduled = scheduled;
  r.accepted = accepted;
  r.tx_packets = tx;
  r.seconds = 1;
  return r;
}

TEST(BatchPacer, TheScheduleIsKeptOnlyWhenBothCountsReachIt) {
  EXPECT_TRUE(paced(1'000'000, 1'000'000, 1'000'000).schedule_kept());
  EXPECT_TRUE(paced(1'000'000, 999'000, 999'000).schedule_kept()) << "0.1 % short is within";
  EXPECT_FALSE(paced(1'000'000, 998'999, 1'000'000).schedule_kept()) << "the path took too few";
  EXPECT_FALSE(paced(1'000'000, 1'000'000, 998'999).schedule_kept())
      << "the ring took them, the link did not carry them";
  EXPECT_FALSE(paced(0, 5, 5).schedule_kept()) << "an unpaced run has no schedule";
}

TEST(BatchPacer, RatesAndCpuCostComeFromTheCounts) {
  pace_result r = paced(0, 2'000'000, 1'900'000);
  r.seconds = 2;
  r.cpu_seconds = 0.5;
  EXPECT_DOUBLE_EQ(r.accepted_per_second(), 1e6);
  EXPECT_DOUBLE_EQ(r.link_per_second(), 950'000);
  EXPECT_DOUBLE_EQ(r.cpu_per_million(), 0.25);
}

}  // namespace
