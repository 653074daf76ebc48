// RFC 2544 §26.4 back-to-back frames (docs/checks.md "Rfc2544"): for each frame size of the
// profile, the longest burst of frames at the media maximum's rate that arrives whole: a burst
// of rfc2544.back_to_back_seconds of frames first, then a binary search on the burst's length to
// rfc2544.resolution_percent, repeated durations.*.rfc2544_back_to_back_repeats times (RFC 2544
// asks 50). Passes when the repeats' average longest burst is at least
// rfc2544.back_to_back_min_percent of the longest tried. Each burst is an iperf3 UDP test of
// exactly that many datagrams (-k); the port and trials as Rfc2544/Throughput's
// (cases/rfc2544_fixture.hpp). A sender that cannot reach line rate (the tester's ceiling, probed
// first) makes bursts of its own gaps, which say nothing of the DUT's queues: the case then ends as
// not measurable on this bench, without a search.
#include <fmt/format.h>

#include <cmath>

#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/rfc2544_burst.hpp"
#include "hil/measure/rfc2544_checks.hpp"

namespace {

hil::record::back_to_back_figures figures_of(const hil::record::frame_port& port,
                                             const hil::measure::burst_options& o,
                                             const hil::measure::burst_result& r) {
  hil::record::back_to_back_figures f;
  f.port = port;
  f.max_frames = o.max_frames;
  f.resolution_percent = o.resolution * 100;
  f.longest = r.longest;
  f.average_frames = r.average();
  f.spread_frames = r.spread();
  for (const auto& b : r.trials) {
    f.bursts.push_back(
        {b.frames, b.repeat, b.outcome.received, b.outcome.sent_fps, b.passed, b.at_line_rate});
  }
  return f;
}

class BackToBack : public hil::cases::frame_size_test {};

TEST_P(BackToBack, LongestBurst) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  hil::measure::burst_options o;
  o.line_fps = media_max();
  o.max_frames = static_cast<std::uint64_t>(
      std::ceil(media_max() * static_cast<double>(p.rfc2544.back_to_back_seconds)));
  o.resolution = p.rfc2544.resolution_percent / 100;
  o.repeats = p.durations().rfc2544_back_to_back_repeats;
  const hil::measure::back_to_back_limits limits{
      frame(),      static_cast<double>(line_mbps()),   media_max(),
      o.max_frames, p.rfc2544.back_to_back_min_percent, path()};
  const std::string what = "Rfc2544 back-to-back, " + frame_name();

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    hil::measure::burst_result r;
    try {
      r.not_measurable = ceiling_below(o.line_fps * (1 - o.line_rate_tolerance));
      if (!r.not_measurable) {
        r = hil::measure::find_back_to_back(o, [&](double fps, std::uint64_t frames) {
          rest();
          return logged(what, run_burst(fps, frames), fmt::format("a burst of {} frames", frames));
        });
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 burst against " << trial().base.host << ":" << trial().base.port
                    << " (" << peer_keys() << " in the board profile) could not run: " << e.what();
      return std::nullopt;
    }
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    return hil::fixtures::case_outcome{hil::measure::check_back_to_back(limits, r),
                                       figures_of(port_record(), o, r), counters(), std::nullopt,
                                       r.not_measurable};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, BackToBack, ::testing::ValuesIn(hil::cases::frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
