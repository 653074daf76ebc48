// Nightly history and regressions: each run's results file kept in a directory, the headline
// metrics of a run (goodput, netperf averages, latency under load), and a comparison of a run with
// the median of the runs before it — direction-aware, so a throughput rise or a latency fall is an
// improvement, never a regression.
//
//   history/                      one results file per run, named by its UTC time, oldest first
//     20261130T020000Z.jsonl      (a copy of hil-results.jsonl)
//     20261201T020000Z.jsonl
//
// Pure except store_run/load_history, which touch only the history directory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "hil/record/headline.hpp"
#include "hil/report/results_file.hpp"

namespace hil::report {

// One headline figure of a run (hil/record/headline.hpp).
using metric_value = record::headline_figure;

// The headline metrics of a run's records: each record's headline figures (hil/record/headline.hpp:
// goodput, netperf averages, loaded p99, with the direction that is better). Plus "extra attempts":
// the measurements beyond the first that the run's cases took on a disturbed bench
// (docs/quiet-bench.md), so a board or runner that needs them shows up in the trend; informational,
// never a regression by itself.
[[nodiscard]] std::vector<metric_value> run_metrics(
    const std::vector<record::case_record>& records);

// One earlier run.
struct history_run {
  std::string id;  // the file's stem, e.g. "20261130T020000Z"
  std::vector<metric_value> metrics;
};

// Copies results into dir as <id>.jsonl (dir created when missing); with a board, only the lines
// of that farm board. Throws std::system_error, record::results_format_error for a line that is not
// JSON.
void store_run(const std::filesystem::path& dir, const std::string& id,
               const std::filesystem::path& results, std::string_view board = {});

// The lines of a results file (in; source names it in errors) whose record is of farm board board,
// each ending in '\n', blank lines left out: what store_run keeps of a shared file. Throws
// record::results_format_error for a line that is not a record (as record::parse_records).
[[nodiscard]] std::string board_lines(std::istream& in, std::string_view source,
                                      std::string_view board);

// The last `count` runs in dir (by name, oldest first). Throws record::results_format_error naming
// a bad file; a missing dir is an empty history.
[[nodiscard]] std::vector<history_run> load_history(const std::filesystem::path& dir,
                                                    std::size_t count);

// A metric of the current run against its baseline.
struct metric_change {
  metric_value current;
  double baseline = 0;        // median of the metric over the baseline runs that have it
  std::size_t runs = 0;       // how many baseline runs had it
  double change_percent = 0;  // (current - baseline) / baseline · 100
  bool regression = false;    // worse than the baseline by more than the tolerance
};

// Every current metric that at least one baseline run has, in the current run's order.
[[nodiscard]] std::vector<metric_change> compare_with_history(
    const std::vector<metric_value>& current, const std::vector<history_run>& baseline,
    double tolerance_percent);

// A Markdown-style table of the changes, regressions marked, for the console.
[[nodiscard]] std::string format_changes(const std::vector<metric_change>& changes,
                                         double tolerance_percent);

// One headline metric across the board's history, for the trend charts.
struct trend_series {
  std::string name;            // "Direction/TcpThroughput.MeetsLimit/DutTransmits goodput"
  std::string unit;            // "Mbit/s"
  std::vector<double> values;  // oldest run first; the last one is this run
};

// Each current metric's values over the runs that have it, then this run's.
[[nodiscard]] std::vector<trend_series> trends(const std::vector<history_run>& runs,
                                               const std::vector<metric_value>& current);

// A run id for now: UTC "YYYYMMDDTHHMMSSZ".
[[nodiscard]] std::string run_id_now();

}  // namespace hil::report
