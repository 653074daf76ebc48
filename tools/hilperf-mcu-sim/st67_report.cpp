#include "st67_report.hpp"

#include "st67_text.hpp"

namespace hil::mcu_sim {

std::vector<std::string> st67_report(const iperf_args& args, const iperf2_run_text& text) {
  std::vector<std::string> lines;
  const bool udp = args.protocol == run_protocol::udp;
  if (args.role == run_role::client) {
    if (text.own.empty()) return lines;
    // iPerf 2's interval lines come first, its summary (from 0.0) last.
    for (std::size_t i = 0; i + 1 < text.own.size(); ++i) {
      const auto& f = text.own[i];
      lines.push_back(
          st67::interval_line(f.start_seconds, f.end_seconds, f.bytes, f.bits_per_second));
    }
    const auto& s = text.own.back();
    lines.push_back(st67::summary_line(s.end_seconds, s.bytes, s.bits_per_second, false));
    if (udp && !text.udp.empty()) {
      const auto& r = text.udp.back();
      lines.push_back(st67::client_loss_header());
      lines.push_back(st67::client_loss_line(r.jitter_ms.value_or(0), *r.lost, *r.total));
    }
    return lines;
  }
  if (udp) {
    if (text.udp.empty()) return lines;
    const auto& r = text.udp.back();
    lines.push_back(st67::summary_line(r.end_seconds, r.bytes, r.bits_per_second, true));
    lines.push_back(st67::server_loss_header());
    lines.push_back(st67::server_loss_line(*r.lost, *r.total));
    return lines;
  }
  if (text.own.empty()) return lines;
  const auto& s = text.own.back();
  lines.push_back(st67::summary_line(s.end_seconds, s.bytes, s.bits_per_second, false));
  return lines;
}

bool st67_run_over(const iperf_args& args, const iperf2_run_text& text) {
  if (args.role == run_role::client) return !text.own.empty();
  return args.protocol == run_protocol::udp ? !text.udp.empty() : !text.own.empty();
}

}  // namespace hil::mcu_sim
