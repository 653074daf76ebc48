// The results file of a hil run: one JSON object per case, one per line (written by
// fixtures/results.cpp). This is the only input reports are built from (docs/code-style.md rule 9).
//
//   {"case":"MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500","check":"UdpZeroLoss","pass":true,
//    "observed":"…","limit":"…","cause":"","figures":{…},"counters":{…},"time":"…"}
//
// Reading is tolerant of missing keys (a record without "figures" simply has none) and strict about
// syntax: a line that is not a JSON object is an error naming the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hil::report {

// One case's record; absent keys leave the defaults.
struct result_record {
  std::size_t line = 0;          // 1-based line in the results file
  std::string case_name;         // "case": full gtest name, "?" when absent
  std::string check;             // "check"
  bool pass = false;             // "pass"; a record without a verdict counts as failed
  std::string observed;          // "observed"
  std::string limit;             // "limit"
  std::string cause;             // "cause": the likely cause when failed, may be empty
  std::string time;              // "time": ISO 8601 UTC
  std::int64_t recorded_ms = 0;  // "recorded_ms": when the verdict was recorded, ms since the epoch
  std::string board;             // "board": the farm board the case ran on, empty outside a farm
  bool skipped = false;          // "skipped": the case did not apply; "reason" says why
  std::string reason;            // "reason": why it was skipped
  int attempts = 1;  // "attempt_count": measurements the verdict took (quiet-bench rule)
  std::string attempts_summary;  // "attempts_summary": "passed on attempt 2; attempt 1 …"
  std::optional<double> cpu_pressure_percent;         // "cpu_pressure_percent" of the final attempt
  nlohmann::json figures = nlohmann::json::object();  // "figures": measured numbers by name
  nlohmann::json counters;                            // "counters": DUT counter deltas, or null
};

// A results file that is not JSON lines; what() reads "<file>:<line>: <problem>".
class results_format_error : public std::runtime_error {
 public:
  // Builds the message from where the problem is and what it is.
  results_format_error(std::string_view source, std::size_t line, std::string_view problem);
  // The 1-based line the problem is on.
  [[nodiscard]] std::size_t line() const noexcept { return line_; }

 private:
  std::size_t line_;  // 1-based
};

// Records of every non-blank line of in, in order; source names the input in errors. Throws
// results_format_error on the first line that is not a JSON object.
[[nodiscard]] std::vector<result_record> parse_results(std::istream& in, std::string_view source);

// Records of the file at path. Throws std::system_error ("cannot read <path> (did the suite run?)")
// when it cannot be opened, results_format_error on a bad line.
[[nodiscard]] std::vector<result_record> read_results(const std::filesystem::path& path);

// The records of one farm board; all of them when board is empty.
[[nodiscard]] std::vector<result_record> of_board(std::vector<result_record> records,
                                                  std::string_view board);

// The verdict in one word for tables: "pass", "FAIL" or "skipped", with the attempts it took when
// more than one ("pass, attempt 2").
[[nodiscard]] std::string verdict_word(const result_record& r);

// What the measured column shows: the observed value, or why the case was skipped; with the
// attempts' history appended when the case needed more than one ("; passed on attempt 2; …").
[[nodiscard]] std::string measured_text(const result_record& r);

// Number of records whose check failed (skipped cases did not fail).
[[nodiscard]] std::size_t count_failed(const std::vector<result_record>& records);

}  // namespace hil::report
