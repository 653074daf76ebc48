#include "esp_report.hpp"

#include <algorithm>
#include <cmath>

namespace hil::mcu_sim::esp {

std::vector<std::string> connect_lines(int id, const run& r, const iperf2_connection& c) {
  std::vector<std::string> lines;
  if (r.role == run_role::client) {
    lines.push_back(connect_info(id, c.local, c.local_port, c.remote, c.remote_port));
  } else {
    // getsockname of the server's socket: a UDP socket bound to any address reads 0.0.0.0.
    const std::string local = r.protocol == run_protocol::udp ? "0.0.0.0" : c.local;
    lines.push_back(connect_info(id, local, r.port, c.remote, c.remote_port));
  }
  lines.push_back(traffic_header());
  return lines;
}

std::vector<std::string> traffic_lines(int id, const run& r, const iperf2_run_text& text) {
  const bool udp_server = r.role == run_role::server && r.protocol == run_protocol::udp;
  const auto& figures = udp_server ? text.udp : text.own;
  std::vector<std::string> lines;
  if (figures.empty()) return lines;
  const auto& summary = figures.back();
  // iPerf 2's interval lines (a client given -i shorter than -t) stand for the period reports.
  const auto seconds = [&](double s) {
    return std::clamp(static_cast<int>(std::lround(s)), 0, r.time);
  };
  for (std::size_t i = 0; i + 1 < figures.size(); ++i) {
    lines.push_back(traffic_line(id, seconds(figures[i].start_seconds),
                                 seconds(figures[i].end_seconds), figures[i].bytes, r.format));
  }
  if (lines.empty()) {
    // One period of the whole run: its report comes with the run's end, just before the summary.
    lines.push_back(traffic_line(id, 0, r.time, summary.bytes, r.format));
  }
  lines.push_back(traffic_line(id, 0, r.time, summary.bytes, r.format));
  return lines;
}

}  // namespace hil::mcu_sim::esp
