// The netperf suite's and latency under load's verdicts (hil/measure/netperf_checks.hpp) on
// figures made by hand: each passes on a healthy figure and at its limit, and each way it fails
// names the measured value, the limit and the cause.
#include "hil/measure/netperf_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

using hil::measure::bound;
using hil::measure::check_loaded_latency;
using hil::measure::check_netperf_average;
using hil::measure::latency_summary;
using hil::measure::sample_stats;
using hil::measure::summarize_samples;
using hil::measure::workload;
using hil::measure::workload_unit;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(WorkloadUnit, StreamsInMbitPerSecondRequestResponseInTransactions) {
  EXPECT_STREQ(workload_unit(workload::tcp_stream), "Mbit/s");
  EXPECT_STREQ(workload_unit(workload::tcp_maerts), "Mbit/s");
  EXPECT_STREQ(workload_unit(workload::udp_stream), "Mbit/s");
  EXPECT_STREQ(workload_unit(workload::tcp_rr), "trans/s");
  EXPECT_STREQ(workload_unit(workload::tcp_crr), "trans/s");
  EXPECT_STREQ(workload_unit(workload::udp_rr), "trans/s");
}

// Three iterations averaging 940 Mbit/s (or trans/s), summarised at 99 % as the case does.
const std::vector<double> healthy{930, 940, 950};
sample_stats stats_of(const std::vector<double>& values) { return summarize_samples(values, 0.99); }

TEST(NetperfAverage, PassesAtOrAboveTheMinimumWithTheFigureAndItsBound) {
  const auto v = check_netperf_average(workload::tcp_stream, healthy, stats_of(healthy), 900);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "NetperfSuite TCP_STREAM");
  EXPECT_THAT(v.observed, HasSubstr("average 940.0 Mbit/s over 3 iterations"));
  EXPECT_THAT(v.observed, HasSubstr("at 99 %"));
  EXPECT_EQ(v.limit, ">= 900.0 Mbit/s average, every iteration > 0");
  EXPECT_TRUE(v.cause.empty());
  EXPECT_EQ(v.observed_value, 940);
  EXPECT_EQ(v.limit_value, 900);
  EXPECT_EQ(v.limit_bound, bound::at_least);
  EXPECT_EQ(v.unit, "Mbit/s");

  EXPECT_TRUE(check_netperf_average(workload::tcp_stream, healthy, stats_of(healthy), 940).pass)
      << "an average equal to the minimum passes";
}

TEST(NetperfAverage, WithoutAMinimumAnyPositiveFigurePassesAndNoLimitValueIsGiven) {
  const std::vector<double> slow{0.5, 0.7};
  const auto v = check_netperf_average(workload::tcp_rr, slow, stats_of(slow), 0);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.limit, "every iteration > 0 (no minimum average set in the profile)");
  EXPECT_FALSE(v.limit_value.has_value());
  EXPECT_EQ(v.unit, "trans/s");
}

TEST(NetperfAverage, AnAverageBelowTheMinimumFailsNamingValueLimitAndTheStreamCause) {
  const std::vector<double> low{790, 800, 810};
  const auto v = check_netperf_average(workload::tcp_maerts, low, stats_of(low), 900);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("NetperfSuite TCP_MAERTS FAILED"));
  EXPECT_THAT(v.message(), HasSubstr("measured average 800.0 Mbit/s"));
  EXPECT_THAT(v.message(), HasSubstr("limit >= 900.0 Mbit/s average"));
  EXPECT_THAT(v.message(), HasSubstr("likely cause: the link runs below its rate"));
}

TEST(NetperfAverage, EachWorkloadKindFailsWithItsOwnCause) {
  const std::vector<double> low{100, 100};
  const auto udp = check_netperf_average(workload::udp_stream, low, stats_of(low), 900);
  EXPECT_FALSE(udp.pass);
  EXPECT_THAT(udp.cause, HasSubstr("datagrams dropped before the peer"));
  EXPECT_THAT(udp.message(), HasSubstr("measured average 100.0 Mbit/s"));

  const auto rr = check_netperf_average(workload::udp_rr, low, stats_of(low), 9000);
  EXPECT_FALSE(rr.pass);
  EXPECT_THAT(rr.message(), HasSubstr("measured average 100.0 trans/s"));
  EXPECT_THAT(rr.message(), HasSubstr("limit >= 9000.0 trans/s average"));
  EXPECT_THAT(rr.cause, HasSubstr("each transaction takes too long"));
}

