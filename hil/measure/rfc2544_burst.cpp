#include "hil/measure/rfc2544_burst.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace hil::measure {

double burst_result::average() const {
  if (longest.empty()) return 0;
  return std::accumulate(longest.begin(), longest.end(), 0.0) / static_cast<double>(longest.size());
}

double burst_result::spread() const {
  if (longest.size() < 2) return 0;
  const double mean = average();
  double sum = 0;
  for (const auto n : longest)
    sum += (static_cast<double>(n) - mean) * (static_cast<double>(n) - mean);
  return std::sqrt(sum / static_cast<double>(longest.size() - 1));
}

double burst_result::slowest_below_line_rate() const {
  double slowest = 0;
  for (const auto& t : trials) {
    if (!t.at_line_rate) {
      slowest = slowest == 0 ? t.outcome.sent_fps : std::min(slowest, t.outcome.sent_fps);
    }
  }
  return slowest;
}

burst_result find_back_to_back(const burst_options& o, const burst_runner& run) {
  if (!(o.line_fps > 0))
    throw std::invalid_argument("RFC 2544 back-to-back: line rate must be > 0");
  if (o.max_frames < 1) {
    throw std::invalid_argument("RFC 2544 back-to-back: the longest burst must be ≥ 1 frame");
  }
  if (!(o.resolution > 0 && o.resolution < 1)) {
    throw std::invalid_argument("RFC 2544 back-to-back: the resolution must be in (0, 1)");
  }
  if (o.repeats < 1) throw std::invalid_argument("RFC 2544 back-to-back: repeats must be ≥ 1");
  burst_result r;
  const double line_rate = o.line_fps * (1 - o.line_rate_tolerance);
  for (int repeat = 0; repeat < o.repeats; ++repeat) {
    // Whether the burst arrived whole; nullopt when its frames were lost beyond the port (the
    // receiving end's ceiling, r.not_measurable set): the search ends there.
    const auto burst = [&](std::uint64_t frames) -> std::optional<bool> {
      const trial_outcome out = run(o.line_fps, frames);
      const bool passed = out.sent >= frames && out.received >= out.sent;
      r.trials.push_back({out, frames, repeat, passed, out.sent_fps >= line_rate});
      if (!passed && out.lost_beyond_port()) {
        // The receiver's rate over the burst: what it counted of the burst's sending time.
        const double seconds = out.sent_fps > 0 ? static_cast<double>(out.sent) / out.sent_fps : 0;
        r.not_measurable =
            tester_ceiling{seconds > 0 ? static_cast<double>(out.received) / seconds : 0, line_rate,
                           tester_end::receiver};
        return std::nullopt;
      }
      return passed;
    };
    std::uint64_t lo = 0;
    std::uint64_t hi = o.max_frames;
    const auto first = burst(hi);
    if (!first) return r;
    if (*first) {
      lo = hi;
    } else {
      // lo: the longest whole burst so far; hi: the shortest lossy one.
      const auto step = [&] {
        return std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(o.resolution * static_cast<double>(hi)));
      };
      while (hi - lo > step()) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        const auto whole = burst(mid);
        if (!whole) return r;
        (*whole ? lo : hi) = mid;
      }
    }
    r.longest.push_back(lo);
  }
  return r;
}

}  // namespace hil::measure
