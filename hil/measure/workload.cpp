#include "hil/measure/workload.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace hil::measure {
namespace {

constexpr std::array<std::pair<workload, std::string_view>, 6> names{{
    {workload::tcp_stream, "TCP_STREAM"},
    {workload::tcp_maerts, "TCP_MAERTS"},
    {workload::udp_stream, "UDP_STREAM"},
    {workload::tcp_rr, "TCP_RR"},
    {workload::tcp_crr, "TCP_CRR"},
    {workload::udp_rr, "UDP_RR"},
}};

}  // namespace

std::string_view workload_name(workload w) {
  for (const auto& [k, name] : names) {
    if (k == w) return name;
  }
  return "UNKNOWN";
}

std::optional<workload> workload_from_name(std::string_view name) {
  for (const auto& [k, known] : names) {
    const bool same = std::equal(name.begin(), name.end(), known.begin(), known.end(),
                                 [](char a, char b) { return std::toupper(a) == b; });
    if (same) return k;
  }
  return std::nullopt;
}

}  // namespace hil::measure
