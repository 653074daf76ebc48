// udp_receiver_stats on recorded sequences: the loss/reorder/jitter numbers a stock iperf3
// receiver would report for the same datagrams, plus the 32-bit unwrap iperf3 lacks.
#include "hil/measure/udp_stats.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace {

using namespace std::chrono_literals;
using hil::measure::interval_delta;
using hil::measure::udp_receiver_stats;
using hil::measure::udp_snapshot;

constexpr std::size_t datagram_bytes = 1472;
constexpr std::chrono::nanoseconds spacing = 117760ns;  // 1472 B at 100 Mbit/s

// Feeds sequences with a constant 250 µs transit, spaced like a 100 Mbit/s sender.
class Recorded {
 public:
  explicit Recorded(bool counters_64bit = false) : counters_64bit_(counters_64bit) {}

  void feed(std::initializer_list<std::uint64_t> seqs) {
    for (const auto seq : seqs) {
      stats.on_datagram(seq, sent_, sent_ + 250us, datagram_bytes, counters_64bit_);
      sent_ += spacing;
    }
  }

  udp_receiver_stats stats;

 private:
  bool counters_64bit_;
  std::chrono::nanoseconds sent_ = 350s;
};

// Transit for datagram i of a stream whose transit alternates between 1.0 and 1.1 ms.
std::chrono::nanoseconds alternating_transit(int i) { return i % 2 == 0 ? 1000us : 1100us; }

// Jitter after each datagram of the alternating stream, sender clock at offset from receiver's.
std::vector<double> alternating_jitter(int count, std::chrono::nanoseconds sender_offset) {
  udp_receiver_stats stats;
  std::vector<double> jitter;
  for (int i = 0; i < count; ++i) {
    const std::chrono::nanoseconds sent = 1000s + i * spacing;
    const auto arrived = sent + alternating_transit(i);
    stats.on_datagram(static_cast<std::uint64_t>(i) + 1, sent + sender_offset, arrived,
                      datagram_bytes, false);
    jitter.push_back(stats.jitter_s());
  }
  return jitter;
}

TEST(UdpReceiverStats, InOrderStreamHasNoLossAndNoReordering) {
  Recorded r;
  for (std::uint64_t seq = 1; seq <= 100; ++seq) r.feed({seq});
  EXPECT_EQ(r.stats.highest_seq(), 100U);
  EXPECT_EQ(r.stats.lost(), 0);
  EXPECT_EQ(r.stats.out_of_order(), 0);
  EXPECT_EQ(r.stats.datagrams(), 100U);
  EXPECT_EQ(r.stats.bytes(), 100U * datagram_bytes);
}

TEST(UdpReceiverStats, AGapCountsTheMissingSequencesAsLost) {
  Recorded r;
  r.feed({1, 2, 3, 7, 8});
  EXPECT_EQ(r.stats.lost(), 3);
  EXPECT_EQ(r.stats.highest_seq(), 8U);
  EXPECT_EQ(r.stats.out_of_order(), 0);
  EXPECT_EQ(r.stats.datagrams(), 5U);
}

TEST(UdpReceiverStats, LossBeforeTheFirstReceivedDatagramCountsFromSequenceOne) {
  Recorded r;  // iperf3's packet_count starts at 0 and the sender's first sequence is 1
  r.feed({4, 5});
  EXPECT_EQ(r.stats.lost(), 3);
}

TEST(UdpReceiverStats, ALateDatagramTakesBackALossAndCountsOutOfOrder) {
  Recorded r;
  r.feed({1, 2, 4});
  EXPECT_EQ(r.stats.lost(), 1);
  r.feed({3, 5});
  EXPECT_EQ(r.stats.lost(), 0);
  EXPECT_EQ(r.stats.out_of_order(), 1);
  EXPECT_EQ(r.stats.highest_seq(), 5U);
}

TEST(UdpReceiverStats, RealLossAndReorderingTogether) {
  Recorded r;
  r.feed({1, 3, 5, 4, 6});  // 2 lost, 4 late
  EXPECT_EQ(r.stats.lost(), 1);
  EXPECT_EQ(r.stats.out_of_order(), 1);
  EXPECT_EQ(r.stats.highest_seq(), 6U);
}

// iperf3 only detects gaps: datagrams lost after the last one received are not counted. The
// caller compares highest_seq() with the sender's count from the results exchange.
TEST(UdpReceiverStats, LossAtTheTailIsNotCounted) {
  Recorded r;
  r.feed({1, 2, 3, 4, 5, 6, 7});  // the sender sent 10
  EXPECT_EQ(r.stats.lost(), 0);
  EXPECT_EQ(r.stats.highest_seq(), 7U);
  const std::uint64_t sender_packets = 10;
  EXPECT_EQ(sender_packets - r.stats.highest_seq(), 3U);
}

