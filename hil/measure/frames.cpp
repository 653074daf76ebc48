#include "hil/measure/frames.hpp"

#include <algorithm>

namespace hil::measure {
namespace {

std::uint32_t ip_udp_headers(bool ipv6) { return (ipv6 ? 40 : 20) + 8; }

}  // namespace

std::optional<std::uint32_t> udp_payload_for_frame(std::uint32_t frame_bytes, bool ipv6,
                                                   std::uint32_t min_payload) {
  const std::uint32_t overhead = ethernet_header + ip_udp_headers(ipv6) + ethernet_fcs;
  if (frame_bytes < min_frame || frame_bytes < overhead + std::max(min_payload, 1U)) {
    return std::nullopt;
  }
  return frame_bytes - overhead;
}

std::uint32_t frame_for_udp_payload(std::uint32_t payload_bytes, bool ipv6) {
  return std::max(min_frame, ethernet_header + ip_udp_headers(ipv6) + payload_bytes + ethernet_fcs);
}

double media_max_fps(std::uint64_t line_bps, std::uint32_t frame_bytes) {
  return static_cast<double>(line_bps) /
         (static_cast<double>(frame_bytes + ethernet_preamble_and_gap) * 8);
}

double frame_bps(double fps, std::uint32_t frame_bytes) {
  return fps * static_cast<double>(frame_bytes) * 8;
}

double wire_bps(double fps, std::uint32_t frame_bytes) {
  return fps * static_cast<double>(frame_bytes + ethernet_preamble_and_gap) * 8;
}

}  // namespace hil::measure
