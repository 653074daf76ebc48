#include "rr_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "hil/measure/sample_stats.hpp"

namespace hil::rr_bench_tool {
namespace {

constexpr std::array<tool_kind, 3> all_tools{tool_kind::ours, tool_kind::sockperf,
                                             tool_kind::netperf};

// One figure of every successful run of tool in row r.
template <typename field>
spread figure(const row_result& r, tool_kind tool, field f) {
  std::vector<double> values;
  if (const auto it = r.samples.find(tool); it != r.samples.end()) {
    for (const auto& s : it->second) values.push_back(f(s));
  }
  return spread_of(std::move(values));
}

spread rate(const row_result& r, tool_kind tool) {
  return figure(r, tool, [](const rr_sample& s) { return s.transactions_per_second; });
}

bool takes_part(const row_result& r, tool_kind tool) {
  return tool == tool_kind::ours ||
         std::find(r.references.begin(), r.references.end(), tool) != r.references.end();
}

// "81234 (79000–83000)", with the count of runs when some failed; "-" where the tool has no part.
std::string rate_cell(const row_result& r, tool_kind tool, int repetitions) {
  if (!takes_part(r, tool)) return "-";
  const spread s = rate(r, tool);
  if (s.n == 0) return "failed";
  std::string cell = fmt::format("{:.0f} ({:.0f}–{:.0f})", s.median, s.min, s.max);
  if (s.n < static_cast<std::size_t>(repetitions)) {
    cell += fmt::format(" [{} of {} runs]", s.n, repetitions);
  }
  return cell;
}

// "9.0 / 10.1 / 14.2": the medians over the runs of each run's p50, p90 and p99.
std::string latency_cell(const row_result& r, tool_kind tool) {
  if (!takes_part(r, tool)) return "-";
  const auto p50 = figure(r, tool, [](const rr_sample& s) { return s.p50_us; });
  if (p50.n == 0) return "failed";
  const auto p90 = figure(r, tool, [](const rr_sample& s) { return s.p90_us; });
  const auto p99 = figure(r, tool, [](const rr_sample& s) { return s.p99_us; });
  return fmt::format("{:.1f} / {:.1f} / {:.1f}", p50.median, p90.median, p99.median);
}

std::string ratio_cell(const row_result& r, double min_ratio) {
  const auto v = evaluate(r, min_ratio);
  if (!v.ratio) return "n/a";
  return fmt::format("{:.2f}x {}", *v.ratio, tool_name(v.best));
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& c : cells) line += " " + c + " |";
  return line + "\n";
}

}  // namespace

spread spread_of(std::vector<double> values) {
  spread s;
  s.n = values.size();
  if (values.empty()) return s;
  s.median = measure::median(values);
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  s.min = *min;
  s.max = *max;
  return s;
}

row_verdict evaluate(const row_result& r, double min_ratio) {
  row_verdict v;
  const spread ours = rate(r, tool_kind::ours);
  double best = 0;
  for (const auto ref : r.references) {
    const spread s = rate(r, ref);
    if (s.n > 0 && s.median > best) {
      best = s.median;
      v.best = ref;
    }
  }
  if (ours.n == 0 || best <= 0) return v;
  v.ratio = ours.median / best;
  v.pass = *v.ratio >= min_ratio;
  return v;
}

std::string row_label(const rr_case& c) { return fmt::format("{} {} B", c.workload, c.size); }

std::string markdown_table(const std::vector<row_result>& rows, int repetitions, double min_ratio) {
  // Columns only for the tools some row uses.
  std::vector<tool_kind> tools;
  for (const auto t : all_tools) {
    if (std::any_of(rows.begin(), rows.end(), [t](const auto& r) { return takes_part(r, t); })) {
      tools.push_back(t);
    }
  }
  std::vector<std::string> header{"workload"};
  for (const auto t : tools) header.push_back(fmt::format("{} tx/s", tool_name(t)));
  header.emplace_back("ours/best");
  for (const auto t : tools) header.push_back(fmt::format("{} p50 / p90 / p99 µs", tool_name(t)));
  std::string out = markdown_row(header);
  out += markdown_row(std::vector<std::string>(header.size(), "---"));
  for (const auto& r : rows) {
    std::vector<std::string> cells{row_label(r.c)};
    for (const auto t : tools) cells.push_back(rate_cell(r, t, repetitions));
    cells.push_back(ratio_cell(r, min_ratio));
    for (const auto t : tools) cells.push_back(latency_cell(r, t));
    out += markdown_row(cells);
  }
  out += fmt::format(
      "\ntx/s: median of {} runs (min–max). Latency: round trip in µs, the median over the runs of "
      "each run's p50 / p90 / p99 (netperf's percentiles are whole µs). sockperf runs ping-pong "
      "with --full-rtt at 14 B, its smallest message, so its rows are ours at 14,14.\n",
      repetitions);
  return out;
}

std::string target_line(const std::vector<row_result>& rows, double min_ratio) {
  std::string out = fmt::format(
      "target: ours within {:.0f} % of the best of them, or ahead (ours/best >= {:.2f}):",
      std::round((1 - min_ratio) * 100), min_ratio);
  const char* sep = " ";
  for (const auto& r : rows) {
    const auto v = evaluate(r, min_ratio);
    out += fmt::format("{}{} {}", sep, row_label(r.c),
                       !v.ratio ? std::string("n/a")
                       : v.pass ? fmt::format("PASS ({:.2f}x)", *v.ratio)
                                : fmt::format("MISS ({:.2f}x)", *v.ratio));
    sep = ", ";
  }
  return out + "\n";
}

}  // namespace hil::rr_bench_tool