// iperf3 assumes "packets can't be duplicated": a duplicate is counted out of order and, when a
// loss is outstanding, hides it.
TEST(UdpReceiverStats, DuplicatesCountAsOutOfOrderAndCanHideALoss) {
  Recorded dup;
  dup.feed({1, 2, 2, 3});
  EXPECT_EQ(dup.stats.out_of_order(), 1);
  EXPECT_EQ(dup.stats.lost(), 0);
  EXPECT_EQ(dup.stats.datagrams(), 4U);

  Recorded hides;
  hides.feed({1, 3, 3});  // 2 really was lost
  EXPECT_EQ(hides.stats.out_of_order(), 1);
  EXPECT_EQ(hides.stats.lost(), 0);
}

TEST(UdpReceiverStats, OutOfOrderNeverDrivesLossNegative) {
  Recorded r;
  r.feed({1, 2, 3, 1, 2});
  EXPECT_EQ(r.stats.lost(), 0);
  EXPECT_EQ(r.stats.out_of_order(), 2);
}

TEST(UdpReceiverStats, ThirtyTwoBitSequenceContinuesPastTheWrap) {
  Recorded r;
  r.feed({4294967293});
  const auto before = r.stats.snapshot();  // the head gap (1…4294967292) is counted as lost
  r.feed({4294967294, 4294967295, 0, 1, 2});
  const auto d = interval_delta(before, r.stats.snapshot());
  EXPECT_EQ(d.lost, 0);
  EXPECT_EQ(d.out_of_order, 0);
  EXPECT_EQ(r.stats.highest_seq(), (std::uint64_t{1} << 32) + 2);
  EXPECT_EQ(d.highest_seq, 5U);
}

TEST(UdpReceiverStats, ThirtyTwoBitWrapKeepsLossAndLateArrivalsRight) {
  Recorded gap;
  gap.feed({4294967293, 4294967294});
  const auto g0 = gap.stats.snapshot();
  gap.feed({1, 2});  // 4294967295 and 2^32 + 0 lost across the wrap
  EXPECT_EQ(interval_delta(g0, gap.stats.snapshot()).lost, 2);

  Recorded late;
  late.feed({4294967293, 4294967294});
  const auto l0 = late.stats.snapshot();
  late.feed({0, 4294967295, 1});  // 4294967295 arrives after the wrap
  const auto d = interval_delta(l0, late.stats.snapshot());
  EXPECT_EQ(d.lost, 0);
  EXPECT_EQ(d.out_of_order, 1);
  EXPECT_EQ(late.stats.highest_seq(), (std::uint64_t{1} << 32) + 1);
}

TEST(UdpReceiverStats, SixtyFourBitCountersAreTakenAsTheyAre) {
  Recorded r(true);
  r.feed({4294967295, 4294967296, 0});
  EXPECT_EQ(r.stats.highest_seq(), 4294967296U);
  EXPECT_EQ(r.stats.out_of_order(), 1);  // 0 really is behind in 64-bit mode
}

TEST(UdpReceiverStats, ConstantTransitHasZeroJitter) {
  Recorded r;
  for (std::uint64_t seq = 1; seq <= 1000; ++seq) r.feed({seq});
  EXPECT_EQ(r.stats.jitter_s(), 0.0);
}

// The first datagram initialises prev_transit (iperf3's "hack"), so it contributes D = 0 rather
// than D = transit.
TEST(UdpReceiverStats, FirstDatagramDoesNotContributeItsTransit) {
  udp_receiver_stats stats;
  stats.on_datagram(1, 10s, 15s, datagram_bytes, false);  // 5 s transit
  EXPECT_EQ(stats.jitter_s(), 0.0);
}

// Transit alternates 1.0 / 1.1 ms, so D = 100 µs from the second datagram on and
// J_n = J_{n−1} + (100 µs − J_{n−1}) / 16, i.e. J_n = 100 µs · (1 − (15/16)^(n−1)).
TEST(UdpReceiverStats, AlternatingTransitJitterFollowsTheOneSixteenthFilter) {
  const auto jitter = alternating_jitter(200, 0ns);
  EXPECT_DOUBLE_EQ(jitter[0], 0.0);
  EXPECT_NEAR(jitter[1], 6.25e-6, 1e-15);               // 100/16
  EXPECT_NEAR(jitter[2], 12.109375e-6, 1e-15);          // 6.25 + 93.75/16
  EXPECT_NEAR(jitter[3], 17.6025390625e-6, 1e-15);      // 12.109375 + 87.890625/16
  EXPECT_NEAR(jitter[4], 22.75238037109375e-6, 1e-15);  // 17.6025390625 + 82.3974609375/16
  for (std::size_t n = 1; n < jitter.size(); ++n) {
    const double expected = 100e-6 * (1.0 - std::pow(15.0 / 16.0, static_cast<double>(n)));
    EXPECT_NEAR(jitter[n], expected, 1e-15) << "after datagram " << n + 1;
  }
  EXPECT_NEAR(jitter.back(), 100e-6, 1e-9);
}

TEST(UdpReceiverStats, ClockOffsetBetweenSenderAndReceiverDoesNotChangeJitter) {
  const auto reference = alternating_jitter(50, 0ns);
  // Sender's monotonic clock far ahead (arrival − sent negative: iperf3 takes |…|) or behind.
  EXPECT_EQ(alternating_jitter(50, 123456s + 789us), reference);
  EXPECT_EQ(alternating_jitter(50, -900s), reference);
}

