// The tester's ceiling probed before BackToBack, Latency and Y1564 (measure::probe_ceiling): short
// trials at the media maximum until one reaches the check's need, and the verdict each of the
// three checks gives when none did.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/measure/y1564_checks.hpp"

namespace {

using hil::measure::frame_direction;
using hil::measure::trial_outcome;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr double gigabit_64 = 1'488'095.238;

// Probes reaching the given rates in turn; counts how many ran.
struct probes {
  std::vector<double> rates;
  int run = 0;
  trial_outcome operator()() {
    trial_outcome t;
    t.offered_fps = gigabit_64;
    t.sent_fps = rates.at(static_cast<std::size_t>(run++));
    return t;
  }
};

TEST(CeilingProbe, ASenderThatReachesTheNeedEndsTheProbeAtOnce) {
  probes p{{1'480'000}};
  EXPECT_FALSE(hil::measure::probe_ceiling(1'473'214, 2, 1s, std::ref(p)));
  EXPECT_EQ(p.run, 1);
}

TEST(CeilingProbe, AStalledFirstProbeIsProbedAgain) {
  probes p{{90'000, 1'480'000}};
  EXPECT_FALSE(hil::measure::probe_ceiling(1'473'214, 2, 1s, std::ref(p)));
  EXPECT_EQ(p.run, 2);
}

TEST(CeilingProbe, ASenderBelowTheNeedEveryTimeGivesItsBestRate) {
  probes p{{200'000, 226'255, 210'000}};
  const auto c = hil::measure::probe_ceiling(1'473'214, 2, 1s, std::ref(p));
  ASSERT_TRUE(c);
  EXPECT_EQ(p.run, 3) << "one probe and two more";
  EXPECT_DOUBLE_EQ(c->ceiling_fps, 226'255);
  EXPECT_DOUBLE_EQ(c->required_fps, 1'473'214);
}

const hil::measure::tester_ceiling ceiling{226'255, 0.99 * gigabit_64};

TEST(CeilingProbe, BackToBackNotMeasurableFailsWithoutAFigureNamingLineRate) {
  hil::measure::burst_result r;
  r.not_measurable = ceiling;
  const hil::measure::back_to_back_limits l{64,        1000, gigabit_64,
                                            2'976'191, 100,  {frame_direction::dut_transmits, 4}};
  const auto v = hil::measure::check_back_to_back(l, r);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value) << "no burst was searched";
  EXPECT_EQ(v.observed, "no figure: not measurable on this bench");
  EXPECT_THAT(v.cause, HasSubstr("the sender reached 226255 frames/s (15.2 %), below the 1473214 "
                                 "frames/s (99.0 %, line rate: a burst at the minimum gap)"));
  EXPECT_THAT(v.limit, HasSubstr(">= 2976191 frames of 64 bytes"));
}

TEST(CeilingProbe, LatencyNotMeasurableFailsWithoutAFigureNamingTheLoad) {
  hil::measure::latency_trial t;
  t.not_measurable = hil::measure::tester_ceiling{226'255, 0.30 * gigabit_64};
  const hil::measure::latency_limits l{
      64, 1000, gigabit_64, 30, 0.5, 0, {frame_direction::dut_receives, 4}};
  const auto v = hil::measure::check_frame_latency(l, t);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_EQ(v.observed, "no figure: not measurable on this bench");
  EXPECT_THAT(v.cause, HasSubstr("(30.0 %, rfc2544.min_percent, the load)"));
  EXPECT_THAT(v.cause, HasSubstr("the peer (the PC) sends in this direction"));
}

TEST(CeilingProbe, Y1564NotMeasurableFailsWithoutAFigureAndKeepsThePlannedStepsInItsLimit) {
  hil::measure::y1564_limits l;
  l.frame_bytes = 512;
  l.line_mbps = 1000;
  l.media_max_fps = 234'962;
  l.cir_mbps = 900;
  l.path = {frame_direction::dut_transmits, 4};
  const std::vector<hil::measure::y1564_step> planned{{25, {}}, {50, {}}, {75, {}}, {100, {}}};
  const auto c = hil::measure::tester_ceiling{150'000, hil::measure::step_fps(l, 100)};
  const auto v = hil::measure::check_y1564(l, planned, c);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_EQ(v.observed, "no figure: not measurable on this bench");
  EXPECT_THAT(v.limit, HasSubstr("every step (25 %, 50 %, 75 %, 100 % of CIR 900.00 Mbit/s"));
  EXPECT_THAT(v.cause, HasSubstr("y1564.cir_mbps or cir_percent: the highest step"));
}

}  // namespace
