// pacer on an injected clock: the schedule is pure arithmetic on time_points, so a "sender" here
// is a loop that records when it would have sent. Nothing sleeps.
#include "hil/measure/pacing.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using hil::measure::pacer;
using time_point = pacer::time_point;

constexpr std::uint64_t mbit100 = 100'000'000;
const time_point t0 = time_point{} + 12345s;

// When a sender following p sends datagrams 0…count−1, if datagram stalled_k is held up by stall.
std::vector<time_point> simulate_sender(const pacer& p, std::uint64_t count,
                                        std::uint64_t stalled_k = 0,
                                        std::chrono::nanoseconds stall = 0ns) {
  std::vector<time_point> sends;
  sends.reserve(count);
  time_point last{};
  for (std::uint64_t k = 0; k < count; ++k) {
    time_point at = p.next_due(k, last);
    if (k == stalled_k) at += stall;
    sends.push_back(at);
    last = at;
  }
  return sends;
}

struct payload_case {
  std::size_t bytes;
  double per_second;
  std::uint64_t in_1s;
  std::uint64_t in_5s;
  std::chrono::nanoseconds spacing;  // T, an integer at 100 Mbit/s for these sizes
};

class PacerAt100Mbit : public ::testing::TestWithParam<payload_case> {};

TEST_P(PacerAt100Mbit, DatagramRateMatchesThePayloadSize) {
  const auto& c = GetParam();
  const pacer p(mbit100, c.bytes, t0);
  EXPECT_NEAR(p.datagrams_per_second(), c.per_second, 1e-6);
  EXPECT_EQ(p.ideal_count(1s), c.in_1s);
  EXPECT_EQ(p.ideal_count(5s), c.in_5s);
}

