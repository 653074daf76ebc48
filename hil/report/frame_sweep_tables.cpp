#include "hil/report/frame_sweep_tables.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include <fmt/format.h>

namespace hil::report {
std::string port_label(const std::string& board, double line_mbps) {
  return board.empty() ? fmt::format("{:g} Mbit/s link", line_mbps)
                       : fmt::format("{}, {:g} Mbit/s link", board, line_mbps);
}

bool several_ports(const std::vector<loss_curve>& losses) {
  return std::ranges::any_of(losses, [&](const loss_curve& c) {
    return c.board != losses.front().board || c.line_mbps != losses.front().line_mbps;
  });
}

std::string loss_label(const loss_curve& c, bool several) {
  const std::string frame = fmt::format("frame{}", c.frame);
  return several ? frame + ", " + port_label(c.board, c.line_mbps) : frame;
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

namespace {

// A row per frame size of rows, a column group per board and link rate: cells(row) under the
// headers what, empty cells where a frame size has no row in a group.
template <typename Row, typename Cells>
text_grid per_frame_grid(const std::vector<Row>& rows, const std::vector<std::string>& what,
                         Cells cells) {
  using group = std::pair<std::string, double>;  // board, line rate
  std::vector<group> groups;
  std::vector<int> sizes;
  for (const auto& r : rows) {
    if (std::ranges::find(groups, group{r.board, r.line_mbps}) == groups.end()) {
      groups.emplace_back(r.board, r.line_mbps);
    }
    if (std::ranges::find(sizes, r.frame) == sizes.end()) sizes.push_back(r.frame);
  }
  std::ranges::sort(sizes);
  text_grid g;
  g.header.emplace_back("frame (bytes)");
  for (const auto& [board, line] : groups) {
    for (const auto& w : what) g.header.push_back(w + ", " + port_label(board, line));
  }
  for (const int size : sizes) {
    std::vector<std::string> row{std::to_string(size)};
    for (const group& column : groups) {  // not [board, line]: clang 14 cannot capture those
      const auto it = std::ranges::find_if(rows, [&](const Row& r) {
        return r.frame == size && r.board == column.first && r.line_mbps == column.second;
      });
      if (it == rows.end()) {
        row.insert(row.end(), what.size(), "");
        continue;
      }
      for (auto& cell : cells(*it)) row.push_back(std::move(cell));
    }
    g.rows.push_back(std::move(row));
  }
  return g;
}

}  // namespace

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
