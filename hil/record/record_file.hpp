// The results file of a hil run: one record per case, one JSON line each (record_json.hpp), in
// the order the cases recorded them. The one reader every consumer uses: hilperf-report's tables
// and HTML, the nightly history, the completeness check.
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hil/record/case_record.hpp"

namespace hil::record {

// A results file that cannot be read; what() reads "<file>:<line>: <problem>".
class results_format_error : public std::runtime_error {
 public:
  // Builds the message from where the problem is and what it is.
  results_format_error(std::string_view source, std::size_t line, std::string_view problem);
  // The 1-based line the problem is on.
  [[nodiscard]] std::size_t line() const noexcept { return line_; }

 private:
  std::size_t line_;  // 1-based
};

// Records of every non-blank line of in, in order, each with its line number; source names the
// input in errors. Throws results_format_error on the first line that is not a record (not JSON,
// not an object, a field of the wrong type, a schema this build does not read).
[[nodiscard]] std::vector<case_record> parse_records(std::istream& in, std::string_view source);

// Records of the file at path. Throws std::system_error ("cannot read <path> (did the suite run?)")
// when it cannot be opened, results_format_error on a bad line.
[[nodiscard]] std::vector<case_record> read_records(const std::filesystem::path& path);

// The records of one farm board; all of them when board is empty.
[[nodiscard]] std::vector<case_record> of_board(std::vector<case_record> records,
                                                std::string_view board);

// Number of records whose check failed (skipped cases did not fail).
[[nodiscard]] std::size_t count_failed(const std::vector<case_record>& records);

// Number of records skipped as not measurable on the bench (case_record::not_measurable).
[[nodiscard]] std::size_t count_not_measurable(const std::vector<case_record>& records);

// "<N> recorded checks, <F> failed", and when some were not measurable on the bench
// ", <K> not measurable on this bench (skipped: not coverage)".
[[nodiscard]] std::string tally_words(const std::vector<case_record>& records);

}  // namespace hil::record
