// Output of a nested gtest binary, made safe to print from a test: gtest_discover_tests gives
// every test SKIP_REGULAR_EXPRESSION "\[  SKIPPED \]", which CTest checks before the exit code,
// so a failure message quoting a nested "[  SKIPPED ]" line would report the failure as Skipped
// (docs/ctest-gtest-traps.md §5). The marker is rewritten to "[ skipped ]".
#pragma once

#include <chrono>
#include <string>
#include <system_error>
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

// sys::run with the output neutralised, also the output quoted by its timeout's exception (a
// test that lets it escape is reported by gtest with that text).
inline sys::run_result run_neutral(const std::vector<std::string>& argv,
                                   std::chrono::milliseconds timeout) {
  sys::run_result r;
  try {
    r = sys::run(argv, timeout);
  } catch (const std::system_error& e) {
    std::string what = neutral(e.what());
    const std::string suffix = ": " + e.code().message();  // system_error appends it again
    if (what.ends_with(suffix)) what.resize(what.size() - suffix.size());
    throw std::system_error(e.code(), what);
  }
  r.output = neutral(std::move(r.output));
  return r;
}

}  // namespace hil::test
