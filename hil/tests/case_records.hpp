// What a run of the case binaries left in its results file, for tests that assert on verdicts:
// they read the typed records (hil/record/record_file.hpp), never gtest's console text.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hil/record/record_file.hpp"

namespace hil::test {

// The cases whose records hold a failed (pass = false) or passed verdict, in record order;
// skipped cases are in neither.
[[nodiscard]] inline std::vector<std::string> cases_with_verdict(
    const std::filesystem::path& results, bool pass) {
  std::vector<std::string> names;
  for (const auto& r : record::read_records(results)) {
    if (!r.skipped && r.verdict.pass == pass) names.push_back(r.case_name);
  }
  return names;
}

[[nodiscard]] inline std::vector<std::string> failed_cases(const std::filesystem::path& results) {
  return cases_with_verdict(results, false);
}

[[nodiscard]] inline std::vector<std::string> passed_cases(const std::filesystem::path& results) {
  return cases_with_verdict(results, true);
}

// The record the case appended to results; fails the calling test when there is none.
[[nodiscard]] inline record::case_record record_of(const std::filesystem::path& results,
                                                   const std::string& name) {
  for (const auto& r : record::read_records(results)) {
    if (r.case_name == name) return r;
  }
  ADD_FAILURE() << name << " left no record in " << results;
  return {};
}

}  // namespace hil::test