// iperf3 takes |arrival − sent|, so a transit that crosses zero is folded: −50 µs and +50 µs
// look identical. Mirrored on purpose; it only matters with near-synchronised clocks.
TEST(UdpReceiverStats, TransitIsFoldedAtZeroLikeIperf3) {
  udp_receiver_stats stats;
  for (int i = 0; i < 10; ++i) {
    const std::chrono::nanoseconds arrived = 100s + i * spacing;
    const auto sent = arrived + (i % 2 == 0 ? 50us : -50us);
    stats.on_datagram(static_cast<std::uint64_t>(i) + 1, sent, arrived, datagram_bytes, false);
  }
  EXPECT_EQ(stats.jitter_s(), 0.0);
}

TEST(UdpReceiverStats, RestartJitterReinitialisesLikeTheEndOfOmit) {
  udp_receiver_stats stats;
  stats.on_datagram(1, 0s, 1000us, datagram_bytes, false);
  stats.on_datagram(2, 1ms, 2100us, datagram_bytes, false);
  EXPECT_GT(stats.jitter_s(), 0.0);
  stats.restart_jitter();
  EXPECT_EQ(stats.jitter_s(), 0.0);
  stats.on_datagram(3, 2ms, 2ms + 7ms, datagram_bytes, false);  // new prev_transit, D = 0
  EXPECT_EQ(stats.jitter_s(), 0.0);
  EXPECT_EQ(stats.datagrams(), 3U);
  EXPECT_EQ(stats.highest_seq(), 3U);
}

TEST(UdpSnapshot, IntervalDeltaSubtractsCountsAndKeepsTheEndJitter) {
  Recorded r;
  r.feed({1, 2, 4});
  const udp_snapshot first = r.stats.snapshot();
  r.feed({3, 5, 6, 8});
  const udp_snapshot second = r.stats.snapshot();
  const auto d = interval_delta(first, second);
  EXPECT_EQ(d.datagrams, 4U);
  EXPECT_EQ(d.bytes, 4U * datagram_bytes);
  EXPECT_EQ(d.highest_seq, 4U);  // iperf3's interval "packets": 4 → 8
  EXPECT_EQ(d.lost, 0);          // 7 lost here, 3 (lost last interval) arrived late: 1 − 1
  EXPECT_EQ(d.out_of_order, 1);
  EXPECT_EQ(d.jitter_s, second.jitter_s);
}

TEST(UdpSnapshot, LossCanGoNegativeInAnIntervalLikeIperf3) {
  Recorded r;
  r.feed({1, 3});
  const auto first = r.stats.snapshot();
  r.feed({2, 4});
  EXPECT_EQ(interval_delta(first, r.stats.snapshot()).lost, -1);
}

TEST(UdpReceiverStatsRun, EqualsOneCallPerDatagram) {
  using std::chrono::microseconds;
  for (const std::uint64_t start : {1ULL, 7ULL, 4294967290ULL}) {
    hil::measure::udp_receiver_stats one;
    hil::measure::udp_receiver_stats bulk;
    // Some history first: a gap and a jitter value, so the run starts from a non-trivial state.
    for (auto* s : {&one, &bulk}) {
      s->on_datagram(start - 1 == 0 ? 1 : start - 1, microseconds(100), microseconds(300), 548,
                     false);
      s->on_datagram(start + 1, microseconds(200), microseconds(500), 548, false);
    }
    for (std::uint64_t i = 0; i < 64; ++i) {
      one.on_datagram(start + 2 + i, microseconds(900), microseconds(1000), 548, false);
    }
    bulk.on_run(start + 2, 64, microseconds(900), microseconds(1000), 548, false);
    const auto a = one.snapshot();
    const auto b = bulk.snapshot();
    EXPECT_EQ(a.datagrams, b.datagrams);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.highest_seq, b.highest_seq);
    EXPECT_EQ(a.lost, b.lost);
    EXPECT_EQ(a.out_of_order, b.out_of_order);
    EXPECT_NEAR(a.jitter_s, b.jitter_s, 1e-15);
  }
}

TEST(UdpReceiverStatsRun, ALateRunFallsBackToPerDatagramCounting) {
  using std::chrono::microseconds;
  hil::measure::udp_receiver_stats one;
  hil::measure::udp_receiver_stats bulk;
  for (auto* s : {&one, &bulk}) s->on_datagram(100, microseconds(1), microseconds(2), 10, false);
  for (std::uint64_t i = 0; i < 5; ++i) {
    one.on_datagram(50 + i, microseconds(1), microseconds(2), 10, false);
  }
  bulk.on_run(50, 5, microseconds(1), microseconds(2), 10, false);
  EXPECT_EQ(one.snapshot().out_of_order, bulk.snapshot().out_of_order);
  EXPECT_EQ(one.snapshot().lost, bulk.snapshot().lost);
}

}  // namespace
