#include "frame_rate.hpp"

#include <fmt/format.h>

#include <iostream>

namespace hil::bench_tool {
namespace {

constexpr int payload = 18;                  // 64 − 14 − 4 − 20 − 8
constexpr double schedule_tolerance = 1e-3;  // as an RFC 2544 trial (measure/rfc2544_search.hpp)

frame_rate run_at(const client_run& run, double fps, int seconds) {
  const auto bps = static_cast<long long>(fps * payload * 8);
  const auto s = run({"-u", "-l", std::to_string(payload), "-b", std::to_string(bps), "-t",
                      std::to_string(seconds), "-w", "8M"});
  frame_rate r;
  r.offered_per_s = fps;
  r.sent_per_s = static_cast<double>(s.packets) / s.duration_s;
  r.received_per_s = static_cast<double>(s.packets - s.lost_packets) / s.duration_s;
  return r;
}

bool kept(const frame_rate& r, int seconds) {
  return r.sent_per_s * seconds + 1 >= r.offered_per_s * seconds * (1 - schedule_tolerance);
}

}  // namespace

frame_rate scheduled_frame_rate(const client_run& run, int seconds) {
  double lo = 10'000;
  double hi = 4'000'000;
  frame_rate best = run_at(run, lo, seconds);
  if (!kept(best, seconds)) return frame_rate{};
  while (hi - lo > 0.01 * lo) {
    const double mid = (lo + hi) / 2;
    const frame_rate r = run_at(run, mid, seconds);
    std::cerr << fmt::format("hilperf-bench: paced 64-byte frames at {:.0f}/s: sent {:.0f}/s {}\n",
                             mid, r.sent_per_s, kept(r, seconds) ? "kept" : "short");
    if (kept(r, seconds)) {
      lo = mid;
      best = r;
    } else {
      hi = mid;
    }
  }
  return best;
}

frame_rate unpaced_frame_rate(const client_run& run, int seconds) {
  const auto s = run(
      {"-u", "-l", std::to_string(payload), "-b", "0", "-t", std::to_string(seconds), "-w", "8M"});
  frame_rate r;
  r.sent_per_s = static_cast<double>(s.packets) / s.duration_s;
  r.received_per_s = static_cast<double>(s.packets - s.lost_packets) / s.duration_s;
  return r;
}

}  // namespace hil::bench_tool
