// Environment variables a test must neither inherit nor leak: cleared_env records and unsets
// them on construction and puts every one back (or unsets it again) on destruction, so a CI job
// that sets HILPERF_PROFILE, or ctest running under a resource spec, does not change what a test
// sees, and a test's own settings do not reach the next one. Tests run on one thread.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hil::test {

class cleared_env {
 public:
  cleared_env(std::initializer_list<const char*> names) {
    for (const char* name : names) {
      const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
      saved_.emplace_back(name,
                          value != nullptr ? std::optional<std::string>(value) : std::nullopt);
      ::unsetenv(name);  // NOLINT(concurrency-mt-unsafe)
    }
  }
  ~cleared_env() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
      } else {
        ::unsetenv(name.c_str());  // NOLINT(concurrency-mt-unsafe)
      }
    }
  }
  cleared_env(const cleared_env&) = delete;
  cleared_env& operator=(const cleared_env&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;  // nullopt: was unset
};

}  // namespace hil::test
