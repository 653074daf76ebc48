// timer_wait's spin window rule (pure arithmetic on durations; nothing sleeps): it widens at once
// to cover a late wake-up, narrows slowly once wake-ups are punctual, and stays within its bounds.
#include "hil/traffic/timer_wait.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using namespace std::chrono_literals;
using hil::traffic::timer_wait;

TEST(TimerWait, ALateWakeUpWidensTheWindowAtOnceToCoverIt) {
  EXPECT_EQ(timer_wait::next_window(10us, 40us), 40us + timer_wait::margin);
}

TEST(TimerWait, PunctualWakeUpsNarrowItSlowlyToTheirLatenessPlusTheMargin) {
  std::chrono::nanoseconds w = timer_wait::max_window;
  w = timer_wait::next_window(w, 3us);
  EXPECT_LT(w, timer_wait::max_window);
  EXPECT_GT(w, timer_wait::max_window - 5us) << "one punctual wake-up narrows it by 1/32";
  for (int i = 0; i < 1000; ++i) w = timer_wait::next_window(w, 3us);
  EXPECT_LE(w, 3us + timer_wait::margin + 1us);
  EXPECT_GE(w, 3us + timer_wait::margin);
}

TEST(TimerWait, TheWindowStaysBetweenItsBounds) {
  EXPECT_EQ(timer_wait::next_window(timer_wait::max_window, 10ms), timer_wait::max_window);
  std::chrono::nanoseconds w = timer_wait::min_window;
  for (int i = 0; i < 100; ++i) w = timer_wait::next_window(w, 0ns);
  EXPECT_EQ(w, timer_wait::min_window);
  EXPECT_EQ(timer_wait::next_window(timer_wait::min_window, -5us), timer_wait::min_window)
      << "a clock read before the wake time cannot narrow it below the minimum";
}

TEST(TimerWait, AFreshWaiterSpinsTheWidestWindow) {
  EXPECT_EQ(timer_wait().window(), timer_wait::max_window);
}

}  // namespace
