#include "hil/report/y1564_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "hil/report/frame_sweep_tables.hpp"

namespace hil::report {

text_grid y1564_grid(const std::vector<service_result>& services) {
  const bool several = std::ranges::any_of(
      services, [&](const service_result& s) { return port_of(s) != port_of(services.front()); });
  text_grid g;
  if (several) g.header.emplace_back("port");
  for (const char* h : {"frame (bytes)", "step (% of CIR)", "offered (Mbit/s)", "IR (Mbit/s)",
                        "FLR (%)", "FTD (ms)", "FDV (ms)", "probes answered", "step"}) {
    g.header.emplace_back(h);
  }
  for (const auto& s : services) {
    for (const auto& step : s.steps) {
      std::vector<std::string> row;
      if (several) {
        row.push_back(port_label(port_of(s)));
      }
      std::string verdict = step.pass ? "pass" : "fail";
      if (!step.stream.valid) verdict = "sender short of the rate";
      row.insert(
          row.end(),
          {std::to_string(s.frame), fmt::format("{:g}", step.percent),
           fmt::format("{:.3f}", step.offered_mbps), fmt::format("{:.3f}", step.ir_mbps),
           fmt::format("{:.3f}", step.flr_percent), fmt::format("{:.3f}", step.ftd_ms),
           fmt::format("{:.3f}", step.fdv_ms),
           fmt::format("{}/{}", step.probes_received, step.probes_sent), std::move(verdict)});
      g.rows.push_back(std::move(row));
    }
  }
  return g;
}

}  // namespace hil::report
