// A verdict with a headline figure is decided in one place (verdict::judge), so its pass and its
// margin cannot disagree: the margin is >= 0 exactly when the verdict passed, and a check that
// could not measure its figure fails without one. The UDP tier's "lost" is one value,
// udp_datagrams_lost, in the verdict and the record.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "hil/measure/traffic_checks.hpp"
#include "hil/measure/verdict.hpp"

namespace {

using hil::measure::bound;
using hil::measure::verdict;

verdict with_limit(double limit, bound b) {
  verdict v;
  v.limit_value = limit;
  v.limit_bound = b;
  return v;
}

// Wherever a verdict has a margin, it is on the passing side exactly when the verdict passed.
void expect_agrees(const verdict& v) {
  if (const auto m = v.margin()) {
    EXPECT_EQ(v.pass, *m >= 0) << v.message() << " margin " << *m;
  }
}

TEST(VerdictJudge, AFigureOnTheLimitPassesWithMarginZeroOnEitherBound) {
  for (const auto b : {bound::at_least, bound::at_most}) {
    auto v = with_limit(940, b);
    v.judge(940);
    EXPECT_TRUE(v.pass);
    ASSERT_TRUE(v.margin());
    EXPECT_EQ(*v.margin(), 0);
  }
}

TEST(VerdictJudge, AFigureBeyondItsLimitFailsWithANegativeMargin) {
  auto low = with_limit(940, bound::at_least);
  low.judge(939.5);
  EXPECT_FALSE(low.pass);
  EXPECT_DOUBLE_EQ(*low.margin(), -0.5);
  auto high = with_limit(0, bound::at_most);
  high.judge(3);
  EXPECT_FALSE(high.pass);
  EXPECT_DOUBLE_EQ(*high.margin(), -3);
}

TEST(VerdictJudge, AFigureNotMeasuredFailsWithoutFigureOrMargin) {
  auto v = with_limit(0, bound::at_most);
  v.judge(std::nullopt);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_FALSE(v.margin());
}

TEST(VerdictJudge, AFigureWithoutALimitPassesWithoutAMargin) {
  verdict v;
  v.limit_bound = bound::at_least;
  v.judge(12.5);
  EXPECT_TRUE(v.pass);
  EXPECT_EQ(v.observed_value, 12.5);
  EXPECT_FALSE(v.margin());
}

hil::measure::stream_result udp(std::int64_t sent, std::int64_t highest, std::int64_t gaps) {
  hil::measure::stream_result s;
  s.sender.packets = sent;
  s.receiver.packets = highest;
  s.receiver.errors = gaps;
  return s;
}

TEST(UdpDatagramsLost, CountsTheGapsAndTheTailAboveTheHighestSequence) {
  EXPECT_EQ(hil::measure::udp_datagrams_lost(udp(1000, 1000, 0)), 0);
  EXPECT_EQ(hil::measure::udp_datagrams_lost(udp(1000, 1000, 7)), 7);
  EXPECT_EQ(hil::measure::udp_datagrams_lost(udp(1000, 990, 0)), 10);
  EXPECT_EQ(hil::measure::udp_datagrams_lost(udp(1000, 990, 7)), 17);
  EXPECT_EQ(hil::measure::udp_datagrams_lost(udp(1000, 0, 0)), 1000) << "nothing arrived";
}

TEST(UdpDatagramsLost, IsTheUdpZeroLossVerdictsObservedValue) {
  for (const auto& s : {udp(1000, 1000, 0), udp(1000, 1000, 7), udp(1000, 990, 0),
                        udp(1000, 990, 7), udp(1000, 0, 0)}) {
    const auto v = hil::measure::check_udp_zero_loss(1500, 1472, s);
    ASSERT_TRUE(v.observed_value) << v.message();
    EXPECT_EQ(*v.observed_value, static_cast<double>(hil::measure::udp_datagrams_lost(s)));
    EXPECT_EQ(v.pass, hil::measure::udp_datagrams_lost(s) == 0) << v.message();
    expect_agrees(v);
  }
}

TEST(UdpDatagramsLost, NothingSentFailsWithoutAFigureThatWouldPass) {
  const auto v = hil::measure::check_udp_zero_loss(1500, 1472, udp(0, 0, 0));
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_FALSE(v.margin());
  EXPECT_EQ(v.limit_value, 0.0) << "the limit is still stated";
}

TEST(VerdictJudge, NoRetransmitSampleFailsWithoutAFigure) {
  const auto none = hil::measure::check_retransmits({}, 10);
  EXPECT_FALSE(none.pass);
  EXPECT_FALSE(none.margin());
  const auto some = hil::measure::check_retransmits({0, 3, 1}, 2);
  EXPECT_FALSE(some.pass);
  EXPECT_EQ(some.margin(), -1.0);
  expect_agrees(hil::measure::check_retransmits({0, 2}, 2));
  expect_agrees(hil::measure::check_tcp_throughput("DutTransmits", 939.9e6, 940));
  expect_agrees(hil::measure::check_tcp_throughput("DutTransmits", 940e6, 940));
}

}  // namespace
