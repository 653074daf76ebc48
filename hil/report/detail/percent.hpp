// The percentage iperf3's reports print, shared by the text and JSON renderings.
#pragma once

#include <cstdint>

namespace hil::report::detail {

// 100 * part / total; 0 when total is 0 (iperf3 "arbitrarily" reports 0% then).
[[nodiscard]] inline double percent(std::int64_t part, std::int64_t total) {
  return total > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0.0;
}

}  // namespace hil::report::detail
