// The benchmark's evaluation and report: repeated runs reduced to median and range, ours compared
// with the best reference of each row, and the Markdown table
//
//   | workload | hilperf tx/s | sockperf tx/s | netperf tx/s | ours/best | hilperf p50/p90/p99 µs |
//   … | TCP_RR 1 B | 81234 (79000–83000) | - | 80123 (…) | 1.01x netperf | 9.0 / 10.1 / 14.2 | …
//
// followed by the target line (within 5 % of the best reference, or ahead: PASS/MISS per row).
// Pure functions, benchmark-only (tools/hilperf-rr-bench).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr_tools.hpp"

namespace hil::rr_bench_tool {

// Median, minimum and maximum of repeated figures; n == 0 (and zeros) for none.
struct spread {
  std::size_t n = 0;
  double median = 0;
  double min = 0;
  double max = 0;
};

// The spread of values (the median of an even count is the mean of the middle two).
[[nodiscard]] spread spread_of(std::vector<double> values);

// Everything measured for one row.
struct row_result {
  rr_case c;
  std::vector<tool_kind> references;                     // the tools ours is compared with here
  std::map<tool_kind, std::vector<rr_sample>> samples;   // the successful runs of each tool
  std::map<tool_kind, std::vector<std::string>> errors;  // why the other runs gave nothing
};

// Ours against the best reference of a row, by median transactions per second.
struct row_verdict {
  std::optional<double> ratio;       // ours / best; nullopt when ours or every reference has no run
  tool_kind best = tool_kind::ours;  // the reference with the highest median
  bool pass = false;                 // ratio >= min_ratio
};

// Compares ours with the row's best reference; min_ratio is the target (0.95 = within 5 %).
[[nodiscard]] row_verdict evaluate(const row_result& r, double min_ratio);

// "TCP_RR 1 B".
[[nodiscard]] std::string row_label(const rr_case& c);

// The table with a row per workload, then a legend; repetitions is the runs asked for per tool.
[[nodiscard]] std::string markdown_table(const std::vector<row_result>& rows, int repetitions,
                                         double min_ratio);

// "target: …, or ahead (ours/best >= 0.95): TCP_RR 1 B PASS (1.01x), …" and a newline.
[[nodiscard]] std::string target_line(const std::vector<row_result>& rows, double min_ratio);

}  // namespace hil::rr_bench_tool
