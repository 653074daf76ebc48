#include "hil/measure/verdict.hpp"

#include <fmt/format.h>

namespace hil::measure {

std::string verdict::message() const {
  std::string m = fmt::format("{} {}: measured {}, limit {}", check, pass ? "passed" : "FAILED",
                              observed, limit);
  if (!pass && !cause.empty()) m += " — likely cause: " + cause;
  return m;
}

}  // namespace hil::measure
