// fuzz_results_file: a results file (hil-results.jsonl) as hilperf-report and the nightly history
// read it (hil/record/record_file.hpp parse_records, through record_json and legacy_record for
// schema 1; hil/report/history.hpp board_lines), and then everything hilperf-report makes of the
// records it read: the console, Markdown and DokuWiki tables, the HTML page with its charts, the
// run's headline metrics compared with a history of one earlier run, and the trends.
//
// Expected outcome: record::results_format_error naming the line and the problem. Findings: any
// other exception (the reports throw nothing for records that were read), a crash, a board's
// lines that do not read back as that board's records.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "hil/record/record_file.hpp"
#include "hil/report/history.hpp"
#include "hil/report/html_report.hpp"
#include "hil/report/report_model.hpp"
#include "hil/report/tables.hpp"

namespace {

namespace record = hil::record;
namespace report = hil::report;
using hil::fuzz::finding;

// The records in text; nullopt when a line is refused as the contract says.
std::optional<std::vector<record::case_record>> read(const std::string& text) {
  std::istringstream in(text);
  try {
    return record::parse_records(in, "fuzz.jsonl");
  } catch (const record::results_format_error&) {
    return std::nullopt;
  }
}

// What hilperf-report writes for records, every format, with the run as its own history.
void render(const std::vector<record::case_record>& records) {
  (void)record::count_failed(records);
  const auto model = report::build_model(records);
  (void)report::console_summary(records);
  (void)report::markdown_document("fuzz", records, model);
  (void)report::dokuwiki_document("fuzz", records, model);
  const auto metrics = report::run_metrics(records);
  const std::vector<report::history_run> history{{"20261130T020000Z", metrics}};
  (void)report::format_changes(report::compare_with_history(metrics, history, 5), 5);
  (void)report::render_html(records, model,
                            {"fuzz", "fuzz.jsonl", report::trends(history, metrics)});
  for (const auto& r : records) {
    (void)report::verdict_word(r);
    (void)report::measured_text(r);
  }
}

// The lines of one board, as store_run keeps them: they must read as that board's records.
void check_board(const std::string& text, const std::vector<record::case_record>& records,
                 const std::string& board) {
  std::istringstream in(text);
  std::string kept;
  try {
    kept = report::board_lines(in, "fuzz.jsonl", board);
  } catch (const record::results_format_error&) {
    finding("board_lines refused a file parse_records read");
  }
  const auto of_board = read(kept);
  if (!of_board) finding("a board's lines that no longer read");
  if (of_board->size() != record::of_board(records, board).size()) {
    finding("a board's lines that are not that board's records");
  }
}

}  // namespace

// One input: a results file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(hil::fuzz::as_text(data, size));
  const auto records = read(text);
  if (!records) {
    // store_run refuses such a file too, or keeps lines it can tell are a board's: no crash.
    std::istringstream in(text);
    try {
      (void)report::board_lines(in, "fuzz.jsonl", "hp1");
    } catch (const record::results_format_error&) {
    }
    return 0;
  }
  render(*records);
  // store_run filters only for a named board (an empty one keeps the file as it is).
  if (!records->empty() && !records->front().board.empty()) {
    check_board(text, *records, records->front().board);
  }
  return 0;
}
