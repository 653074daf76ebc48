#include "hil/measure/rfc2544_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>

namespace hil::measure {
namespace {

// The lowest rate the search offered that lost frames, if any: where the port's loss began.
std::optional<double> lowest_failing(const search_result& r) {
  std::optional<double> low;
  for (const auto& t : r.trials) {
    if (t.valid && !t.passed)
      low = std::min(low.value_or(t.outcome.offered_fps), t.outcome.offered_fps);
  }
  return low;
}

std::string loss_words(double accepted_loss) {
  return accepted_loss > 0 ? fmt::format("at most {:g} % loss", accepted_loss * 100) : "zero loss";
}

// The Rfc2544 verdicts' head: "Rfc2544<name> frame<bytes>[_ipv6][_dut_receives]", its unit and
// its limit's bound.
verdict frame_verdict(std::string_view name, std::uint32_t frame_bytes, const frame_path& path,
                      std::string unit, bound b, double limit_value) {
  verdict v;
  v.check = fmt::format("Rfc2544{} {}", name, frame_path_name(frame_bytes, path));
  v.unit = std::move(unit);
  v.limit_bound = b;
  v.limit_value = limit_value;
  return v;
}

// What would lift a sender's ceiling, by who sends.
std::string ceiling_lift_words(frame_direction d) {
  if (d == frame_direction::dut_receives) {
    return "the peer (the PC) sends in this direction: a faster PC, hilperf-peer as its server, a "
           "larger socket buffer on it (net.core.wmem_max), or a sender below the socket layer "
           "on the PC";
  }
  return "the DUT sends in this direction through the socket layer, where each frame costs the "
         "DUT's CPU a system call's share of the kernel's UDP/IP path: a faster DUT CPU, or a "
         "sender below the socket layer (AF_XDP, an AF_PACKET ring) — the cases send there when "
         "the peer counts their frames, which hilperf-peer does (rfc2544.sender = "
         "\"frame_path\"; a stock iperf3 server counts only its own UDP test's datagrams)";
}

// Said after a figure when the sender capped the search or sweep: higher loads were not offered.
std::string sender_cap_words(const std::optional<double>& sender_ceiling_fps) {
  if (!sender_ceiling_fps) return "";
  return fmt::format(
      "; the sender reached at most {:.0f} frames/s, so higher loads were not offered: the "
      "figure rests on the loads the check needs, the port's own limit may lie above",
      *sender_ceiling_fps);
}

// Said after a figure the sender capped below a rate whose frames were lost (lost_fps).
std::string lower_bound_words(double sender_ceiling_fps, double lost_fps) {
  return fmt::format(
      "; above it the sender reached at most {:.0f} frames/s of the load asked, so the port's "
      "zero-loss rate lies between this figure and {:.0f} frames/s, where it lost frames",
      sender_ceiling_fps, lost_fps);
}

}  // namespace

std::string not_measurable_words(const frame_limits& l, const tester_ceiling& c,
                                 std::string_view need) {
  const auto percent = [&](double fps) {
    return l.media_max_fps > 0 ? 100 * fps / l.media_max_fps : 0;
  };
  if (c.end == tester_end::receiver) {
    return fmt::format(
        "not measurable on this bench: the DUT's port sent every frame of {} bytes it was given "
        "(its tx_packets counter), but the receiving end counted at most {:.0f} frames/s of them "
        "({:.1f} % of the media maximum, {:.0f} frames/s at {:g} Mbit/s), losing frames where the "
        "check needs none up to {:.0f} frames/s ({:.1f} %, {}); the loss is the peer's receiver's "
        "or the link's, neither a pass nor a failure of the port. What would lift the ceiling: "
        "the peer (the PC) receives in this direction: a larger socket buffer on it "
        "(net.core.rmem_max), a faster PC, or hilperf-peer as its server: a stock iperf3 server "
        "counts with one recv per datagram, hilperf-peer counts the frames in XDP, below the "
        "socket layer",
        l.frame_bytes, c.ceiling_fps, percent(c.ceiling_fps), l.media_max_fps, l.line_mbps,
        c.required_fps, percent(c.required_fps), need);
  }
  return fmt::format(
      "not measurable on this bench: offered the media maximum ({:.0f} frames/s of {} bytes at "
      "{:g} Mbit/s), the sender reached {:.0f} frames/s ({:.1f} %), below the {:.0f} frames/s "
      "({:.1f} %, {}) the check needs offered; neither a pass nor a failure of the port. What "
      "would lift the ceiling: {}",
      l.media_max_fps, l.frame_bytes, l.line_mbps, c.ceiling_fps, percent(c.ceiling_fps),
      c.required_fps, percent(c.required_fps), need, ceiling_lift_words(l.path.direction));
}

verdict check_frame_throughput(const frame_limits& l, const search_result& r) {
  verdict v = frame_verdict("Throughput", l.frame_bytes, l.path, "% of media maximum",
                            bound::at_least, l.min_percent);
  v.limit = fmt::format(
      ">= {:.1f} % of the media maximum, {:.0f} frames/s of {} bytes at {:g} "
      "Mbit/s, with {}",
      l.min_percent, l.media_max_fps, l.frame_bytes, l.line_mbps, loss_words(l.accepted_loss));
  if (r.tool_limited) {
    v.observed = "no figure: the sender could not keep the offered rate";
    v.cause = *r.tool_limited;
    return v;
  }
  if (r.not_measurable) {
    v.observed = "no figure: not measurable on this bench";
    v.cause = not_measurable_words(l, *r.not_measurable);
    return v;
  }
  if (r.transmit && r.trials.empty()) {
    // Calibrated below the need: no search ran, the ceiling is the figure.
    const double percent = l.media_max_fps > 0 ? 100 * r.transmit->fps / l.media_max_fps : 0;
    v.judge(percent);
    v.observed = fmt::format(
        "no search: the DUT's transmit path tops out at {:.0f} frames/s, {:.1f} % of the media "
        "maximum (path: {})",
        r.transmit->fps, percent, r.transmit->path);
    v.cause = fmt::format(
        "the DUT's transmit path tops out at {:.0f} frames/s of {} bytes (path: {}), below the "
        "{:.0f} frames/s the check needs: the frames it could not send never reached the link, so "
        "this is not loss on the link but the DUT's driver, its MAC's DMA or its CPU "
        "(docs/frame-paths.md \"Reading the ceiling\")",
        r.transmit->fps, l.frame_bytes, r.transmit->path, l.media_max_fps * l.min_percent / 100);
    return v;
  }
  if (!r.throughput_fps) {
    const auto low = lowest_failing(r);
    v.observed = fmt::format("no rate with {} (lowest tried {:.0f} frames/s)",
                             loss_words(l.accepted_loss), low.value_or(0));
    v.judge(0.0);
    v.cause = fmt::format(
        "every trial lost frames of {} bytes, down to the slowest: the frame does not get through "
        "at all — an MTU below {} on the DUT, the peer or a switch (a jumbo frame needs jumbo "
        "support at both ends), or a filter dropping it",
        l.frame_bytes, l.frame_bytes - 18);
    return v;
  }
  const double fps = *r.throughput_fps;
  const double percent = l.media_max_fps > 0 ? 100 * fps / l.media_max_fps : 0;
  v.judge(percent);
  // A figure capped by the sender below a rate whose frames were lost: the port's zero-loss rate
  // lies between the two, and the loss, not the figure, fails the check.
  const auto lost_at = r.sender_ceiling_fps ? lowest_failing(r) : std::nullopt;
  std::string capped = lost_at ? lower_bound_words(*r.sender_ceiling_fps, *lost_at)
                               : sender_cap_words(r.sender_ceiling_fps);
  if (r.transmit) {
    capped += fmt::format(
        "; the DUT's transmit path tops out at {:.0f} frames/s (path: {}), so the search offered "
        "no more",
        r.transmit->fps, r.transmit->path);
  }
  v.observed =
      fmt::format("{}{:.1f} % of the media maximum: {:.0f} frames/s, {:.2f} Mbit/s of frames{}",
                  r.sender_ceiling_fps || r.transmit ? "at least " : "", percent, fps,
                  fps * l.frame_bytes * 8 / 1e6, capped);
  if (v.pass) return v;
  if (lost_at) {
    v.cause =
        fmt::format("the port lost frames of {} bytes at {:.0f} frames/s, below its line rate: {}",
                    l.frame_bytes, *lost_at, port_loss_causes(l.path.direction));
    return v;
  }
  v.cause = fmt::format(
      "the port loses frames of {} bytes above {:.0f} frames/s, below its line rate: {}",
      l.frame_bytes, fps, port_loss_causes(l.path.direction));
  return v;
}

verdict check_frame_loss(const frame_limits& l, const loss_sweep_result& r) {
  verdict v = frame_verdict("FrameLoss", l.frame_bytes, l.path, "% frames lost", bound::at_most,
                            l.accepted_loss * 100);
  v.limit = fmt::format(
      "<= {:g} % of frames of {} bytes lost at every offered load up to {:.1f} % of the media "
      "maximum ({:.0f} frames/s at {:g} Mbit/s)",
      l.accepted_loss * 100, l.frame_bytes, l.min_percent, l.media_max_fps, l.line_mbps);
  if (r.tool_limited) {
    v.observed = "no figure: the sender could not keep the offered load";
    v.cause = *r.tool_limited;
    return v;
  }
  if (r.not_measurable) {
    v.observed = "no figure: not measurable on this bench";
    v.cause = not_measurable_words(l, *r.not_measurable);
    return v;
  }
  // The worst step at or below the floor (a hair of rounding above it still counts as at it).
  const loss_step* worst = nullptr;
  for (const auto& s : r.steps) {
    if (100 * s.load > l.min_percent + 1e-6) continue;
    if (worst == nullptr || s.trial.outcome.loss_ratio() > worst->trial.outcome.loss_ratio()) {
      worst = &s;
    }
  }
  const auto loss_free_from = [&]() -> std::string {
    if (!r.settled || r.steps.size() < 2) return "the sweep did not find two loss-free loads";
    return fmt::format("loss-free from {:.0f} % down", 100 * r.steps[r.steps.size() - 2].load);
  };
  if (worst == nullptr) {
    // Settled above the floor: no step ran at it.
    v.judge(r.settled ? std::optional(0.0) : std::nullopt);
    v.observed = fmt::format("0 % lost at or below {:.1f} % of the media maximum ({})",
                             l.min_percent, loss_free_from());
    if (!v.pass) v.cause = "the sweep ended before the floor: no load at or below it was measured";
    return v;
  }
  const double percent = 100 * worst->trial.outcome.loss_ratio();
  v.judge(percent);
  v.observed = fmt::format("{:.3f} % lost at {:.0f} % of the media maximum ({:.0f} frames/s; {}){}",
                           percent, 100 * worst->load, worst->trial.outcome.offered_fps,
                           loss_free_from(), sender_cap_words(r.sender_ceiling_fps));
  if (v.pass) return v;
  v.cause = fmt::format(
      "the port loses frames of {} bytes at {:.0f} % of its line rate, at or below the floor of "
      "{:.1f} % (rfc2544.min_percent): {}",
      l.frame_bytes, 100 * worst->load, l.min_percent, port_loss_causes(l.path.direction));
  return v;
}

verdict check_back_to_back(const back_to_back_limits& l, const burst_result& r) {
  const double needed = l.min_percent / 100 * static_cast<double>(l.max_frames);
  verdict v = frame_verdict("BackToBack", l.frame_bytes, l.path, "frames", bound::at_least, needed);
  v.limit = fmt::format(
      ">= {:.0f} frames of {} bytes in a burst at {:.0f} frames/s ({:g} Mbit/s line rate): {:g} % "
      "of the longest burst tried, {}",
      needed, l.frame_bytes, l.media_max_fps, l.line_mbps, l.min_percent, l.max_frames);
  if (r.not_measurable) {
    v.observed = "no figure: not measurable on this bench";
    v.cause = not_measurable_words({l.frame_bytes, l.line_mbps, l.media_max_fps, 0, 0, l.path},
                                   *r.not_measurable, "line rate: a burst at the minimum gap");
    return v;
  }
  const double average = r.average();
  v.judge(average);
  const double slowest = r.slowest_below_line_rate();
  v.observed = fmt::format(
      "{:.0f} frames on average over {} bursts (spread {:.1f}, {:.3f} s at "
      "line rate){}",
      average, r.longest.size(), r.spread(), l.media_max_fps > 0 ? average / l.media_max_fps : 0,
      slowest > 0 ? fmt::format("; some bursts left at {:.0f} frames/s, below "
                                "line rate: their gaps were the sender's",
                                slowest)
                  : "");
  if (v.pass) return v;
  const char* holds =
      l.path.dut_receives()
          ? "the DUT's RX ring (ethtool -g) holds before its CPU takes the frames (interrupt "
            "coalescing, softirq time)"
          : "the DUT's transmit queue (txqueuelen, the qdisc) and the driver's TX ring (ethtool "
            "-g) hold while the port drains them";
  v.cause = fmt::format(
      "a burst at line rate loses frames after about {:.0f}: that is what {}, or the link is "
      "slower than {:g} Mbit/s (negotiated speed, pause frames)",
      average, holds, l.line_mbps);
  return v;
}

verdict check_frame_latency(const latency_limits& l, const latency_trial& t) {
  verdict v = frame_verdict("Latency", l.frame_bytes, l.path, "ms round trip (median)",
                            bound::at_most, l.median_ms);
  v.limit = fmt::format(
      "median round trip <= {:g} ms for frames of {} bytes at {:.1f} % of the media maximum "
      "({:.0f} frames/s at {:g} Mbit/s), every probe answered, {}",
      l.median_ms, l.frame_bytes, l.load_percent, l.load_percent / 100 * l.media_max_fps,
      l.line_mbps, loss_words(l.accepted_loss));
  if (t.not_measurable) {
    v.observed = "no figure: not measurable on this bench";
    v.cause = not_measurable_words({l.frame_bytes, l.line_mbps, l.media_max_fps, 0, 0, l.path},
                                   *t.not_measurable, "rfc2544.min_percent, the load");
    return v;
  }
  const auto& s = t.round_trip;
  const double median_ms = s.p50_us / 1000;
  const double stream_loss = 100 * t.stream.loss_ratio();
  v.observed = fmt::format(
      "median {:.3f} ms (p99 {:.3f}, max {:.3f}) over {}/{} probes answered; the stream lost "
      "{:.3f} % of {} frames",
      median_ms, s.p99_us / 1000, s.max_us / 1000, t.probes_received, t.probes_sent, stream_loss,
      t.stream.sent);
  // Short without loss (and not found not measurable): the sender's limit. Short and lossy: the
  // port lost frames at no more than the load, judged below.
  if (!kept_schedule(t.stream, t.duration, 0.001) && t.stream.loss_ratio() <= l.accepted_loss) {
    v.observed = "no figure: the sender could not keep the load; " + v.observed;
    v.cause = tool_limited_words(t.stream, l.path.direction);
    return v;
  }
  if (t.probes_received == 0) {
    v.cause = fmt::format(
        "no echo reply came back: the peer's host does not answer ping (a firewall dropping ICMP), "
        "or every probe was lost in a full queue{}",
        stream_loss > 0 ? " — the stream lost frames too" : "");
    return v;
  }
  const bool lost = t.probes_received < t.probes_sent || t.stream.loss_ratio() > l.accepted_loss;
  // A lost probe or frame fails the check whatever the median: then the median decides nothing.
  v.judge(lost ? std::nullopt : std::optional(median_ms));
  if (v.pass) return v;
  const std::string queue =
      "frames wait in a queue at this load: " + queue_causes(l.path.direction);
  v.cause = lost ? fmt::format(
                       "the port loses frames of {} bytes at {:.1f} % of its line rate, a load it "
                       "must carry: {}; and {}",
                       l.frame_bytes, l.load_percent, port_loss_causes(l.path.direction), queue)
                 : queue;
  return v;
}

}  // namespace hil::measure
