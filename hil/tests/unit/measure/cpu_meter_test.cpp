// cpu_meter with a scripted sampler (the clocks a test wants) and one check of the real one.
#include "hil/measure/cpu_meter.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using namespace std::chrono_literals;
using hil::measure::cpu_meter;
using cpu_times = cpu_meter::cpu_times;

// A sampler that returns the given readings in order; the first one is the meter's start.
class scripted_clock {
 public:
  explicit scripted_clock(std::vector<cpu_times> readings) : readings_(std::move(readings)) {}

  cpu_meter::sampler sampler() {
    return [this] { return readings_.at(next_++); };
  }
  [[nodiscard]] std::size_t reads() const { return next_; }

 private:
  std::vector<cpu_times> readings_;
  std::size_t next_ = 0;
};

TEST(CpuMeter, ReportsUserAndSystemAsPercentOfWallTime) {
  scripted_clock clock({{100s, 5s, 2s}, {101s, 5300ms, 2200ms}});
  const cpu_meter meter(clock.sampler());
  const auto u = meter.usage();
  EXPECT_DOUBLE_EQ(u.user, 30.0);
  EXPECT_DOUBLE_EQ(u.system, 20.0);
  EXPECT_DOUBLE_EQ(u.total, 50.0);
}

TEST(CpuMeter, ThreadsOnSeveralCoresExceedOneHundredPercent) {
  scripted_clock clock({{0s, 0s, 0s}, {2s, 5s, 1s}});
  const cpu_meter meter(clock.sampler());
  const auto u = meter.usage();
  EXPECT_DOUBLE_EQ(u.user, 250.0);
  EXPECT_DOUBLE_EQ(u.system, 50.0);
  EXPECT_DOUBLE_EQ(u.total, 300.0);
}

TEST(CpuMeter, EveryReadingIsSinceTheStartNotSinceTheLastReading) {
  scripted_clock clock({{10s, 1s, 0s}, {12s, 2s, 0s}, {14s, 3s, 0s}});
  const cpu_meter meter(clock.sampler());
  EXPECT_EQ(clock.reads(), 1U);  // the constructor records the start
  EXPECT_DOUBLE_EQ(meter.usage().user, 50.0);
  EXPECT_DOUBLE_EQ(meter.usage().user, 50.0);  // 2 s of CPU over 4 s, not 1 s over 2 s
  EXPECT_EQ(clock.reads(), 3U);
}

TEST(CpuMeter, NoElapsedWallTimeGivesZeroNotNaN) {
  scripted_clock clock({{5s, 1s, 1s}, {5s, 2s, 2s}});
  const cpu_meter meter(clock.sampler());
  const auto u = meter.usage();
  EXPECT_EQ(u.total, 0.0);
  EXPECT_EQ(u.user, 0.0);
  EXPECT_EQ(u.system, 0.0);
}

TEST(CpuMeter, AnEmptySamplerIsRejected) {
  EXPECT_THROW(cpu_meter(cpu_meter::sampler{}), std::invalid_argument);
}

TEST(CpuMeter, RealSamplerIsMonotonic) {
  const auto sample = cpu_meter::real_sampler();
  const cpu_times first = sample();
  // Burn CPU until the process's CPU time visibly advances (bounded by a deadline, no sleep).
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  volatile std::uint64_t sink = 0;
  cpu_times later = sample();
  while (later.user + later.system == first.user + first.system &&
         std::chrono::steady_clock::now() < deadline) {
    for (int i = 0; i < 100'000; ++i) sink = sink + static_cast<std::uint64_t>(i);
    later = sample();
  }
  EXPECT_GT(later.wall, first.wall);
  EXPECT_GE(later.user, first.user);
  EXPECT_GE(later.system, first.system);
  EXPECT_GT(later.user + later.system, first.user + first.system);

  const cpu_meter meter;  // the default is the real sampler
  const auto u = meter.usage();
  EXPECT_GE(u.user, 0.0);
  EXPECT_GE(u.system, 0.0);
  EXPECT_NEAR(u.total, u.user + u.system, 1e-9);
}

}  // namespace
