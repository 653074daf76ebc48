// A scripted bench for the RFC 2544 search and sweep's tests (tester_ceiling_test.cpp,
// sender_cap_test.cpp): a 1 Gbit/s port of 64-byte frames, a check that needs 30 % of it, a port
// that carries `limit` frames/s and loses the excess, and a sender that reaches `ceilings` frames/s
// at most (each trial's in turn, the last one repeated).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "hil/measure/rfc2544_loss.hpp"
#include "hil/measure/rfc2544_search.hpp"

namespace hil::test {

inline constexpr double gigabit_64 = 1'488'095.238;
inline constexpr double needed_30_percent = 0.30 * gigabit_64;

struct scripted_bench {
  double limit = 2e6;
  std::vector<double> ceilings{2e6};
  std::size_t trial = 0;

  measure::trial_outcome operator()(double fps, std::chrono::milliseconds d) {
    const double ceiling = ceilings[std::min(trial++, ceilings.size() - 1)];
    const double seconds = std::chrono::duration<double>(d).count();
    measure::trial_outcome t;
    t.offered_fps = fps;
    t.sent_fps = std::min(fps, ceiling);
    t.sent = static_cast<std::uint64_t>(t.sent_fps * seconds);
    t.received =
        std::min(t.sent, static_cast<std::uint64_t>(std::min(t.sent_fps, limit) * seconds));
    return t;
  }
};

// A search from the media maximum to 1 % of it, and a sweep of 10 % steps, needing required_fps.
inline measure::search_options scripted_search(double required_fps) {
  measure::search_options o;
  o.max_fps = gigabit_64;
  o.resolution = 0.01;
  o.required_fps = required_fps;
  return o;
}

inline measure::loss_sweep_options scripted_sweep(double required_fps) {
  measure::loss_sweep_options o;
  o.max_fps = gigabit_64;
  o.required_fps = required_fps;
  return o;
}

}  // namespace hil::test
