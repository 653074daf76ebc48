// The server's total-bitrate limit (session/bitrate_cap): a full window's average against the
// limit, on scripted byte counts and times.
#include <gtest/gtest.h>

#include "hil/session/bitrate_cap.hpp"

namespace {

using hil::session::bitrate_cap;
using namespace std::chrono_literals;

const bitrate_cap::clock::time_point t0{};

TEST(BitrateCap, NothingIsJudgedBeforeAFullWindow) {
  bitrate_cap cap(8'000'000, 2s, t0);               // 1 MB/s
  EXPECT_FALSE(cap.exceeded(t0 + 1s, 10'000'000));  // 80 Mbit in 1 s, but the window is 2 s
}

TEST(BitrateCap, AnAverageAboveTheLimitIsReportedWithItsValue) {
  bitrate_cap cap(8'000'000, 2s, t0);
  EXPECT_FALSE(cap.exceeded(t0 + 1s, 1'000'000));
  const auto average = cap.exceeded(t0 + 2s, 2'500'000);  // 20 Mbit in 2 s
  ASSERT_TRUE(average);
  EXPECT_DOUBLE_EQ(*average, 10'000'000);
}

TEST(BitrateCap, ExactlyTheLimitPasses) {
  bitrate_cap cap(8'000'000, 2s, t0);
  EXPECT_FALSE(cap.exceeded(t0 + 1s, 1'000'000));
  EXPECT_FALSE(cap.exceeded(t0 + 2s, 2'000'000));
}

TEST(BitrateCap, TheWindowSlides) {
  bitrate_cap cap(8'000'000, 2s, t0);
  EXPECT_FALSE(cap.exceeded(t0 + 1s, 2'000'000));  // a burst of 2 MB in the first second
  EXPECT_TRUE(cap.exceeded(t0 + 2s, 2'000'001));   // 16 Mbit + 8 bit over 0–2 s
  // 2–4 s: nothing more moved; the burst has left the window.
  EXPECT_FALSE(cap.exceeded(t0 + 3s, 2'000'001));
  EXPECT_FALSE(cap.exceeded(t0 + 4s, 2'000'001));
}

TEST(BitrateCap, CallsBetweenWholeSecondsJudgeNothingNew) {
  bitrate_cap cap(8'000'000, 1s, t0);
  EXPECT_FALSE(cap.exceeded(t0 + 200ms, 5'000'000));
  EXPECT_TRUE(cap.exceeded(t0 + 1s, 5'000'000));
  EXPECT_FALSE(cap.exceeded(t0 + 1200ms, 9'000'000));  // judged again at 2 s
  EXPECT_TRUE(cap.exceeded(t0 + 2s, 9'000'000));
}

}  // namespace
