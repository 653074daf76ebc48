#include "hil/measure/rfc2544_checks.hpp"

#include <fmt/format.h>

#include <algorithm>

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

}  // namespace

verdict check_frame_throughput(const frame_throughput_limits& l, const search_result& r) {
  verdict v;
  v.check = fmt::format("Rfc2544Throughput frame{}", l.frame_bytes);
  v.unit = "% of media maximum";
  v.limit_bound = bound::at_least;
  v.limit_value = l.min_percent;
  v.limit = fmt::format(
      ">= {:.1f} % of the media maximum, {:.0f} frames/s of {} bytes at {:g} "
      "Mbit/s, with {}",
      l.min_percent, l.media_max_fps, l.frame_bytes, l.line_mbps, loss_words(l.accepted_loss));
  if (r.tool_limited) {
    v.observed = "no figure: the sender could not keep the offered rate";
    v.cause = *r.tool_limited;
    return v;
  }
  if (!r.throughput_fps) {
    const auto low = lowest_failing(r);
    v.observed = fmt::format("no rate with {} (lowest tried {:.0f} frames/s)",
                             loss_words(l.accepted_loss), low.value_or(0));
    v.observed_value = 0;
    v.cause = fmt::format(
        "every trial lost frames of {} bytes, down to the slowest: the frame does not get through "
        "at all — an MTU below {} on the DUT, the peer or a switch (a jumbo frame needs jumbo "
        "support at both ends), or a filter dropping it",
        l.frame_bytes, l.frame_bytes - 18);
    return v;
  }
  const double fps = *r.throughput_fps;
  const double percent = l.media_max_fps > 0 ? 100 * fps / l.media_max_fps : 0;
  v.observed_value = percent;
  v.observed =
      fmt::format("{:.1f} % of the media maximum: {:.0f} frames/s, {:.2f} Mbit/s of frames",
                  percent, fps, fps * l.frame_bytes * 8 / 1e6);
  v.pass = percent >= l.min_percent;
  if (v.pass) return v;
  v.cause = fmt::format(
      "the port loses frames of {} bytes above {:.0f} frames/s, below its line rate: at small "
      "frames the DUT's driver, DMA ring or interrupt rate (coalescing), or its CPU receiving the "
      "transmit completions; at large frames the link itself (negotiated speed, flow control) or "
      "the peer's receive path",
      l.frame_bytes, fps);
  return v;
}

}  // namespace hil::measure
