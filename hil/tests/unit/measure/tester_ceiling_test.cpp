// The tester's ceiling (measure/rfc2544_search.hpp): the first trial of a search or sweep, at the
// media maximum, ends it as not measurable on this bench when its sender stays below the rate the
// check needs; scripted trials, the words of the skip, its record and the run's tally.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_loss.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/record/record_file.hpp"
#include "hil/record/record_json.hpp"
#include "hil/report/results_file.hpp"
#include "hil/tests/unit/measure/scripted_bench.hpp"

namespace {

using hil::measure::frame_direction;
using hil::measure::trial_outcome;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

using bench = hil::test::scripted_bench;
using hil::test::gigabit_64;
using hil::test::needed_30_percent;
using hil::test::scripted_search;
using hil::test::scripted_sweep;

TEST(TesterCeiling, ASenderBelowTheNeededRateEndsTheSearchAsNotMeasurable) {
  bench b{2e6, {226'255}};
  const auto r = hil::measure::find_throughput(scripted_search(needed_30_percent), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 226'255);
  EXPECT_DOUBLE_EQ(r.not_measurable->required_fps, needed_30_percent);
  EXPECT_EQ(r.trials.size(), 3U) << "the probe and two more, at the media maximum";
  for (const auto& t : r.trials) EXPECT_DOUBLE_EQ(t.outcome.offered_fps, gigabit_64);
  EXPECT_FALSE(r.throughput_fps);
  EXPECT_FALSE(r.tool_limited);
}

TEST(TesterCeiling, TheBestOfTheProbesIsTheCeilingAndLossDoesNotHideIt) {
  // A port that carries 100,000 frames/s: the probes lose frames, yet their sender measured itself.
  bench b{100'000, {150'000, 226'255, 180'000}};
  const auto r = hil::measure::find_throughput(scripted_search(needed_30_percent), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 226'255);
}

TEST(TesterCeiling, AStalledFirstProbeIsMeasuredAgainAndTheSearchGoesOn) {
  bench b{612'345, {100'000, 2e6}};
  const auto r = hil::measure::find_throughput(scripted_search(needed_30_percent), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 612'345);
  EXPECT_GE(*r.throughput_fps, 612'345 - 0.01 * gigabit_64);
}

TEST(TesterCeiling, WithoutANeededRateAShortLossyProbeSearchesDownAsBefore) {
  bench b{100'000, {226'255}};
  const auto r = hil::measure::find_throughput(scripted_search(0), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 100'000);
}

TEST(TesterCeiling, ASweepEndsAtItsFirstStepAsNotMeasurable) {
  bench b{2e6, {226'255}};
  const auto r = hil::measure::sweep_frame_loss(scripted_sweep(needed_30_percent), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 226'255);
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.trials.size(), 3U);
}

TEST(TesterCeiling, OnlyTheFirstStepOfASweepIsAProbe) {
  // The sender reaches 1,400,000 frames/s: the 100 % step is short and lossy (counted as loss);
  // later steps need no probe.
  bench b{700'000, {1'400'000}};
  const auto r = hil::measure::sweep_frame_loss(scripted_sweep(needed_30_percent), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_FALSE(r.steps.empty());
  EXPECT_FALSE(r.steps[0].trial.passed);
  EXPECT_TRUE(r.settled);
}

hil::measure::frame_limits limits(frame_direction d) {
  return {64, 1000, gigabit_64, 30, 0, {d, 4}};
}

TEST(TesterCeiling, TheSkipNamesTheCeilingTheNeedAndWhatWouldLiftIt) {
  const hil::measure::tester_ceiling c{226'255, needed_30_percent};
  const auto dut = hil::measure::not_measurable_words(limits(frame_direction::dut_transmits), c);
  EXPECT_THAT(dut, HasSubstr("not measurable on this bench"));
  EXPECT_THAT(dut, HasSubstr("the sender reached 226255 frames/s (15.2 %)"));
  EXPECT_THAT(dut, HasSubstr("below the 446429 frames/s (30.0 %, rfc2544.min_percent)"));
  EXPECT_THAT(dut, HasSubstr("1488095 frames/s of 64 bytes at 1000 Mbit/s"));
  EXPECT_THAT(dut, HasSubstr("a sender below the socket layer"));
  const auto peer = hil::measure::not_measurable_words(limits(frame_direction::dut_receives), c);
  EXPECT_THAT(peer, HasSubstr("the peer (the PC) sends in this direction"));
}

TEST(TesterCeiling, AVerdictFromANotMeasurableSearchNeverPasses) {
  hil::measure::search_result r;
  r.not_measurable = hil::measure::tester_ceiling{226'255, needed_30_percent};
  const auto v = hil::measure::check_frame_throughput(limits(frame_direction::dut_transmits), r);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_THAT(v.cause, HasSubstr("not measurable on this bench"));
  hil::measure::loss_sweep_result s;
  s.not_measurable = r.not_measurable;
  EXPECT_FALSE(hil::measure::check_frame_loss(limits(frame_direction::dut_transmits), s).pass);
}

TEST(TesterCeiling, ARecordKeepsTheCeilingAndTheTallyCountsItApart) {
  hil::record::case_record skipped;
  skipped.case_name = "Rfc2544/Throughput.ZeroLossRate/frame64";
  skipped.skipped = true;
  skipped.reason = "not measurable on this bench: …";
  skipped.not_measurable = hil::measure::tester_ceiling{226'255.4, 446'428.6};
  const auto line = hil::record::to_json(skipped);
  EXPECT_EQ(line.at("not_measurable").at("ceiling_fps"), 226'255);
  EXPECT_EQ(line.at("not_measurable").at("required_fps"), 446'429);
  const auto back = hil::record::from_json(line);
  ASSERT_TRUE(back.not_measurable);
  EXPECT_DOUBLE_EQ(back.not_measurable->ceiling_fps, 226'255);
  EXPECT_EQ(hil::report::verdict_word(back), "not measurable");

  hil::record::case_record jumbo;
  jumbo.case_name = "Rfc2544/Throughput.ZeroLossRate/frame9018";
  jumbo.skipped = true;
  jumbo.reason = "the jumbo frame is off";
  EXPECT_EQ(hil::report::verdict_word(jumbo), "skipped");
  EXPECT_EQ(hil::record::tally_words({jumbo}), "1 recorded checks, 0 failed");
  EXPECT_EQ(hil::record::tally_words({jumbo, back}),
            "2 recorded checks, 0 failed, 1 not measurable on this bench (skipped: not coverage)");
}

}  // namespace
