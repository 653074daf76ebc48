#include "hil/report/results_file.hpp"

#include <fmt/format.h>

namespace hil::report {

std::string verdict_word(const record::case_record& r) {
  if (r.skipped) return r.not_measurable ? "not measurable" : "skipped";
  std::string word = r.verdict.pass ? "pass" : "FAIL";
  if (r.attempt_count() > 1) word += fmt::format(", attempt {}", r.attempt_count());
  return word;
}

std::string measured_text(const record::case_record& r) {
  if (r.skipped) return r.reason;
  if (r.attempt_count() > 1 && !r.attempts_summary.empty()) {
    return r.verdict.observed + " (" + r.attempts_summary + ")";
  }
  return r.verdict.observed;
}

}  // namespace hil::report