TEST_P(PacerAt100Mbit, SpacingIsExactlyTInSteadyState) {
  const auto& c = GetParam();
  const pacer p(mbit100, c.bytes, t0);
  const auto sends = simulate_sender(p, 10'000);
  EXPECT_EQ(sends.front(), t0);
  for (std::size_t k = 1; k < sends.size(); ++k) {
    ASSERT_EQ(sends[k] - sends[k - 1], c.spacing) << "datagram " << k;
    ASSERT_EQ(sends[k], p.ideal(k));
  }
}

// 548/1472/2972 B are the payloads of 576/1500/3000-byte IPv4 MTUs. The 2972-byte count over 5 s
// is 5 · 4205.92… = 21029.6, so its floor is 21029.
INSTANTIATE_TEST_SUITE_P(
    Payloads, PacerAt100Mbit,
    ::testing::Values(payload_case{548, 22810.218978102190, 22810, 114051, 43840ns},
                      payload_case{1472, 8491.847826086957, 8491, 42459, 117760ns},
                      payload_case{2972, 4205.921938088829, 4205, 21029, 237760ns}),
    [](const ::testing::TestParamInfo<payload_case>& param) {
      return "payload" + std::to_string(param.param.bytes);
    });

TEST(Pacer, FirstDatagramIsDueAtStart) {
  const pacer p(mbit100, 1472, t0);
  EXPECT_EQ(p.next_due(0, t0 + 1h), t0);
  EXPECT_EQ(p.ideal(0), t0);
  EXPECT_EQ(p.start(), t0);
}

TEST(Pacer, DueByCountsWhatAPerfectSenderHasSent) {
  const pacer p(mbit100, 1472, t0);
  EXPECT_EQ(p.due_by(t0 - 1ns), 0U);
  EXPECT_EQ(p.due_by(t0), 1U);
  EXPECT_EQ(p.due_by(t0 + 117759ns), 1U);
  EXPECT_EQ(p.due_by(t0 + 117760ns), 2U);
  for (const std::uint64_t k : {1ULL, 7ULL, 8491ULL, 123'456ULL}) {
    EXPECT_EQ(p.due_by(p.ideal(k)), k + 1);
    EXPECT_EQ(p.due_by(p.ideal(k) - 1ns), k);
  }
  // A 1 s test: datagrams 0…8491 are due (8491 · T = 999.92 ms).
  EXPECT_EQ(p.due_by(t0 + 1s), 8492U);
}

// 1472 B at 100 Mbit/s: T = 117.76 µs, catch-up spacing T/2 = 58.88 µs. A 10 ms stall leaves the
// sender 10 ms behind; each T/2 step regains 58.88 µs, so after ⌊10 ms / 58.88 µs⌋ = 169 steps at
// T/2 the 170th lands on the schedule again (20.0096 ms after the stall < ideal 20.0192 ms).
TEST(Pacer, AfterAStallTheSenderCatchesUpAtTwiceTheRateThenRejoinsTheSchedule) {
  const pacer p(mbit100, 1472, t0);
  ASSERT_EQ(p.catchup_spacing(), 58880ns);
  const std::uint64_t stalled = 100;
  const auto sends = simulate_sender(p, 10'000, stalled, 10ms);
  EXPECT_EQ(sends[stalled] - p.ideal(stalled), 10ms);
  for (std::uint64_t k = stalled + 1; k < stalled + 170; ++k) {
    ASSERT_EQ(sends[k] - sends[k - 1], 58880ns) << "datagram " << k;
    ASSERT_GT(sends[k], p.ideal(k));
  }
  EXPECT_EQ(sends[stalled + 170], p.ideal(stalled + 170));
  EXPECT_EQ(sends[stalled + 170] - sends[stalled + 169], 68480ns);
  for (std::uint64_t k = stalled + 171; k < sends.size(); ++k) {
    ASSERT_EQ(sends[k] - sends[k - 1], 117760ns) << "datagram " << k;
  }
}

TEST(Pacer, TheTotalCountOverATestStaysExactAfterAStall) {
  const pacer p(mbit100, 1472, t0);
  const auto sends = simulate_sender(p, 20'000, 2000, 10ms);
  const time_point end = t0 + 1s;
  std::uint64_t sent_by_end = 0;
  for (const auto at : sends) sent_by_end += at <= end ? 1 : 0;
  EXPECT_EQ(sent_by_end, p.due_by(end));
  EXPECT_EQ(sent_by_end, 8492U);
}

TEST(Pacer, CatchUpIsNeverFasterThanTheFactorAllows) {
  const pacer p(mbit100, 1472, t0, 4.0);
  EXPECT_EQ(p.catchup_spacing(), 29440ns);
  const auto sends = simulate_sender(p, 5'000, 10, 50ms);
  for (std::size_t k = 1; k < sends.size(); ++k) {
    ASSERT_GE(sends[k] - sends[k - 1], 29440ns) << "datagram " << k;
  }
  EXPECT_EQ(sends.back(), p.ideal(sends.size() - 1));
}

// 1472 B at 300 Mbit/s: T = 39253.33… ns, not an integer, so an accumulating sender would drift.
// ideal(k) is computed from k directly: after exactly one "rate" of datagrams (3·10⁸) the offset
// is bytes · 8 seconds to the nanosecond, and after 10⁹ it is ⌊1.1776·10¹⁴ / 3⌋ ns.
TEST(Pacer, NoDriftAfterABillionDatagrams) {
  const pacer p(300'000'000, 1472, t0);
  EXPECT_EQ(p.ideal(300'000'000) - t0, 11'776s);
  EXPECT_EQ(p.ideal(1'000'000'000) - t0, 39'253'333'333'333ns);
  const auto step = p.ideal(1'000'000'001) - p.ideal(1'000'000'000);
  EXPECT_TRUE(step == 39253ns || step == 39254ns) << step.count();
  EXPECT_EQ(p.due_by(p.ideal(1'000'000'000)), 1'000'000'001U);
  EXPECT_EQ(p.due_by(p.ideal(1'000'000'000) - 1ns), 1'000'000'000U);

  const pacer exact(mbit100, 1472, t0);
  EXPECT_EQ(exact.ideal(1'000'000'000) - t0, 117'760s);
  const std::uint64_t two32 = std::uint64_t{1} << 32;
  EXPECT_EQ(exact.ideal(two32) - t0, std::chrono::nanoseconds(4294967296LL * 117760));
  EXPECT_EQ(exact.ideal(two32 + 1) - exact.ideal(two32), 117760ns);
}

TEST(Pacer, DueTimesBeyondTheClockRangeSaturate) {
  const pacer p(1, 65507, t0);
  EXPECT_EQ(p.ideal(std::numeric_limits<std::uint64_t>::max()), time_point::max());
  EXPECT_EQ(p.next_due(std::numeric_limits<std::uint64_t>::max(), time_point::max()),
            time_point::max());
}

TEST(Pacer, IdealCountOfANonPositiveDurationIsZero) {
  const pacer p(mbit100, 1472, t0);
  EXPECT_EQ(p.ideal_count(0ns), 0U);
  EXPECT_EQ(p.ideal_count(-5s), 0U);
}

TEST(Pacer, RejectsImpossibleSettings) {
  EXPECT_THROW(pacer(0, 1472, t0), std::invalid_argument);
  EXPECT_THROW(pacer(mbit100, 0, t0), std::invalid_argument);
  EXPECT_THROW(pacer(mbit100, (std::size_t{1} << 31) + 1, t0), std::invalid_argument);
  EXPECT_THROW(pacer(mbit100, 1472, t0, 0.5), std::invalid_argument);
  EXPECT_THROW(pacer(mbit100, 1472, t0, std::nan("")), std::invalid_argument);
  EXPECT_NO_THROW(pacer(mbit100, 1472, t0, 1.0));
}

TEST(Pacer, AnInfiniteCatchUpFactorBurstsLikeIperf3) {
  const pacer p(mbit100, 1472, t0, std::numeric_limits<double>::infinity());
  EXPECT_EQ(p.catchup_spacing(), 0ns);
  const auto late = t0 + 10ms;
  EXPECT_EQ(p.next_due(5, late), late);
}

// Batches (due_in_batch): 1472 B at 100 Mbit/s, T = 117.76 µs, catch-up spacing 58.88 µs.
TEST(Pacer, ABatchOnScheduleHoldsTheDatagramsDueSinceTheLastOne) {
  const pacer p(mbit100, 1472, t0);
  const std::uint64_t k = 50;
  // Woken 3.5 T after datagram k was due: k … k+3 are due, k+4 is not.
  const auto now = p.ideal(k) + 3 * 117760ns + 58880ns;
  EXPECT_EQ(p.due_in_batch(k, p.ideal(k - 1), now, 64), 4U);
  EXPECT_EQ(p.due_in_batch(k, p.ideal(k - 1), p.ideal(k) - 1ns, 64), 0U) << "not due yet";
  EXPECT_EQ(p.due_in_batch(k, p.ideal(k - 1), p.ideal(k), 64), 1U);
  EXPECT_EQ(p.due_in_batch(0, time_point{}, t0 + 117760ns, 64), 2U) << "0 at start, 1 at T";
}

TEST(Pacer, ABatchBehindScheduleCatchesUpNoFasterThanTheFactor) {
  const pacer p(mbit100, 1472, t0);
  const std::uint64_t k = 50;
  // 10 ms behind; the last batch left 200 µs ago: only what T/2 spacing allows since then.
  const auto last = p.ideal(k) + 10ms;
  EXPECT_EQ(p.due_in_batch(k, last, last + 200us, 64), 3U);  // +58.88, +117.76, +176.64 µs
  // A stall of a whole second still gives one burst of at most max.
  EXPECT_EQ(p.due_in_batch(k, p.ideal(k - 1), p.ideal(k) + 1s, 64), 64U);
}

// A sender that wakes every 60 µs (a timer's latency) and sends each batch: every datagram leaves
// on or after its due time, no batch exceeds max, and the count by the end of a 1 s test is what a
// perfect sender sends, less at most one wake-up's worth still waiting.
TEST(Pacer, ABatchingSenderKeepsTheScheduleOverATest) {
  const pacer p(mbit100, 64, t0);  // T = 5.12 µs: 195,312.5 datagrams/s
  std::uint64_t k = 0;
  time_point last{};
  std::uint64_t largest = 0;
  for (time_point now = t0; now <= t0 + 1s; now += 60us) {
    const std::uint64_t n = p.due_in_batch(k, last, now, 64);
    ASSERT_LE(n, 64U);
    if (n == 0) continue;
    ASSERT_LE(p.ideal(k + n - 1), now) << "a datagram sent before it was due";
    largest = std::max(largest, n);
    k += n;
    last = now;
  }
  const std::uint64_t perfect = p.due_by(t0 + 1s);
  EXPECT_LE(k, perfect);
  EXPECT_GE(k + 12, perfect) << "60 µs holds 11.7 datagrams";
  EXPECT_LE(largest, 13U) << "bursts are one wake-up's worth";
}

}  // namespace
