// Output of a nested gtest binary, made safe to print from a test: gtest_discover_tests gives
// every test SKIP_REGULAR_EXPRESSION "\[  SKIPPED \]", which CTest checks before the exit code,
// so a failure message quoting a nested "[  SKIPPED ]" line would report the failure as Skipped
// (docs/ctest-gtest-traps.md §5). The marker is rewritten to "[ skipped ]".
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "hil/sys/process.hpp"

namespace hil::test {

inline std::string neutral(std::string text) {
  const std::string marker = "[  SKIPPED ]";
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at)) {
    text.replace(at, marker.size(), "[ skipped ]");
  }
  return text;
}

// sys::run with the output neutralised.
inline sys::run_result run_neutral(const std::vector<std::string>& argv,
                                   std::chrono::milliseconds timeout) {
  auto r = sys::run(argv, timeout);
  r.output = neutral(std::move(r.output));
  return r;
}

}  // namespace hil::test
