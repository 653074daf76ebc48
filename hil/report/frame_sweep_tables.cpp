#include "hil/report/frame_sweep_tables.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include <fmt/format.h>

namespace hil::report {
namespace {

std::string port_label(const std::string& board, double line_mbps) {
  return board.empty() ? fmt::format("{:g} Mbit/s link", line_mbps)
                       : fmt::format("{}, {:g} Mbit/s link", board, line_mbps);
}

}  // namespace

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
    for (const auto& [load, loss] : c.points) {
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
  using group = std::pair<std::string, double>;  // board, line rate
  std::vector<group> groups;
  std::vector<int> sizes;
  for (const auto& b : bursts) {
    if (std::ranges::find(groups, group{b.board, b.line_mbps}) == groups.end()) {
      groups.emplace_back(b.board, b.line_mbps);
    }
    if (std::ranges::find(sizes, b.frame) == sizes.end()) sizes.push_back(b.frame);
  }
  std::ranges::sort(sizes);
  text_grid g;
  g.header.emplace_back("frame (bytes)");
  for (const auto& [board, line] : groups) {
    const std::string label = port_label(board, line);
    for (const char* what : {"longest burst (frames)", "spread (frames)", "s at line rate"}) {
      g.header.push_back(fmt::format("{}, {}", what, label));
    }
  }
  for (const int size : sizes) {
    std::vector<std::string> row{std::to_string(size)};
    for (const auto& [board, line] : groups) {
      const auto it = std::ranges::find_if(bursts, [&](const burst_row& b) {
        return b.frame == size && b.board == board && b.line_mbps == line;
      });
      if (it == bursts.end()) {
        row.insert(row.end(), 3, "");
        continue;
      }
      row.push_back(fmt::format("{:.0f}{}", it->average_frames,
                                it->at_line_rate ? "" : " (sender below line rate)"));
      row.push_back(fmt::format("{:.1f}", it->spread_frames));
      row.push_back(it->media_max_fps > 0
                        ? fmt::format("{:.3f}", it->average_frames / it->media_max_fps)
                        : "");
    }
    g.rows.push_back(std::move(row));
  }
  return g;
}

}  // namespace hil::report
