// The sender's cap (measure/rfc2544_search.hpp, rfc2544_loss.hpp): a sender that reaches the rate
// a check needs but not the media maximum caps the search or sweep instead of ending it, so the
// verdict rests on the loads the check needs; a sender short at the need still ends it. Scripted
// trials, the verdicts' words and the record.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_loss.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/record/record_json.hpp"
#include "hil/tests/unit/measure/scripted_bench.hpp"

namespace {

using hil::measure::trial_outcome;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

using hil::test::gigabit_64;
using hil::test::needed_30_percent;

// A port that carries every frame; a sender that reaches `ceilings` frames/s at most.
hil::test::scripted_bench bench(std::vector<double> ceilings) { return {2e6, std::move(ceilings)}; }

hil::measure::search_options search() { return hil::test::scripted_search(needed_30_percent); }

hil::measure::frame_limits limits() {
  return {64, 1000, gigabit_64, 30, 0, {hil::measure::frame_direction::dut_receives, 4}};
}

TEST(SenderCap, ASenderAboveTheNeedCapsTheSearchAndItsFigureIsALowerBound) {
  auto b = bench({500'000});
  const auto r = hil::measure::find_throughput(search(), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 500'000);
  EXPECT_GE(*r.throughput_fps, 500'000 - 0.01 * gigabit_64);
  ASSERT_TRUE(r.sender_ceiling_fps);
  EXPECT_DOUBLE_EQ(*r.sender_ceiling_fps, 500'000);
  // The need itself was offered and passed; every point above the sender's reach ran three times.
  const auto at_need = std::ranges::find_if(r.trials, [](const auto& t) {
    return t.outcome.offered_fps == hil::measure::need_point(needed_30_percent);
  });
  ASSERT_NE(at_need, r.trials.end());
  EXPECT_TRUE(at_need->passed);
  for (const auto& t : r.trials) {
    if (t.outcome.offered_fps > 500'001) {
      EXPECT_FALSE(t.valid) << t.outcome.offered_fps;
    }
  }
  EXPECT_TRUE(r.trials.back().confirmation);
  EXPECT_TRUE(r.trials.back().passed);

  const auto v = hil::measure::check_frame_throughput(limits(), r);
  EXPECT_TRUE(v.pass) << v.observed;
  EXPECT_THAT(v.observed, HasSubstr("at least 33."));
  EXPECT_THAT(v.observed, HasSubstr("the sender reached at most 500000 frames/s"));
}

TEST(SenderCap, ASenderThatCannotKeepTheNeedEndsTheSearchAsNotMeasurable) {
  // Unpaced, the first three trials reach 500,000 frames/s; paced at the need it keeps 400,000.
  auto b = bench({500'000, 500'000, 500'000, 400'000});
  const auto r = hil::measure::find_throughput(search(), std::ref(b));
  EXPECT_FALSE(r.throughput_fps);
  EXPECT_FALSE(r.sender_ceiling_fps);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.not_measurable);
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 400'000);
  EXPECT_DOUBLE_EQ(r.not_measurable->required_fps, needed_30_percent);
  EXPECT_EQ(r.trials.size(), 6U) << "three at the maximum, three at the need";
  EXPECT_FALSE(hil::measure::check_frame_throughput(limits(), r).pass);
}

TEST(SenderCap, WithoutANeedAShortSenderIsStillTheToolsLimit) {
  auto b = bench({500'000});
  auto o = search();
  o.required_fps = 0;
  const auto r = hil::measure::find_throughput(o, std::ref(b));
  EXPECT_FALSE(r.throughput_fps);
  ASSERT_TRUE(r.tool_limited);
  EXPECT_THAT(*r.tool_limited, HasSubstr("sent 500000"));
}

TEST(SenderCap, AFigureBelowAFailureIsNoLowerBound) {
  // The sender caps the first trial, then keeps every rate: the port's limit, 700,000 frames/s,
  // is found by failures above it, and the cap does not qualify the figure.
  auto b = bench({1'000'000, 1'000'000, 1'000'000, 2e6});
  auto lossy = [&](double fps, std::chrono::milliseconds d) {
    auto t = b(fps, d);
    t.received = std::min<std::uint64_t>(
        t.received, static_cast<std::uint64_t>(700'000 * std::chrono::duration<double>(d).count()));
    return t;
  };
  const auto r = hil::measure::find_throughput(search(), lossy);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 700'000);
  EXPECT_FALSE(r.sender_ceiling_fps);
}

TEST(SenderCap, ASenderShortBelowALossAtTheNeedCapsTheSearchInsteadOfHidingTheFailure) {
  // The port carries 300,000 frames/s, below the need (446,429): the trials at the maximum and at
  // the need lose frames. Then the sender, busy, reaches 250,000 at most: short without loss at
  // 334,821 and below. The failure is known, so the short points cap the search; they do not
  // end it as not measurable (which would hide a port that cannot carry what the check needs).
  auto b = bench({2e6, 2e6, 2e6, 250'000});
  b.limit = 300'000;
  const auto r = hil::measure::find_throughput(search(), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 250'000);
  EXPECT_GE(*r.throughput_fps, 250'000 - 0.01 * gigabit_64);
  ASSERT_TRUE(r.sender_ceiling_fps);
  EXPECT_DOUBLE_EQ(*r.sender_ceiling_fps, 250'000);

  const auto v = hil::measure::check_frame_throughput(limits(), r);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("at least 15.9 % of the media maximum: 237165 frames/s"));
  EXPECT_THAT(v.observed, HasSubstr("the sender reached at most 250000 frames/s"));
  EXPECT_THAT(v.observed, HasSubstr("lies between this figure and 446429 frames/s"));
  EXPECT_THAT(v.cause, HasSubstr("the port lost frames of 64 bytes at 446429 frames/s"));
}

TEST(SenderCap, ASenderShortBelowTheNeedBeforeAnyLossThereIsStillNotMeasurable) {
  // The same busy sender, but the port carries everything it was offered: no loss at or below
  // the need, so nothing says whether the port carries the need.
  auto b = bench({2e6, 250'000});
  const auto r = hil::measure::find_throughput(search(), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 250'000);
  EXPECT_FALSE(r.throughput_fps);
}

TEST(SenderCap, ASweepSkipsTheLoadsAboveTheFloorItsSenderCannotOffer) {
  auto b = bench({500'000});
  const auto o = hil::test::scripted_sweep(needed_30_percent);
  const auto r = hil::measure::sweep_frame_loss(o, std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  EXPECT_FALSE(r.tool_limited);
  ASSERT_TRUE(r.sender_ceiling_fps);
  EXPECT_DOUBLE_EQ(*r.sender_ceiling_fps, 500'000);
  ASSERT_EQ(r.steps.size(), 2U) << "30 % and 20 %: the loads above were not offered";
  EXPECT_NEAR(r.steps[0].load, 0.3, 1e-9);
  EXPECT_TRUE(r.settled);
  EXPECT_EQ(r.trials.size(), 7U * 3 + 2) << "100 % … 40 %, three trials each, then two steps";

  const auto v = hil::measure::check_frame_loss(limits(), r);
  EXPECT_TRUE(v.pass) << v.observed;
  EXPECT_THAT(v.observed, HasSubstr("0.000 % lost at 30 %"));
  EXPECT_THAT(v.observed, HasSubstr("the sender reached at most 500000 frames/s"));
}

TEST(SenderCap, ASweepWhoseSenderCannotOfferTheFloorEndsAsNotMeasurable) {
  // Unpaced, the 100 % step reaches 700,000 frames/s; the 90 % step only 400,000.
  auto b = bench({700'000, 700'000, 700'000, 400'000});
  // The 40 % step is the floor: 595,238 frames/s.
  const auto o = hil::test::scripted_sweep(0.4 * gigabit_64);
  const auto r = hil::measure::sweep_frame_loss(o, std::ref(b));
  ASSERT_TRUE(r.not_measurable) << "the 90 % step's sender reached 400,000, below the floor";
  EXPECT_DOUBLE_EQ(r.not_measurable->ceiling_fps, 400'000);
  EXPECT_FALSE(r.tool_limited);
  EXPECT_TRUE(r.steps.empty());
}

TEST(SenderCap, TheRecordsKeepTheSendersCeiling) {
  hil::record::frame_throughput_figures f;
  f.frame_bytes = 1518;
  f.throughput_fps = 77'212;
  f.sender_ceiling_fps = 78'100.04;
  hil::record::case_record r;
  r.case_name = "Rfc2544/Throughput.ZeroLossRate/frame1518_dut_receives";
  r.measured = f;
  const auto line = hil::record::to_json(r);
  EXPECT_EQ(line.at("figures").at("sender_ceiling_fps"), 78'100.0);
  const auto back = hil::record::from_json(nlohmann::json::parse(line.dump()));
  const auto* g = back.figures_as<hil::record::frame_throughput_figures>();
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->sender_ceiling_fps, 78'100.0);

  hil::record::frame_loss_figures l;
  l.sender_ceiling_fps = 78'100;
  r.measured = l;
  const auto loss_back = hil::record::from_json(hil::record::to_json(r));
  ASSERT_NE(loss_back.figures_as<hil::record::frame_loss_figures>(), nullptr);
  EXPECT_EQ(loss_back.figures_as<hil::record::frame_loss_figures>()->sender_ceiling_fps, 78'100);
}

}  // namespace