TEST(NetperfAverage, AnIterationThatMeasuredNothingFailsEvenAboveTheMinimum) {
  // A zero among high figures can keep the mean above the minimum; the check still fails on it.
  const std::vector<double> one_zero{1500, 0, 1500};
  const auto v = check_netperf_average(workload::tcp_stream, one_zero, stats_of(one_zero), 900);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("measured average 1000.0 Mbit/s"));
  EXPECT_THAT(v.message(), HasSubstr("every iteration > 0"));
  EXPECT_THAT(v.cause, HasSubstr("iteration 2 measured nothing"));
  EXPECT_THAT(v.cause, HasSubstr("the link runs below its rate"));

  const std::vector<double> not_a_number{940, std::nan("")};
  const auto nan = check_netperf_average(workload::tcp_rr, not_a_number, stats_of(healthy), 0);
  EXPECT_FALSE(nan.pass) << "a figure that is not a number is no figure";
  EXPECT_THAT(nan.cause, HasSubstr("iteration 2 measured nothing"));
}

TEST(NetperfAverage, NoIterationFails) {
  const auto v = check_netperf_average(workload::tcp_stream, {}, sample_stats{}, 0);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("over 0 iterations"));
  EXPECT_THAT(v.message(), HasSubstr("likely cause: no iteration ran"));
}

// Round trips with the given p99 (µs) over count transactions.
latency_summary round_trips(double p99_us, std::uint64_t count = 1000) {
  latency_summary s;
  s.count = count;
  s.p50_us = p99_us / 2;
  s.p99_us = p99_us;
  s.max_us = p99_us * 2;
  return s;
}

constexpr double up_bps = 940e6;
constexpr double down_bps = 930e6;

TEST(LoadedLatency, PassesAtOrBelowTheLimitWithTheFigureInMilliseconds) {
  const auto v = check_loaded_latency(round_trips(100), round_trips(4000), up_bps, down_bps, 5);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "LatencyUnderLoad");
  EXPECT_EQ(v.observed,
            "TCP_RR p99 4.00 ms under load (idle p99 0.100 ms; load 940.0 Mbit/s up, 930.0 Mbit/s "
            "down)");
  EXPECT_EQ(v.limit, "p99 <= 5.00 ms while the link is saturated both ways");
  EXPECT_TRUE(v.cause.empty());
  EXPECT_EQ(v.observed_value, 4);
  EXPECT_EQ(v.limit_value, 5);
  EXPECT_EQ(v.limit_bound, bound::at_most);
  EXPECT_EQ(v.unit, "ms");

  EXPECT_TRUE(check_loaded_latency(round_trips(100), round_trips(5000), up_bps, down_bps, 5).pass)
      << "a p99 equal to the limit passes";
}

TEST(LoadedLatency, AP99AboveTheLimitFailsAsBufferbloatNamingTheRatio) {
  const auto v = check_loaded_latency(round_trips(500), round_trips(12000), up_bps, down_bps, 5);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("LatencyUnderLoad FAILED"));
  EXPECT_THAT(v.message(), HasSubstr("measured TCP_RR p99 12.00 ms under load"));
  EXPECT_THAT(v.message(), HasSubstr("limit p99 <= 5.00 ms"));
  EXPECT_THAT(v.message(), HasSubstr("likely cause: bufferbloat: 24x the idle p99"));
}

TEST(LoadedLatency, NoTransactionFailsWhateverThePercentileSays) {
  const auto no_loaded =
      check_loaded_latency(round_trips(100), round_trips(1000, 0), up_bps, down_bps, 5);
  EXPECT_FALSE(no_loaded.pass);
  EXPECT_THAT(no_loaded.message(), HasSubstr("likely cause: no transaction completed"));

  const auto no_idle =
      check_loaded_latency(round_trips(100, 0), round_trips(1000), up_bps, down_bps, 5);
  EXPECT_FALSE(no_idle.pass);
  EXPECT_EQ(no_idle.cause, "no transaction completed");
}

TEST(LoadedLatency, ALoadThatDidNotRunBothWaysFailsAsNotMeasuredUnderLoad) {
  for (const auto& [up, down] :
       {std::pair{0.0, down_bps}, std::pair{up_bps, 0.0}, std::pair{std::nan(""), down_bps}}) {
    const auto v = check_loaded_latency(round_trips(100), round_trips(1000), up, down, 5);
    EXPECT_FALSE(v.pass) << "up " << up << " down " << down;
    EXPECT_THAT(v.message(), HasSubstr("measured TCP_RR p99 1.00 ms under load"));
    EXPECT_THAT(v.message(), HasSubstr("limit p99 <= 5.00 ms"));
    EXPECT_THAT(v.cause, HasSubstr("the load did not run both ways"));
    EXPECT_THAT(v.cause, Not(HasSubstr("bufferbloat")));
  }
}

}  // namespace
