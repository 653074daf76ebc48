// The frame-size tables' shape (seed 003's layout): a row per frame size, rising, and a column
// group per port (report_model.hpp's port_id: board, link rate, frame path), in the order the
// rows first name them. Header-only: each table gives its own cells.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "hil/report/report_model.hpp"
#include "hil/report/tables.hpp"

namespace hil::report {

// cells(row) fills a group's columns under the headers `what` (each "what, port label"); a frame
// size a port has no row for gets empty cells there. cells must return what.size() strings.
template <typename Row, typename Cells>
[[nodiscard]] text_grid per_frame_grid(const std::vector<Row>& rows,
                                       const std::vector<std::string>& what, Cells cells) {
  std::vector<port_id> ports;
  std::vector<int> sizes;
  for (const auto& r : rows) {
    if (std::ranges::find(ports, port_of(r)) == ports.end()) ports.push_back(port_of(r));
    if (std::ranges::find(sizes, r.frame) == sizes.end()) sizes.push_back(r.frame);
  }
  std::ranges::sort(sizes);
  text_grid g;
  g.header.emplace_back("frame (bytes)");
  for (const auto& p : ports) {
    for (const auto& w : what) g.header.push_back(w + ", " + port_label(p));
  }
  for (const int size : sizes) {
    std::vector<std::string> row{std::to_string(size)};
    for (const port_id& column : ports) {
      const auto it = std::ranges::find_if(
          rows, [&](const Row& r) { return r.frame == size && port_of(r) == column; });
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

}  // namespace hil::report
