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

#include <algorithm>
#include <iostream>

#include "fixtures/attempts.hpp"
#include "fixtures/peer_auth.hpp"
#include "fixtures/traffic_fixture.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/measure/frames.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/session/frame_trial.hpp"

namespace {

using namespace std::chrono_literals;

struct frame_case {
  int frame = 0;
  bool jumbo = false;  // the jumbo MTU's frame: skipped unless mtu.jumbo_enabled
};

// gtest prints a parameter by its frame size, not its bytes.
[[maybe_unused]] void PrintTo(const frame_case& c, std::ostream* os) {
  *os << "frame " << c.frame << (c.jumbo ? " (jumbo)" : "");
}

// The profile's frame sizes and the jumbo MTU's frame (mtu.jumbo + 14 + 4), unless listed.
std::vector<frame_case> frame_cases() {
  const auto& p = hil::fixtures::suite_profile();
  std::vector<frame_case> out;
  for (const int f : p.rfc2544.frame_sizes) out.push_back({f, false});
  if (const int jumbo = p.mtu.jumbo + 18;
      std::ranges::find(p.rfc2544.frame_sizes, jumbo) == p.rfc2544.frame_sizes.end()) {
    out.push_back({jumbo, true});
  }
  return out;
}

hil::record::frame_throughput_figures figures_of(const hil::session::frame_trial_options& t,
                                                 double line_mbps, double media_max,
                                                 const hil::measure::search_options& o,
                                                 const hil::measure::search_result& r) {
  hil::record::frame_throughput_figures f;
  f.frame_bytes = t.frame_bytes;
  f.payload_bytes = hil::session::trial_payload(t);
  f.ip_version = t.ipv6 ? 6 : 4;
  f.line_mbps = line_mbps;
  f.media_max_fps = media_max;
  f.throughput_fps = r.throughput_fps;
  f.accepted_loss_percent = o.accepted_loss * 100;
  f.resolution_percent = o.resolution * 100;
  f.pacing = hil::session::frame_trial_pacing;
  f.tool_limited = r.tool_limited.value_or("");
  for (const auto& trial : r.trials) {
    f.trials.push_back({trial.outcome.offered_fps, trial.outcome.sent_fps, trial.outcome.sent,
                        trial.outcome.received,
                        std::chrono::duration<double>(trial.duration).count(), trial.passed,
                        trial.confirmation, trial.valid});
  }
  return f;
}

// One line per trial while the search runs, as a tester's log shows it.
hil::measure::trial_outcome logged(std::uint32_t frame, const hil::measure::trial_outcome& t,
                                   std::chrono::milliseconds d) {
  const auto lost = t.sent - std::min(t.sent, t.received);
  std::cout << fmt::format(
                   "Rfc2544 frame{}: offered {:.0f} frames/s for {} s: sent {} ({:.0f}/s), "
                   "received {}, lost {}\n",
                   frame, t.offered_fps, std::chrono::duration<double>(d).count(), t.sent,
                   t.sent_fps, t.received, lost)
            << std::flush;
  return t;
}

class Throughput : public hil::fixtures::traffic_test,
                   public ::testing::WithParamInterface<frame_case> {};

TEST_P(Throughput, ZeroLossRate) {
  const frame_case c = GetParam();
  const auto& p = ctx().profile;
  if (c.jumbo && !p.mtu.jumbo_enabled) {
    GTEST_SKIP() << "the jumbo frame (" << c.frame
                 << " bytes) is off: set mtu.jumbo_enabled = true only when the peer's NIC (and "
                    "any switch) accepts jumbo frames";
  }
  if (p.peer.server == hil::profile::peer_server::iperf2 ||
      p.peer.server == hil::profile::peer_server::netserver) {
    GTEST_SKIP() << "peer.server = \""
                 << (p.peer.server == hil::profile::peer_server::iperf2 ? "iperf2" : "netserver")
                 << "\": each RFC 2544 trial is an iperf3 UDP test, for its exact counts both "
                    "ways; run it against hilperf-peer or iperf3 -s";
  }
  const int line_mbps = p.rfc2544_line_mbps();
  ASSERT_GT(line_mbps, 0) << "no line rate for the media maximum: set rfc2544.line_mbps, or "
                             "sim.frame_port_mbit (or sim.shape_mbit) on the simulated bench";
  const auto frame = static_cast<std::uint32_t>(c.frame);
  const double media_max =
      hil::measure::media_max_fps(static_cast<std::uint64_t>(line_mbps) * 1'000'000ULL, frame);

  // The IP packet of the frame must leave whole: raise the MTU for it (the guard restores it).
  const int packet = c.frame - 18;
  if (ctx().link.mtu(ifname()) < packet) guard().set_mtu(packet);
  std::optional<hil::bench::ethernet_port> port;
  const int sim_port_mbit = p.sim.frame_port_mbit > 0 ? p.sim.frame_port_mbit : p.sim.shape_mbit;
  if (p.peer.mode == hil::profile::peer_mode::sim && sim_port_mbit > 0) {
    // The bucket must take the largest frame either end may send (the control connection's too).
    const int largest = std::max(ctx().link.mtu(ifname()), p.sim.peer_mtu) + 18;
    port.emplace(hil::bench::layout_of(p), sim_port_mbit, largest);
  }

  hil::measure::test_spec base;
  base.proto = hil::measure::protocol::udp;
  base.dont_fragment = true;
  hil::session::frame_trial_options t;
  t.base = client_for(base, false);
  t.frame_bytes = frame;
  hil::measure::search_options o;
  o.max_fps = media_max;
  o.resolution = p.rfc2544.resolution_percent / 100;
  o.accepted_loss = p.rfc2544.accepted_loss_percent / 100;
  o.trial_duration = std::chrono::seconds(p.durations().rfc2544_trial_seconds);
  o.confirm_duration = std::chrono::seconds(p.durations().rfc2544_confirm_seconds);
  const hil::measure::frame_limits limits{frame, static_cast<double>(line_mbps), media_max,
                                          p.rfc2544.min_percent_for(c.frame), o.accepted_loss};

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    hil::measure::search_result r;
    try {
      t.base.auth = hil::fixtures::peer_auth(p);
      r = hil::measure::find_throughput(o, [&](double fps, std::chrono::milliseconds d) {
        return logged(frame, run_frame_trial(t, fps, d), d);
      });
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 trial against " << t.base.host << ":" << t.base.port
                    << " (peer.ipv4 and peer.port in the board profile) could not run: "
                    << e.what();
      return std::nullopt;
    }
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    return hil::fixtures::case_outcome{hil::measure::check_frame_throughput(limits, r),
                                       figures_of(t, line_mbps, media_max, o, r), counters()};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, Throughput, ::testing::ValuesIn(frame_cases()),
                         [](const ::testing::TestParamInfo<frame_case>& case_info) {
                           return "frame" + std::to_string(case_info.param.frame);
                         });

}  // namespace
