#include "cases/rfc2544_fixture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "fixtures/peer_auth.hpp"
#include "hil/measure/frames.hpp"
#include "hil/measure/rfc2544_burst.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/install_paths.hpp"

namespace hil::cases {

using namespace std::chrono_literals;

void PrintTo(const frame_case& c, std::ostream* os) {
  *os << "frame " << c.frame << (c.jumbo ? " (jumbo)" : "");
  if (const auto words = measure::frame_path_words(c.path); !words.empty()) *os << ", " << words;
}

int smallest_ipv6_frame() {
  constexpr std::uint32_t iperf3_min_udp_len = 16;  // iperf3 refuses a shorter -l
  return static_cast<int>(measure::frame_for_udp_payload(iperf3_min_udp_len, true));
}

namespace {

// frames on each of the profile's paths; on an IPv6 path, frames below smallest_ipv6_frame()
// become it (once).
std::vector<frame_case> on_paths(const std::vector<frame_case>& frames) {
  const auto& p = fixtures::suite_profile();
  std::vector<frame_case> out;
  for (const int version : p.rfc2544.ip_versions) {
    for (const auto d : p.rfc2544.directions) {
      const measure::frame_path path{d == profile::frame_direction::dut_receives
                                         ? measure::frame_direction::dut_receives
                                         : measure::frame_direction::dut_transmits,
                                     version};
      std::vector<int> seen;
      for (frame_case c : frames) {
        if (path.ipv6()) c.frame = std::max(c.frame, smallest_ipv6_frame());
        if (std::ranges::find(seen, c.frame) != seen.end()) continue;
        seen.push_back(c.frame);
        c.path = path;
        out.push_back(c);
      }
    }
  }
  return out;
}

// The frames a witnessed run sent: a trial's or burst's outcome, a probed trial's stream.
measure::trial_outcome& stream_of(measure::trial_outcome& t) { return t; }
measure::trial_outcome& stream_of(probed_trial& t) { return t.trial.stream; }

}  // namespace

std::vector<frame_case> frame_cases() {
  const auto& p = fixtures::suite_profile();
  std::vector<frame_case> frames;
  for (const int f : p.rfc2544.frame_sizes) frames.push_back({f, false, {}});
  if (const int jumbo = p.mtu.jumbo + 18;
      std::ranges::find(p.rfc2544.frame_sizes, jumbo) == p.rfc2544.frame_sizes.end()) {
    frames.push_back({jumbo, true, {}});
  }
  return on_paths(frames);
}

std::vector<frame_case> y1564_frame_cases() {
  const auto& p = fixtures::suite_profile();
  std::vector<frame_case> frames;
  for (const int f : p.y1564.frame_sizes) frames.push_back({f, false, {}});
  return on_paths(frames);
}

std::string frame_case_name(const ::testing::TestParamInfo<frame_case>& info) {
  return measure::frame_path_name(static_cast<std::uint32_t>(info.param.frame), info.param.path);
}

record::frame_trial_record trial_record_of(const measure::trial_record& t) {
  return {t.outcome.offered_fps,
          t.outcome.sent_fps,
          t.outcome.sent,
          t.outcome.received,
          std::chrono::duration<double>(t.duration).count(),
          t.passed,
          t.confirmation,
          t.valid,
          t.outcome.port_carried,
          t.outcome.sender_overdue};
}

bool frame_size_test::prepare_port() {
  prepare();
  return !IsSkipped() && !HasFailure();
}

void frame_size_test::prepare() {
  const frame_case c = GetParam();
  const auto& p = ctx().profile;
  if (c.jumbo && !p.mtu.jumbo_enabled) {
    GTEST_SKIP() << "the jumbo frame (" << c.frame
                 << " bytes) is off: set mtu.jumbo_enabled = true only when the peer's NIC (and "
                    "any switch) accepts jumbo frames";
  }
  if (p.peer.server == profile::peer_server::iperf2 ||
      p.peer.server == profile::peer_server::netserver) {
    GTEST_SKIP() << "peer.server = \""
                 << (p.peer.server == profile::peer_server::iperf2 ? "iperf2" : "netserver")
                 << "\": each RFC 2544 or Y.1564 trial is an iperf3 UDP test, for its exact "
                    "counts both ways; run it against hilperf-peer or iperf3 -s";
  }
  if (c.path.ipv6() && (p.dut.ipv6.empty() || p.peer.ipv6.empty())) {
    GTEST_SKIP() << "the profile has no IPv6 addresses (dut.ipv6 and peer.ipv6) for the IPv6 "
                    "frames of rfc2544.ip_versions";
  }
  line_mbps_ = p.rfc2544_line_mbps();
  ASSERT_GT(line_mbps_, 0) << "no line rate for the media maximum: set rfc2544.line_mbps, or "
                              "sim.frame_port_mbit (or sim.shape_mbit) on the simulated bench";
  frame_ = c.frame;
  const auto line_bps = static_cast<std::uint64_t>(line_mbps_) * 1'000'000ULL;
  media_max_ = measure::media_max_fps(line_bps, frame());

  // The IP packet of the frame must leave whole: raise the MTU for it (the guard restores it).
  const int packet = c.frame - 18;
  if (ctx().link.mtu(ifname()) < packet) guard().set_mtu(packet);
  // The bucket must take the largest frame either end may send (the control connection's too).
  const int largest = std::max(ctx().link.mtu(ifname()), p.sim.peer_mtu) + 18;
  const int sim_port_mbit = p.sim.frame_port_mbit > 0 ? p.sim.frame_port_mbit : p.sim.shape_mbit;
  if (p.peer.mode == profile::peer_mode::sim && sim_port_mbit > 0 &&
      p.sim.frame_port == profile::sim_frame_port::xdp) {
    // hilperf-xdp-port: $HILPERF_XDP_PORT_BINARY, else the installed one, else the build tree's.
    const auto binary = sys::locate_installed("HILPERF_XDP_PORT_BINARY", HIL_XDP_PORT_INSTALLED,
                                              HIL_XDP_PORT_BINARY);
    // The receiving ends' NAPI threads (real-time) kept on the last CPU, so the scheduler keeps
    // the DUT's sender off it (a real-time thread preempting the sender makes its catch-up
    // burst overflow the bucket).
    const int cpus = static_cast<int>(std::thread::hardware_concurrency());
    xdp_port_.emplace(bench::layout_of(p), sim_port_mbit, bench::xdp_bucket_bytes(c.frame, largest),
                      binary, cpus > 1 ? cpus - 1 : -1);
    std::cout << "simulated port in XDP, " << sim_port_mbit
              << " Mbit/s: " << xdp_port_->description();
    rest_ = 100ms + xdp_port_->drain_time();
  } else if (p.peer.mode == profile::peer_mode::sim && sim_port_mbit > 0) {
    port_.emplace(bench::layout_of(p), sim_port_mbit, largest);
    rest_ = 100ms + port_->drain_time();
  } else {
    constexpr double queue_frames = 1000;  // Linux's default txqueuelen
    const double bits = queue_frames * (ctx().link.mtu(ifname()) + 18 + 20) * 8.0;
    rest_ = 100ms + std::chrono::milliseconds(static_cast<long>(1000 * bits / line_bps + 1));
  }

  measure::test_spec base;
  base.proto = measure::protocol::udp;
  base.dont_fragment = true;
  base.reverse = c.path.dut_receives();
  trial_.base = client_for(base, c.path.ipv6());
  trial_.frame_bytes = frame();
  trial_.ipv6 = c.path.ipv6();
  try {
    trial_.base.auth = fixtures::peer_auth(p);
  } catch (const std::exception& e) {
    FAIL() << "the peer's credentials (peer.auth in the board profile) could not be read: "
           << e.what();
  }
  choose_sender();
}

void frame_size_test::choose_sender() {
  const auto& p = ctx().profile;
  const frame_case c = GetParam();
  path_options_.reset();
  if (c.path.dut_receives() || p.rfc2544.sender != profile::rfc2544_sender::frame_path) return;
  if (port_) {
    std::cout << "the DUT's frames as iperf3 UDP tests: the simulated port is tbf on the DUT's "
                 "sending end, which a frame path below the qdisc would bypass (sim.frame_port = "
                 "\"xdp\" lets the frame paths run)\n";
    return;
  }
  path_trial_options o;
  o.trial = trial_;
  o.ifname = ifname();
  o.src_ip = sys::without_prefix(c.path.ipv6() ? p.dut.ipv6 : p.dut.ipv4);
  // The simulated port in XDP times frames on the peer's receiving CPU, when its poll runs, not
  // when they left: frames handed to the veth below the IP stack (AF_XDP, the AF_PACKET ring)
  // arrive in tighter bunches than the socket path's, and a peer dropping them in XDP leaves that
  // CPU idle between polls, whose wake-ups bunch them further; the port's bucket then dropped a
  // few at 88-92 % of its rate where it carries 100 % (docs/frame-paths.md "Behind the simulated
  // port in XDP"). There the frames take the socket path and the peer counts on its socket, as
  // the iperf3 trials' receiver does; the paths below the socket layer are for a real port.
  if (xdp_port_) {
    o.order = {frame::tx_path::udp_socket};
    o.count_in_xdp = false;
    std::cout << "the simulated port in XDP: the DUT's frames on the socket path, counted on the "
                 "peer's socket (a real port takes AF_XDP and the AF_PACKET ring)\n";
  }
  path_options_ = std::move(o);
}

void frame_size_test::no_frame_count(const session::extension_unsupported& e) const {
  std::cout << "the DUT's frames as iperf3 UDP tests: the peer counts no frames (" << e.what()
            << "); hilperf-peer as the peer's server counts them in XDP\n";
  path_options_.reset();
}

std::optional<measure::trial_outcome> frame_size_test::path_trial_of(double fps,
                                                                     std::chrono::milliseconds d,
                                                                     std::uint64_t frames) const {
  if (!path_options_) return std::nullopt;
  try {
    auto t = run_path_trial(ctx().link, *path_options_, fps, d, frames);
    if (!path_told_) {
      path_told_ = true;
      std::cout << "the DUT's frames on a frame path: " << t.summary << "; counted by the peer "
                << (t.counted.method == iperf3::count_method::xdp
                        ? "in XDP (" + t.counted.attach_mode + ")"
                        : "on its socket (" + t.count_why + ")")
                << '\n';
    }
    tx_path_ = t.summary;
    path_trial_ran_ = true;
    if (t.counted.method == iperf3::count_method::xdp) counted_in_xdp_ = t.counted.frames;
    return t.outcome;
  } catch (const session::extension_unsupported& e) {
    no_frame_count(e);
    return std::nullopt;
  }
}

std::optional<measure::transmit_ceiling> frame_size_test::transmit_ceiling(
    std::chrono::milliseconds length, double need_fps) const {
  std::optional<measure::transmit_ceiling> best;
  for (int i = 0; i < 3 && (!best || best->fps < need_fps); ++i) {
    if (!path_options_) return std::nullopt;
    rest();
    try {
      const auto t = run_path_trial(ctx().link, *path_options_, 0, length);
      const double fps = std::min(t.pace.accepted_per_second(), t.pace.link_per_second());
      std::cout << fmt::format(
          "transmit ceiling, {}: unpaced for {} ms on {}: took {} ({:.0f}/s), onto the link {} "
          "({:.0f}/s), the peer counted {}\n",
          frame_name(), length.count(), t.path, t.pace.accepted, t.pace.accepted_per_second(),
          t.pace.tx_packets, t.pace.link_per_second(), t.counted.frames);
      tx_path_ = t.summary;
      if (!best || fps > best->fps) best = measure::transmit_ceiling{fps, t.path};
    } catch (const session::extension_unsupported& e) {
      no_frame_count(e);
    }
  }
  return best;
}

record::frame_port frame_size_test::port_record() const {
  return {frame(),
          session::trial_payload(trial_),
          path().ip_version,
          static_cast<double>(line_mbps_),
          media_max_,
          path().dut_receives() ? session::peer_frame_pacing
          : !tx_path_.empty()
              ? path_trial_pacing(path_options_.value_or(path_trial_options{}).batch)
              : session::frame_trial_pacing,
          measure::direction_name(path().direction),
          tx_path_};
}

std::string frame_size_test::peer_keys() const {
  return path().ipv6() ? "peer.ipv6 and peer.port" : "peer.ipv4 and peer.port";
}

template <typename Runner, typename Besides>
auto frame_size_test::witnessed(Runner run, Besides others) const {
  if (path().dut_receives()) return run();
  // Read after the test's end: its results exchange went out behind the last frame, so the
  // frames still queued at the end have left by then.
  // The port emulated in XDP sits behind the DUT's interface, on the peer's end: what it dropped
  // was counted out by the DUT's interface but not carried.
  // A peer counting in XDP behind that port drops what it counted: not the port's drops.
  const std::uint64_t dropped_before = xdp_port_ ? xdp_port_->peer_end_drops() : 0;
  const auto before = ctx().link.counters(ifname());
  counted_in_xdp_ = 0;
  path_trial_ran_ = false;
  auto out = run();
  const auto grown = link::delta(before, ctx().link.counters(ifname()));
  const std::uint64_t xdp_drops = xdp_port_ ? xdp_port_->peer_end_drops() - dropped_before : 0;
  const std::uint64_t dropped = xdp_drops - std::min(xdp_drops, counted_in_xdp_);
  if (auto& stream = stream_of(out); !grown.reset_seen) {
    const std::uint64_t besides = others(out) + dropped;
    stream.port_carried = grown.growth.tx_packets - std::min(besides, grown.growth.tx_packets);
    // On a frame path, what the DUT's transmit path dropped before its port (a driver's queue
    // overflowing: its tx_dropped) never reached the link: offered short, not lost on the link.
    if (const auto before_port = std::min(grown.growth.tx_dropped, stream.sent);
        path_trial_ran_ && before_port > 0) {
      const auto onto_link = stream.sent - before_port;
      stream.sent_fps *= static_cast<double>(onto_link) / static_cast<double>(stream.sent);
      stream.sent = onto_link;
    }
  }
  return out;
}

measure::trial_outcome frame_size_test::run_trial(double fps, std::chrono::milliseconds d) const {
  return witnessed(
      [&] {
        if (auto t = path_trial_of(fps, d, 0)) return *t;
        return session::run_frame_trial(trial(), fps, d);
      },
      [](const measure::trial_outcome&) { return std::uint64_t{0}; });
}

measure::trial_outcome frame_size_test::run_burst(double fps, std::uint64_t frames) const {
  return witnessed(
      [&] {
        // The burst's frames at fps, the window a second longer than they take.
        const auto takes = std::chrono::milliseconds(
            static_cast<long>(1000.0 * static_cast<double>(frames) / fps) + 1000);
        if (auto t = path_trial_of(fps, takes, frames)) return *t;
        return session::run_frame_burst(trial(), fps, frames);
      },
      [](const measure::trial_outcome&) { return std::uint64_t{0}; });
}

probed_trial frame_size_test::run_probed(double total_fps, double probe_share,
                                         std::chrono::milliseconds duration) const {
  return witnessed(
      [&] { return run_probed_trial(trial(), ifname(), total_fps, probe_share, duration); },
      [](const probed_trial& t) { return static_cast<std::uint64_t>(t.trial.probes_sent); });
}

void frame_size_test::rest() const { std::this_thread::sleep_for(rest_); }

std::optional<measure::tester_ceiling> frame_size_test::ceiling_below(
    double required_fps, std::optional<std::chrono::milliseconds> sustained) const {
  // A trial's shortest length (iperf3's -t is whole seconds): bounded whatever the sender reaches,
  // where a burst of a fixed count would last as long as a slow sender needs.
  constexpr std::chrono::seconds probe_length{1};
  const auto length = sustained.value_or(probe_length);
  const int retries = sustained ? 0 : 2;
  // No sender offers more than the line: a need at or above the media maximum asks line rate of
  // the tester (a check asking more than the line fails as the port's, in its own trials), and a
  // paced sender within 1 % of it is at it (burst_options::line_rate_tolerance).
  const double need =
      std::min(required_fps, media_max() * (1 - measure::burst_options{}.line_rate_tolerance));
  return measure::probe_ceiling(need, retries, length, [&] {
    rest();
    return logged("tester ceiling probe, " + frame_name(), run_trial(media_max(), length),
                  fmt::format("{} s", std::chrono::duration<double>(length).count()));
  });
}

measure::trial_outcome frame_size_test::logged(const std::string& what,
                                               const measure::trial_outcome& t,
                                               const std::string& length) {
  const auto lost = t.sent - std::min(t.sent, t.received);
  std::cout
      << fmt::format(
             "{}: offered {:.0f} frames/s for {}: sent {} ({:.0f}/s), received {}, lost {}{}{}\n",
             what, t.offered_fps, length, t.sent, t.sent_fps, t.received, lost,
             t.port_carried ? fmt::format(" (the DUT's port sent {})", *t.port_carried) : "",
             t.loss_within_catch_up()
                 ? fmt::format(", within the sender's catch-up ({} frames overdue at once)",
                               *t.sender_overdue)
                 : "")
      << std::flush;
  return t;
}

}  // namespace hil::cases
