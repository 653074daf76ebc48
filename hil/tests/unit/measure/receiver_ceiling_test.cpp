// The receiving end's ceiling (measure/rfc2544_search.hpp): when the DUT sends, its port's own
// count of frames out tells frames lost beyond the port (the peer's receiver, the link) from
// frames the DUT lost. Scripted trials through the search, the sweep and the probe; the words of
// the skip and its record.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "hil/measure/rfc2544_burst.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_loss.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/record/record_json.hpp"

namespace {

using hil::measure::tester_end;
using hil::measure::trial_outcome;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr double gigabit_64 = 1'488'095.238;
constexpr double needed_30_percent = 0.30 * gigabit_64;
constexpr std::uint64_t control_segments = 20;  // what a trial's control connection adds

// A sender that keeps every rate; a DUT port that carries `port_limit` frames/s and drops the
// excess (not counted out); a receiver that counts `receiver_limit` frames/s at most and loses
// `receiver_loss` of what reaches it besides. The port's count includes the control connection.
struct bench {
  double port_limit = 2e6;
  double receiver_limit = 2e6;
  double receiver_loss = 0;
  int trials = 0;

  trial_outcome operator()(double fps, std::chrono::milliseconds d) {
    ++trials;
    const double seconds = std::chrono::duration<double>(d).count();
    trial_outcome t;
    t.offered_fps = fps;
    t.sent_fps = fps;
    t.sent = static_cast<std::uint64_t>(fps * seconds);
    const auto out = static_cast<std::uint64_t>(std::min(fps, port_limit) * seconds);
    t.port_carried = out + control_segments;
    const double counted =
        std::min(static_cast<double>(out) * (1 - receiver_loss), receiver_limit * seconds);
    t.received = static_cast<std::uint64_t>(counted);
    return t;
  }
};

hil::measure::search_options search(double required_fps) {
  hil::measure::search_options o;
  o.max_fps = gigabit_64;
  o.resolution = 0.01;
  o.required_fps = required_fps;
  return o;
}

TEST(ReceiverCeiling, FramesLostBeyondThePortNeedTheCountAboveTheAllowance) {
  trial_outcome t;
  t.sent = 1'000'000;
  t.received = 999'000;
  EXPECT_FALSE(t.lost_beyond_port()) << "no count of the port's: the loss is the DUT's, as before";
  t.port_carried = 999'990;
  EXPECT_FALSE(t.lost_beyond_port()) << "the port sent fewer than the sender: the DUT lost some";
  t.port_carried = 1'000'020;
  EXPECT_TRUE(t.lost_beyond_port());
  t.received = 1'000'020 - hil::measure::foreign_frame_allowance;
  EXPECT_FALSE(t.lost_beyond_port()) << "other frames on the port can explain this shortfall";
  t.received = t.received - 1;
  EXPECT_TRUE(t.lost_beyond_port());
}

TEST(ReceiverCeiling, AStreamLostBeyondThePortAtItsLoadIsTheReceiversCeiling) {
  // A 10 s latency stream at 446,429 frames/s whose receiver counted half of it.
  trial_outcome t;
  t.sent = 4'464'290;
  t.received = 2'232'145;
  t.port_carried = t.sent + control_segments;
  const auto c = hil::measure::receiver_ceiling(t, 10s, 0, needed_30_percent);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->end, tester_end::receiver);
  EXPECT_NEAR(c->ceiling_fps, 223'214.5, 0.1);
  EXPECT_DOUBLE_EQ(c->required_fps, needed_30_percent);
  EXPECT_FALSE(hil::measure::receiver_ceiling(t, 10s, 0.6, needed_30_percent))
      << "within the accepted loss";
  t.port_carried = t.sent - 1;
  EXPECT_FALSE(hil::measure::receiver_ceiling(t, 10s, 0, needed_30_percent))
      << "the DUT's port did not send every frame: the loss is the port's";
}

TEST(ReceiverCeiling, AReceiverBelowTheNeedEndsTheSearchAtItsFirstPoint) {
  bench b{2e6, 230'000};
  const auto r = hil::measure::find_throughput(search(needed_30_percent), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_EQ(r.not_measurable->end, tester_end::receiver);
  EXPECT_NEAR(r.not_measurable->ceiling_fps, 230'000, 1);
  EXPECT_DOUBLE_EQ(r.not_measurable->required_fps, needed_30_percent);
  EXPECT_EQ(r.trials.size(), 3U) << "the probe and two more, at the media maximum";
  EXPECT_FALSE(r.throughput_fps);
  EXPECT_FALSE(r.tool_limited);
}

TEST(ReceiverCeiling, AReceiverAboveTheNeedLetsTheSearchFindWhatItCounts) {
  // Lossy above 600,000 frames/s, beyond the port: those trials fail, and the search settles
  // where the receiver keeps up, above the need.
  bench b{2e6, 600'000};
  const auto r = hil::measure::find_throughput(search(needed_30_percent), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 600'000);
  EXPECT_GE(*r.throughput_fps, 600'000 - 0.01 * gigabit_64);
}

TEST(ReceiverCeiling, LossBeyondThePortAtOrBelowTheNeedIsNotMeasurable) {
  // A receiver losing 1 % at any rate: above the need the trials fail and the search goes down;
  // its next point is the need itself, measured three times, then the case ends.
  bench b{2e6, 2e6, 0.01};
  const auto r = hil::measure::find_throughput(search(needed_30_percent), std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_EQ(r.not_measurable->end, tester_end::receiver);
  EXPECT_DOUBLE_EQ(r.not_measurable->required_fps, needed_30_percent);
  ASSERT_EQ(r.trials.size(), 4U) << "the maximum, then three at the need";
  EXPECT_DOUBLE_EQ(r.trials.back().outcome.offered_fps,
                   hil::measure::need_point(needed_30_percent));
  EXPECT_FALSE(r.throughput_fps);
}

TEST(ReceiverCeiling, AReceiverThatKeepsUpAtTheNeedOnlyPassesAtTheNeedItself) {
  // Lossy beyond the port above the need, clean at it: bisection alone would settle on its last
  // passing midpoint, up to the resolution below the need, and fail a port that carries the need.
  // The search tries the need itself and the answer is exactly it.
  bench b{2e6, needed_30_percent + 10};  // the need point is within 1 frame/s of the need
  const auto r = hil::measure::find_throughput(search(needed_30_percent), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_TRUE(r.throughput_fps);
  const double need = hil::measure::need_point(needed_30_percent);
  EXPECT_DOUBLE_EQ(*r.throughput_fps, need) << "the need to the whole frame per second above it";
  EXPECT_DOUBLE_EQ(r.trials[1].outcome.offered_fps, need) << "right after the maximum";
  EXPECT_TRUE(
      hil::measure::check_frame_throughput(
          {64, 1000, gigabit_64, 30, 0, {hil::measure::frame_direction::dut_transmits, 4}}, r)
          .pass);
}

TEST(ReceiverCeiling, FramesTheDutsPortDroppedStayThePortsFailure) {
  // The port carries 300,000 frames/s, below the need, and the receiver counts all it carried.
  bench b{300'000};
  const auto r = hil::measure::find_throughput(search(needed_30_percent), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_TRUE(r.throughput_fps);
  EXPECT_LE(*r.throughput_fps, 300'000);
  EXPECT_GE(*r.throughput_fps, 300'000 - 0.01 * gigabit_64);
  EXPECT_FALSE(
      hil::measure::check_frame_throughput(
          {64, 1000, gigabit_64, 30, 0, {hil::measure::frame_direction::dut_transmits, 4}}, r)
          .pass);
}

TEST(ReceiverCeiling, ASweepStepAtOrBelowTheFloorWithLossBeyondThePortIsNotMeasurable) {
  hil::measure::loss_sweep_options o;
  o.max_fps = gigabit_64;
  o.required_fps = needed_30_percent;
  bench b{2e6, 2e6, 0.01};
  const auto r = hil::measure::sweep_frame_loss(o, std::ref(b));
  ASSERT_TRUE(r.not_measurable);
  EXPECT_EQ(r.not_measurable->end, tester_end::receiver);
  ASSERT_EQ(r.steps.size(), 7U) << "100 % to 40 %: above the floor, their loss counts";
  for (const auto& s : r.steps) EXPECT_FALSE(s.trial.passed);
  EXPECT_LE(r.trials.back().outcome.offered_fps, needed_30_percent);
}

// Probes of 1 s at the media maximum: sender rate, receiver count, whether the port sent all.
trial_outcome probe(double sent_fps, double received_fps) {
  trial_outcome t;
  t.offered_fps = gigabit_64;
  t.sent_fps = sent_fps;
  t.sent = static_cast<std::uint64_t>(sent_fps);
  t.received = static_cast<std::uint64_t>(received_fps);
  t.port_carried = t.sent + control_segments;
  return t;
}

TEST(ReceiverCeiling, TheProbeNamesTheReceiverWhenOnlyItFellShort) {
  int run = 0;
  const auto c = hil::measure::probe_ceiling(0.99 * gigabit_64, 2, 1s, [&] {
    ++run;
    return probe(gigabit_64, 250'000);
  });
  ASSERT_TRUE(c);
  EXPECT_EQ(run, 3);
  EXPECT_EQ(c->end, tester_end::receiver);
  EXPECT_DOUBLE_EQ(c->ceiling_fps, 250'000);
}

TEST(ReceiverCeiling, TheProbeNamesTheSenderWhenBothFellShort) {
  const auto c =
      hil::measure::probe_ceiling(0.99 * gigabit_64, 2, 1s, [] { return probe(700'000, 250'000); });
  ASSERT_TRUE(c);
  EXPECT_EQ(c->end, tester_end::sender);
  EXPECT_DOUBLE_EQ(c->ceiling_fps, 700'000);
}

TEST(ReceiverCeiling, TheProbePassesAReceiverThatKeepsUp) {
  EXPECT_FALSE(hil::measure::probe_ceiling(0.99 * gigabit_64, 2, 1s,
                                           [] { return probe(gigabit_64, gigabit_64 - 5); }));
}

// A burst at line rate of which the port sends up to `port_frames` (its queue's worth) and the
// receiver counts up to `receiver_frames`.
struct bursts {
  std::uint64_t port_frames = 0;
  std::uint64_t receiver_frames = 0;
  int run = 0;
  trial_outcome operator()(double fps, std::uint64_t frames) {
    ++run;
    trial_outcome t;
    t.offered_fps = fps;
    t.sent_fps = fps;
    t.sent = frames;
    const std::uint64_t out = std::min(frames, port_frames);
    t.port_carried = out + control_segments;
    t.received = std::min(out, receiver_frames);
    return t;
  }
};

hil::measure::burst_options burst_search() {
  hil::measure::burst_options o;
  o.line_fps = gigabit_64;
  o.max_frames = 2'976'191;
  o.repeats = 2;
  return o;
}

TEST(ReceiverCeiling, ABurstLostBeyondThePortEndsTheBackToBackSearch) {
  bursts b{10'000'000, 500'000};
  const auto r = hil::measure::find_back_to_back(burst_search(), std::ref(b));
  EXPECT_EQ(b.run, 1) << "the first burst says the bench cannot count a whole one";
  ASSERT_TRUE(r.not_measurable);
  EXPECT_EQ(r.not_measurable->end, tester_end::receiver);
  EXPECT_NEAR(r.not_measurable->ceiling_fps, 500'000 / (2'976'191 / gigabit_64), 1);
  EXPECT_DOUBLE_EQ(r.not_measurable->required_fps, 0.99 * gigabit_64);
  EXPECT_TRUE(r.longest.empty());
}

TEST(ReceiverCeiling, ABurstTheDutsQueueCutShortIsSearchedAsBefore) {
  bursts b{1'000'000, 10'000'000};
  const auto r = hil::measure::find_back_to_back(burst_search(), std::ref(b));
  EXPECT_FALSE(r.not_measurable);
  ASSERT_EQ(r.longest.size(), 2U);
  EXPECT_LE(r.longest[0], 1'000'000U);
  EXPECT_GE(r.longest[0], 990'000U);
}

TEST(ReceiverCeiling, TheSkipSaysThePortSentWhatTheReceiverLostAndWhatWouldLiftIt) {
  const hil::measure::tester_ceiling c{230'000, needed_30_percent, tester_end::receiver};
  const auto words = hil::measure::not_measurable_words(
      {64, 1000, gigabit_64, 30, 0, {hil::measure::frame_direction::dut_transmits, 4}}, c);
  EXPECT_THAT(words, HasSubstr("not measurable on this bench: the DUT's port sent every frame"));
  EXPECT_THAT(words, HasSubstr("counted at most 230000 frames/s of them (15.5 % of the media "
                               "maximum, 1488095 frames/s at 1000 Mbit/s)"));
  EXPECT_THAT(words, HasSubstr("up to 446429 frames/s (30.0 %, rfc2544.min_percent)"));
  EXPECT_THAT(words, HasSubstr("net.core.rmem_max"));
}

TEST(ReceiverCeiling, ARecordKeepsWhichEndFellShort) {
  hil::record::case_record r;
  r.case_name = "Rfc2544/Throughput.ZeroLossRate/frame64";
  r.skipped = true;
  r.reason = "not measurable on this bench: …";
  r.not_measurable = hil::measure::tester_ceiling{230'000, 446'428.6, tester_end::receiver};
  auto line = hil::record::to_json(r);
  EXPECT_EQ(line.at("not_measurable").at("end"), "receiver");
  EXPECT_EQ(hil::record::from_json(line).not_measurable->end, tester_end::receiver);
  line["not_measurable"].erase("end");
  EXPECT_EQ(hil::record::from_json(line).not_measurable->end, tester_end::sender)
      << "a record from before the receiver's ceiling";
  line["not_measurable"]["end"] = "link";
  EXPECT_THROW((void)hil::record::from_json(line), hil::record::record_error);
}

}  // namespace
