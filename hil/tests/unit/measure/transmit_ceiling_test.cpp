// The DUT's transmit path calibrated on a frame path (measure/rfc2544_search.hpp's
// transmit_ceiling, set by the Rfc2544 cases): below what the check needs, the verdict fails at
// the ceiling with no search, naming the transmit path and its path, never loss on the link; above
// the need but below the media maximum, the search runs up to it and its figure says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/tests/unit/measure/scripted_bench.hpp"

namespace {

using hil::test::gigabit_64;
using ::testing::HasSubstr;
using ::testing::Not;

hil::measure::frame_limits limits() {
  return {64, 1000, gigabit_64, 95, 0, {hil::measure::frame_direction::dut_transmits, 4}};
}

TEST(TransmitCeiling, BelowTheNeedTheCheckFailsAtTheCeilingNamingThePath) {
  hil::measure::search_result r;
  r.transmit = hil::measure::transmit_ceiling{1'173'519, "af_xdp (copy)"};
  const auto v = hil::measure::check_frame_throughput(limits(), r);
  EXPECT_FALSE(v.pass);
  ASSERT_TRUE(v.observed_value.has_value());
  EXPECT_NEAR(*v.observed_value, 78.86, 0.01) << "the ceiling as % of the media maximum";
  EXPECT_THAT(v.observed, HasSubstr("no search: the DUT's transmit path tops out at 1173519 "
                                    "frames/s, 78.9 % of the media maximum (path: af_xdp (copy))"));
  EXPECT_THAT(v.cause, HasSubstr("the DUT's transmit path tops out at 1173519 frames/s of 64 "
                                 "bytes (path: af_xdp (copy)), below the 1413690 frames/s the "
                                 "check needs"));
  EXPECT_THAT(v.cause, HasSubstr("not loss on the link"));
  EXPECT_THAT(v.cause, Not(HasSubstr("the port loses")));
}

TEST(TransmitCeiling, AboveTheNeedTheSearchRunsUpToItAndItsFigureIsALowerBound) {
  // A port that carries every frame; the search capped at the ceiling, as the case sets it.
  hil::test::scripted_bench bench{2e6, {2e6}};
  auto o = hil::test::scripted_search(0.95 * gigabit_64);
  o.max_fps = 1'450'000;
  auto r = hil::measure::find_throughput(o, std::ref(bench));
  r.transmit = hil::measure::transmit_ceiling{1'450'000, "af_packet_ring (qdisc bypassed)"};
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_DOUBLE_EQ(*r.throughput_fps, 1'450'000) << "the first trial, at the ceiling, passed";
  for (const auto& t : r.trials) EXPECT_LE(t.outcome.offered_fps, 1'450'000);
  const auto v = hil::measure::check_frame_throughput(limits(), r);
  EXPECT_TRUE(v.pass) << v.observed;
  EXPECT_THAT(v.observed, HasSubstr("at least 97.4 % of the media maximum"));
  EXPECT_THAT(v.observed, HasSubstr("the DUT's transmit path tops out at 1450000 frames/s (path: "
                                    "af_packet_ring (qdisc bypassed)), so the search offered no "
                                    "more"));
}

}  // namespace
