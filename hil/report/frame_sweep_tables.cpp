#include "hil/report/frame_sweep_tables.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include <fmt/format.h>

#include "hil/report/per_frame_grid.hpp"

namespace hil::report {
bool several_ports(const std::vector<loss_curve>& losses) {
  return std::ranges::any_of(
      losses, [&](const loss_curve& c) { return port_of(c) != port_of(losses.front()); });
}

std::string loss_label(const loss_curve& c, bool several) {
  const std::string frame = fmt::format("frame{}", c.frame);
  return several ? frame + ", " + port_label(port_of(c)) : frame;
}

text_grid loss_grid(const std::vector<loss_curve>& losses) {
  std::vector<double> loads;
  for (const auto& c : losses) {
    for (const auto& point : c.points) {
      // (No structured binding: clang 14, the fuzz build's, cannot capture one in a lambda.)
      const double load = point.first;
      if (std::ranges::none_of(loads, [&](double l) { return std::abs(l - load) < 1e-6; })) {
        loads.push_back(load);
      }
    }
  }
  std::ranges::sort(loads, std::greater<>());
  const bool several = several_ports(losses);
  text_grid g;
  g.header.emplace_back("offered load (% of max)");
  for (const auto& c : losses) g.header.push_back(loss_label(c, several) + " loss (%)");
  for (const double load : loads) {
    std::vector<std::string> row{fmt::format("{:g}", std::round(load * 10) / 10)};
    for (const auto& c : losses) {
      const auto at = std::ranges::find_if(
          c.points, [&](const auto& p) { return std::abs(p.first - load) < 1e-6; });
      std::string cell = at == c.points.end() ? "" : fmt::format("{:.3f}", at->second);
      if (!c.note.empty() && at != c.points.end() && at == c.points.end() - 1) {
        cell += " (" + c.note + ")";
      }
      row.push_back(std::move(cell));
    }
    g.rows.push_back(std::move(row));
  }
  return g;
}

text_grid burst_grid(const std::vector<burst_row>& bursts) {
  return per_frame_grid(
      bursts, {"longest burst (frames)", "spread (frames)", "s at line rate"},
      [](const burst_row& b) {
        return std::vector<std::string>{
            fmt::format("{:.0f}{}", b.average_frames,
                        b.at_line_rate ? "" : " (sender below line rate)"),
            fmt::format("{:.1f}", b.spread_frames),
            b.media_max_fps > 0 ? fmt::format("{:.3f}", b.average_frames / b.media_max_fps) : ""};
      });
}

text_grid frame_latency_grid(const std::vector<frame_latency_row>& rows) {
  return per_frame_grid(
      rows, {"load (% of max)", "round trip p50 (ms)", "p99 (ms)", "max (ms)", "probes answered"},
      [](const frame_latency_row& r) {
        return std::vector<std::string>{
            fmt::format("{:.1f}", r.load_percent), fmt::format("{:.3f}", r.p50_ms),
            fmt::format("{:.3f}", r.p99_ms), fmt::format("{:.3f}", r.max_ms),
            fmt::format("{}/{}", r.probes_received, r.probes_sent)};
      });
}

}  // namespace hil::report
