#include "hil/link/counters.hpp"

#include <gtest/gtest.h>

namespace {

using hil::link::delta;
using hil::link::link_counters;

TEST(CounterDelta, SubtractsFieldByField) {
  link_counters before;
  before.rx_packets = 100;
  before.tx_bytes = 1'000'000;
  link_counters after = before;
  after.rx_packets = 150;
  after.tx_bytes = 3'000'000;
  const auto d = delta(before, after);
  EXPECT_EQ(d.growth.rx_packets, 50U);
  EXPECT_EQ(d.growth.tx_bytes, 2'000'000U);
  EXPECT_FALSE(d.reset_seen);
  EXPECT_TRUE(d.clean());
  EXPECT_EQ(d.error_summary(), "");
}

TEST(CounterDelta, NamesEveryErrorFieldThatGrew) {
  link_counters before;
  link_counters after;
  after.rx_errors = 3;
  after.rx_dropped = 1;
  after.rx_crc_errors = 2;
  after.rx_packets = 1000;  // traffic is not an error
  const auto d = delta(before, after);
  EXPECT_FALSE(d.clean());
  EXPECT_EQ(d.error_summary(), "rx_errors +3, rx_dropped +1, rx_crc_errors +2");
}

TEST(CounterDelta, ACounterGoingBackwardsIsAReset) {
  link_counters before;
  before.rx_packets = 500;
  link_counters after;
  after.rx_packets = 20;
  const auto d = delta(before, after);
  EXPECT_TRUE(d.reset_seen);
  EXPECT_EQ(d.growth.rx_packets, 0U);
  EXPECT_FALSE(d.clean());
}

TEST(CounterDelta, HandlesTheFull64BitRange) {
  link_counters before;
  before.tx_bytes = 0xFFFF'FFFF'0000'0000ULL;
  link_counters after;
  after.tx_bytes = 0xFFFF'FFFF'FFFF'FFFFULL;
  EXPECT_EQ(delta(before, after).growth.tx_bytes, 0xFFFF'FFFFULL);
}

TEST(CounterFields, CoverEveryMemberOnce) {
  link_counters c;
  std::uint64_t n = 1;
  for (const auto& f : hil::link::counter_fields) c.*f.member = n++;
  // Every member got a distinct value: no field listed twice, none left out.
  EXPECT_EQ(sizeof(link_counters), hil::link::counter_fields.size() * sizeof(std::uint64_t));
  EXPECT_EQ(c.collisions, hil::link::counter_fields.size());
}

}  // namespace
