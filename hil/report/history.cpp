#include "hil/report/history.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <system_error>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hil/measure/sample_stats.hpp"
#include "hil/record/headline.hpp"
#include "hil/record/record_json.hpp"
#include "hil/sys/json_depth.hpp"

namespace hil::report {
namespace fs = std::filesystem;
std::vector<metric_value> run_metrics(const std::vector<record::case_record>& records) {
  std::vector<metric_value> out;
  double extra_attempts = 0;
  for (const auto& r : records) {
    extra_attempts += r.attempt_count() > 1 ? r.attempt_count() - 1 : 0;
    auto figures = record::headline_figures(r);
    out.insert(out.end(), std::make_move_iterator(figures.begin()),
               std::make_move_iterator(figures.end()));
  }
  if (!records.empty()) out.push_back({"extra attempts", "attempts", extra_attempts, false, false});
  return out;
}

void store_run(const fs::path& dir, const std::string& id, const fs::path& results,
               std::string_view board) {
  fs::create_directories(dir);
  const fs::path target = dir / (id + ".jsonl");
  if (board.empty()) {
    fs::copy_file(results, target, fs::copy_options::overwrite_existing);
    return;
  }
  std::ifstream in(results);
  const std::string kept = board_lines(in, results.string(), board);
  std::ofstream out(target, std::ios::trunc);
  out << kept;
  out.close();
  if (!out)
    throw std::system_error(errno, std::generic_category(), "cannot write " + target.string());
}

std::string board_lines(std::istream& in, std::string_view source, std::string_view board) {
  std::string kept;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (sys::json_too_deep(line)) {
      throw record::results_format_error(
          source, number, fmt::format("nests deeper than {} levels", sys::json_depth_limit));
    }
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) throw record::results_format_error(source, number, "not a JSON object");
    // The board as the record reader reads it (a schema 1 record's "board":true is "true"), not
    // j.value("board", ""), which threw nlohmann's type_error for a board that is no string
    // (found by fuzz/results_file.cpp) and could disagree with the reader that loads the history.
    record::case_record r;
    try {
      r = record::from_json(j);
    } catch (const record::record_error& e) {
      throw record::results_format_error(source, number, e.what());
    }
    if (r.board == board) kept += line + '\n';
  }
  return kept;
}

std::vector<history_run> load_history(const fs::path& dir, std::size_t count) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() > count) files.erase(files.begin(), files.end() - static_cast<long>(count));
  std::vector<history_run> runs;
  for (const auto& f : files)
    runs.push_back({f.stem().string(), run_metrics(record::read_records(f))});
  return runs;
}

std::vector<metric_change> compare_with_history(const std::vector<metric_value>& current,
                                                const std::vector<history_run>& baseline,
                                                double tolerance_percent) {
  std::vector<metric_change> out;
  for (const auto& m : current) {
    std::vector<double> earlier;
    for (const auto& run : baseline) {
      for (const auto& b : run.metrics) {
        if (b.name == m.name) earlier.push_back(b.value);
      }
    }
    if (earlier.empty()) continue;
    metric_change c{m, measure::median(earlier), earlier.size(), 0, false};
    if (c.baseline != 0) c.change_percent = (m.value - c.baseline) / std::fabs(c.baseline) * 100;
    const double worse = m.higher_is_better ? -c.change_percent : c.change_percent;
    c.regression = m.judged && worse > tolerance_percent;
    out.push_back(c);
  }
  return out;
}

std::string format_changes(const std::vector<metric_change>& changes, double tolerance_percent) {
  std::string out = fmt::format("| {:<64} | {:>12} | {:>12} | {:>8} | {:<10} |\n", "metric",
                                "baseline", "this run", "change", "verdict");
  out += fmt::format("|{:-<66}|{:->14}|{:->14}|{:->10}|{:-<12}|\n", "", "", "", "", "");
  for (const auto& c : changes) {
    std::string name = c.current.name + " (" + c.current.unit + ")";
    if (name.size() > 64) name = name.substr(0, 61) + "...";
    out += fmt::format("| {:<64} | {:>12.1f} | {:>12.1f} | {:>+7.1f}% | {:<10} |\n", name,
                       c.baseline, c.current.value, c.change_percent,
                       c.regression ? "REGRESSED" : (c.current.judged ? "ok" : "shown"));
  }
  out += fmt::format(
      "\nbaseline: median of the earlier runs; a regression is worse by more than "
      "{:.1f} % (higher is better except latency)\n",
      tolerance_percent);
  return out;
}

std::vector<trend_series> trends(const std::vector<history_run>& runs,
                                 const std::vector<metric_value>& current) {
  std::vector<trend_series> out;
  for (const auto& m : current) {
    trend_series t{m.name, m.unit, {}};
    for (const auto& run : runs) {
      for (const auto& b : run.metrics) {
        if (b.name == m.name) t.values.push_back(b.value);
      }
    }
    t.values.push_back(m.value);
    out.push_back(std::move(t));
  }
  return out;
}

std::string run_id_now() {
  return fmt::format("{:%Y%m%dT%H%M%SZ}", fmt::gmtime(std::time(nullptr)));
}

}  // namespace hil::report
