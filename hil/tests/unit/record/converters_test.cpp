// The typed results become records in one room (hil/record/converters.hpp).
#include "hil/record/converters.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(Converters, AUdpTierRecordsTheLostTheVerdictHolds) {
  hil::measure::stream_result s;
  s.sender.packets = 1000;
  s.receiver.packets = 990;
  s.receiver.errors = 7;
  s.receiver.jitter_s = 0.000012;
  const auto f = hil::record::to_udp_tier_figures(1500, 4, 1472, s);
  EXPECT_EQ(f.datagrams_sent, 1000);
  EXPECT_EQ(f.highest_sequence_received, 990);
  EXPECT_EQ(f.lost, 17) << "7 gaps and 10 above the highest sequence";
  EXPECT_EQ(static_cast<double>(f.lost),
            *hil::measure::check_udp_zero_loss(1500, 1472, s).observed_value);
  EXPECT_DOUBLE_EQ(f.jitter_ms, 0.012);
}

TEST(Converters, EachAttemptKeepsTheBenchLoadMeasuredDuringIt) {
  std::vector<hil::measure::attempt> attempts(2);
  attempts[0].number = 1;
  attempts[0].result.observed = "first";
  attempts[1].number = 2;
  attempts[1].result.pass = true;
  std::vector<hil::sys::bench_pressure> pressure(1);
  pressure[0].source = "psi";
  pressure[0].busiest.push_back({42, "cc1plus", 1.5, false});
  const auto r = hil::record::to_attempt_records(attempts, pressure);
  ASSERT_EQ(r.size(), 2U);
  EXPECT_EQ(r[0].observed, "first");
  EXPECT_EQ(r[0].pressure_source, "psi");
  ASSERT_EQ(r[0].busiest.size(), 1U);
  EXPECT_EQ(r[0].busiest[0].name, "cc1plus");
  EXPECT_EQ(r[0].busiest[0].pid, 42);
  EXPECT_TRUE(r[1].pass);
  EXPECT_EQ(r[1].pressure_source, "") << "no load was read during the second";
}

TEST(Converters, CountersAreRecordedByNameInLinksOrder) {
  hil::link::counter_delta d;
  d.growth.rx_packets = 5;
  d.growth.rx_dropped = 2;
  const auto c = hil::record::to_counter_record(d);
  ASSERT_EQ(c.growth.size(), hil::link::counter_fields.size());
  EXPECT_EQ(c.growth.front().first, "rx_packets");
  EXPECT_EQ(c.growth.front().second, 5U);
  EXPECT_EQ(c.errors, "rx_dropped +2");
}

}  // namespace
