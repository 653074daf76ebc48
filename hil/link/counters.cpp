#include "hil/link/counters.hpp"

#include <fmt/format.h>

namespace hil::link {

std::string counter_delta::error_summary() const {
  std::string out;
  for (const auto& f : counter_fields) {
    const std::uint64_t grew = growth.*f.member;
    if (!f.is_error || grew == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} +{}", f.name, grew);
  }
  return out;
}

counter_delta delta(const link_counters& before, const link_counters& after) {
  counter_delta d;
  for (const auto& f : counter_fields) {
    const std::uint64_t b = before.*f.member;
    const std::uint64_t a = after.*f.member;
    if (a < b) {
      d.reset_seen = true;  // 64-bit counters do not wrap in a test's lifetime; this is a reset
      d.growth.*f.member = 0;
    } else {
      d.growth.*f.member = a - b;
    }
  }
  return d;
}

}  // namespace hil::link
