#include "zperf_report.hpp"

#include <algorithm>
#include <cmath>

namespace hil::mcu_sim::zperf {
namespace {

std::uint64_t microseconds(double seconds) {
  return static_cast<std::uint64_t>(std::llround(std::max(seconds, 0.0) * 1e6));
}

}  // namespace

results upload_results(const upload& u, const iperf2_run_text& text) {
  results r;
  r.packet_size = std::min(u.packet_size, max_packet_size);
  if (!text.own.empty()) {
    const auto& own = text.own.back();
    r.client_time_in_us = microseconds(own.end_seconds - own.start_seconds);
    const std::uint64_t writes = r.packet_size == 0 ? 0 : own.bytes / r.packet_size;
    r.packets_sent = static_cast<std::uint32_t>(text.sent.value_or(writes));
  }
  if (u.protocol == run_protocol::udp && !text.udp.empty()) {
    const auto& server = text.udp.back();
    r.time_in_us = microseconds(server.end_seconds - server.start_seconds);
    r.total_len = server.bytes;
    r.packets_received = static_cast<std::uint32_t>(server.total.value_or(0));
    r.packets_lost = static_cast<std::uint32_t>(server.lost.value_or(0));
    r.packets_out_of_order = static_cast<std::uint32_t>(text.out_of_order);
    r.jitter_us = static_cast<std::uint32_t>(std::llround(server.jitter_ms.value_or(0) * 1000));
  }
  return r;
}

results session_results(const iperf2_figures& figures, std::uint64_t out_of_order) {
  results r;
  r.time_in_us = microseconds(figures.end_seconds - figures.start_seconds);
  r.total_len = figures.bytes;
  if (figures.total) {
    r.packets_lost = static_cast<std::uint32_t>(figures.lost.value_or(0));
    r.packets_received = static_cast<std::uint32_t>(*figures.total - r.packets_lost);
    r.packets_out_of_order = static_cast<std::uint32_t>(out_of_order);
    r.jitter_us = static_cast<std::uint32_t>(std::llround(figures.jitter_ms.value_or(0) * 1000));
  }
  return r;
}

}  // namespace hil::mcu_sim::zperf
