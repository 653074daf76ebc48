#include "hil/measure/attempts.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hil::measure {

bool is_disturbed(double cpu_pressure_percent, double other_cpu_percent,
                  double pressure_limit_percent, double other_cpu_limit_percent) {
  return cpu_pressure_percent > pressure_limit_percent ||
         other_cpu_percent > other_cpu_limit_percent;
}

bool measure_again(const std::vector<attempt>& so_far, int max_attempts) {
  if (so_far.empty()) return true;
  const attempt& last = so_far.back();
  return !last.result.pass && last.disturbed && static_cast<int>(so_far.size()) < max_attempts;
}

verdict final_verdict(const std::vector<attempt>& attempts) {
  verdict v = attempts.back().result;
  const bool all_disturbed =
      std::all_of(attempts.begin(), attempts.end(), [](const attempt& a) { return a.disturbed; });
  if (!v.pass && all_disturbed) {
    std::string busy;
    for (const auto& a : attempts) {
      busy += fmt::format("{}attempt {}: {}", a.number == 1 ? "" : "; ", a.number, a.bench);
    }
    v.cause = fmt::format(
        "the bench was busy during every attempt ({}): the figure may be the machine's load, not "
        "the link (the test procedure: no other high-load tasks during testing); the check's own "
        "explanation: {}",
        busy, v.cause.empty() ? "none" : v.cause);
  }
  return v;
}

std::string attempts_summary(const std::vector<attempt>& attempts) {
  if (attempts.empty()) return "no attempt";
  const attempt& last = attempts.back();
  if (attempts.size() == 1) {
    return fmt::format("1 attempt, {} ({:.1f} % CPU pressure, other processes {:.0f} % of a core)",
                       last.disturbed ? "disturbed" : "quiet", last.cpu_pressure_percent,
                       last.other_cpu_percent);
  }
  std::string s =
      fmt::format("{} on attempt {}", last.result.pass ? "passed" : "failed", last.number);
  for (std::size_t i = 0; i + 1 < attempts.size(); ++i) {
    const attempt& a = attempts[i];
    s += fmt::format("; attempt {} failed {}: {}", a.number, a.disturbed ? "disturbed" : "quiet",
                     a.bench);
  }
  return s;
}

}  // namespace hil::measure
