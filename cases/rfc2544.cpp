// RFC 2544 §26.1 throughput (docs/checks.md "Rfc2544"): for each frame size of the profile, the
// highest rate at which the DUT sends frames of that size to the peer without loss (or within
// rfc2544.accepted_loss_percent), found by a binary search to rfc2544.resolution_percent of the
// media maximum and confirmed by a longer trial, each trial an iperf3 UDP test with exact counts
// both ways (hilperf-peer or any stock iperf3 -s). Passes at rfc2544.min_percent of the media
// maximum or more (min_percent_by_frame per size). A sender that cannot keep the offered rate
// fails as the tool's or the DUT CPU's limit, never as the port's figure.
//
// On the simulated bench the port is shaped for each case as an Ethernet port of
// sim.frame_port_mbit (bench::ethernet_port), so the search has a true media maximum to find; the
// bench's own shaping is back after the case.
#include <fmt/format.h>

#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/rfc2544_checks.hpp"

namespace {

using hil::cases::frame_case;

hil::record::frame_throughput_figures figures_of(const hil::record::frame_port& port,
                                                 const hil::measure::search_options& o,
                                                 const hil::measure::search_result& r) {
  hil::record::frame_throughput_figures f;
  f.frame_bytes = port.frame_bytes;
  f.payload_bytes = port.payload_bytes;
  f.ip_version = port.ip_version;
  f.direction = port.direction;
  f.line_mbps = port.line_mbps;
  f.media_max_fps = port.media_max_fps;
  f.pacing = port.pacing;
  f.throughput_fps = r.throughput_fps;
  f.accepted_loss_percent = o.accepted_loss * 100;
  f.resolution_percent = o.resolution * 100;
  f.tool_limited = r.tool_limited.value_or("");
  f.sender_ceiling_fps = r.sender_ceiling_fps;
  f.tx_path = port.tx_path;
  if (r.transmit) f.transmit_ceiling_fps = r.transmit->fps;
  for (const auto& trial : r.trials) f.trials.push_back(hil::cases::trial_record_of(trial));
  return f;
}

class Throughput : public hil::cases::frame_size_test {};

TEST_P(Throughput, ZeroLossRate) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  hil::measure::search_options o;
  o.max_fps = media_max();
  o.resolution = p.rfc2544.resolution_percent / 100;
  o.accepted_loss = p.rfc2544.accepted_loss_percent / 100;
  o.trial_duration = std::chrono::seconds(p.durations().rfc2544_trial_seconds);
  o.confirm_duration = std::chrono::seconds(p.durations().rfc2544_confirm_seconds);
  o.direction = path().direction;
  const hil::measure::frame_limits limits{
      frame(),         static_cast<double>(line_mbps()),
      media_max(),     p.rfc2544.min_percent_for(GetParam().frame),
      o.accepted_loss, path()};
  o.required_fps = limits.min_percent / 100 * media_max();
  const std::string what = "Rfc2544 " + frame_name();

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    hil::measure::search_result r;
    auto before = ctx().link.counters(p.dut.interface);
    try {
      // On a frame path the DUT's transmit path is measured first: the search offers no more
      // than it puts onto the link, and none when that is below the check's need. Its unpaced
      // bursts overfill queues on purpose: the case's counters are the search's alone.
      auto searched = o;
      const auto ceiling = transmit_ceiling(o.trial_duration, o.required_fps);
      if (ceiling) before = ctx().link.counters(p.dut.interface);
      if (ceiling && ceiling->fps < o.max_fps * (1 - o.resolution)) searched.max_fps = ceiling->fps;
      if (!ceiling || ceiling->fps >= o.required_fps) {
        r = hil::measure::find_throughput(searched, [&](double fps, std::chrono::milliseconds d) {
          rest();
          return logged(what, run_trial(fps, d),
                        fmt::format("{} s", std::chrono::duration<double>(d).count()));
        });
      }
      if (ceiling && searched.max_fps < o.max_fps) r.transmit = ceiling;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 trial against " << trial().base.host << ":" << trial().base.port
                    << " (" << peer_keys() << " in the board profile) could not run: " << e.what();
      return std::nullopt;
    }
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    return hil::fixtures::case_outcome{hil::measure::check_frame_throughput(limits, r),
                                       figures_of(port_record(), o, r), counters(), std::nullopt,
                                       r.not_measurable};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, Throughput, ::testing::ValuesIn(hil::cases::frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
