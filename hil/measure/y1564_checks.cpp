#include "hil/measure/y1564_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>

#include "hil/measure/units.hpp"

namespace hil::measure {
namespace {

double seconds_of(const latency_trial& t) {
  return std::chrono::duration<double>(t.duration).count();
}

std::uint64_t frames_sent(const y1564_step& s) {
  return s.trial.stream.sent + static_cast<std::uint64_t>(std::max(s.trial.probes_sent, 0));
}

std::uint64_t frames_received(const y1564_step& s) {
  return std::min(s.trial.stream.sent, s.trial.stream.received) +
         static_cast<std::uint64_t>(std::max(s.trial.probes_received, 0));
}

std::string figures_of(const y1564_limits& l, const y1564_step& s) {
  return fmt::format(
      "{:g} %: IR {:.2f} of {:.2f} Mbit/s, FLR {:.3f} %, FTD {:.3f} ms, FDV {:.3f} ms ({}/{} "
      "probes)",
      s.percent, information_rate_mbps(l, s), l.cir_mbps * s.percent / 100, frame_loss_percent(s),
      ftd_ms(s), fdv_ms(s), s.trial.probes_received, s.trial.probes_sent);
}

}  // namespace

double ftd_ms(const y1564_step& s) { return s.trial.round_trip.p50_us / 1000; }
double fdv_ms(const y1564_step& s) {
  return (s.trial.round_trip.p99_us - s.trial.round_trip.min_us) / 1000;
}

double step_fps(const y1564_limits& l, double percent) {
  return l.frame_bytes == 0 ? 0 : l.cir_mbps * 1e6 * percent / 100 / (8.0 * l.frame_bytes);
}

double information_rate_mbps(const y1564_limits& l, const y1564_step& s) {
  const double t = seconds_of(s.trial);
  if (t <= 0) return 0;
  const double window = s.trial.probe_window.count() > 0
                            ? std::chrono::duration<double>(s.trial.probe_window).count()
                            : t;
  const double frame = l.frame_bytes;
  const auto stream = std::min(s.trial.stream.sent, s.trial.stream.received);
  return (bits_per_second(static_cast<double>(stream) * frame, t) +
          bits_per_second(std::max(s.trial.probes_received, 0) * frame, window)) /
         1e6;
}

double frame_loss_percent(const y1564_step& s) {
  const auto sent = frames_sent(s);
  return sent == 0 ? 0
                   : 100 * static_cast<double>(sent - std::min(sent, frames_received(s))) /
                         static_cast<double>(sent);
}

verdict check_y1564_step(const y1564_limits& l, const y1564_step& s) {
  verdict v;
  v.check = fmt::format("Y1564 {} step {:g}%", frame_path_name(l.frame_bytes, l.path), s.percent);
  v.limit =
      fmt::format("FLR <= {:g} %, FTD <= {:g} ms, FDV <= {:g} ms at {:g} % of CIR {:.2f} Mbit/s",
                  l.flr_percent, l.ftd_ms, l.fdv_ms, s.percent, l.cir_mbps);
  v.observed = figures_of(l, s);
  if (!kept_schedule(s.trial.stream, s.trial.duration, 0.001)) {
    v.observed = "no figure: the sender could not keep the step's rate; " + v.observed;
    v.cause = tool_limited_words(s.trial.stream, l.path.direction);
    return v;
  }
  const double flr = frame_loss_percent(s);
  const bool lossy = flr > l.flr_percent;
  const bool unanswered = s.trial.probes_received == 0;
  const bool slow = !unanswered && ftd_ms(s) > l.ftd_ms;
  const bool varied = !unanswered && fdv_ms(s) > l.fdv_ms;
  v.pass = !lossy && !unanswered && !slow && !varied;
  if (v.pass) return v;
  std::vector<std::string> causes;
  if (lossy) {
    causes.push_back(fmt::format(
        "the port loses {:.3f} % of the frames at {:.2f} Mbit/s, {:.1f} % of the media maximum: a "
        "committed rate it does not carry — the link slower than {:g} Mbit/s (negotiated speed, "
        "pause frames), a policer or shaper on the path below the CIR, or the DUT's driver and "
        "{} ring at this frame size",
        flr, l.cir_mbps * s.percent / 100,
        100 * step_fps(l, s.percent) / std::max(l.media_max_fps, 1e-9), l.line_mbps,
        l.path.dut_receives() ? "RX" : "TX"));
  }
  if (unanswered) {
    causes.emplace_back(
        "no echo reply came back: the peer's host does not answer ping (a firewall dropping "
        "ICMP), or every probe was lost");
  }
  if (slow || varied) {
    causes.push_back(
        "frames wait in a queue at this step: " + queue_causes(l.path.direction) +
        "; a delay that varies without loss is a queue that fills and drains (a bursty sender, a "
        "shaper's bucket)");
  }
  v.cause = fmt::format("{}", fmt::join(causes, "; "));
  return v;
}

verdict check_y1564(const y1564_limits& l, const std::vector<y1564_step>& steps,
                    const std::optional<tester_ceiling>& not_measurable) {
  verdict v;
  v.check = fmt::format("Y1564 {}", frame_path_name(l.frame_bytes, l.path));
  v.unit = "% of CIR";
  v.limit_bound = bound::at_least;
  double highest = 0;
  std::vector<std::string> percents;
  for (const auto& s : steps) {
    highest = std::max(highest, s.percent);
    percents.push_back(fmt::format("{:g} %", s.percent));
  }
  v.limit_value = highest;
  v.limit = fmt::format(
      "every step ({} of CIR {:.2f} Mbit/s, frames of {} bytes) with FLR <= {:g} %, FTD <= {:g} ms "
      "(median round trip), FDV <= {:g} ms (p99 less minimum)",
      fmt::join(percents, ", "), l.cir_mbps, l.frame_bytes, l.flr_percent, l.ftd_ms, l.fdv_ms);
  if (not_measurable) {
    v.observed = "no figure: not measurable on this bench";
    v.cause =
        not_measurable_words({l.frame_bytes, l.line_mbps, l.media_max_fps, 0, 0, l.path},
                             *not_measurable, "y1564.cir_mbps or cir_percent: the highest step");
    return v;
  }
  std::vector<std::string> lines;
  double passed_up_to = 0;
  bool all = !steps.empty();
  for (const auto& s : steps) {
    const verdict step = check_y1564_step(l, s);
    lines.push_back(step.observed + (step.pass ? "" : " — failed"));
    if (!step.pass && all) {
      all = false;
      v.cause = fmt::format("at {:g} % of CIR: {}", s.percent, step.cause);
    }
    if (all) passed_up_to = s.percent;
  }
  const std::string reach =
      all ? "every step passed"
          : (passed_up_to > 0 ? fmt::format("steps up to {:g} % of CIR passed", passed_up_to)
                              : std::string("the first step failed"));
  v.observed =
      steps.empty() ? "no step ran" : fmt::format("{} ({})", reach, fmt::join(lines, "; "));
  // The steps rise (profile validation): every step passed exactly when the highest did.
  v.judge(steps.empty() ? std::nullopt : std::optional(passed_up_to));
  if (steps.empty()) v.cause = "no step ran: the profile's y1564.steps is empty";
  return v;
}

}  // namespace hil::measure
