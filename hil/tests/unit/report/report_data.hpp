// The recorded results file the report tests run on, and a helper to parse inline JSON lines.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "hil/report/results_file.hpp"

namespace hil::report::test {

// data/hil-results.jsonl: every case kind the suite writes, one failing, text that needs escaping.
inline std::string recorded_results_path() {
  return std::string(HIL_REPORT_DATA_DIR) + "/hil-results.jsonl";
}

inline std::vector<record::case_record> recorded_results() {
  return record::read_records(recorded_results_path());
}

// Records from JSON lines given inline.
inline std::vector<record::case_record> records_of(const std::string& jsonl) {
  std::istringstream in(jsonl);
  return record::parse_records(in, "inline");
}

}  // namespace hil::report::test
