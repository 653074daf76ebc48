#include "hil/measure/verdict.hpp"

#include <fmt/format.h>

namespace hil::measure {

std::optional<double> margin_of(std::optional<double> observed, std::optional<double> limit,
                                bound b) {
  if (!observed || !limit) return std::nullopt;
  switch (b) {
    case bound::at_least:
      return *observed - *limit;
    case bound::at_most:
      return *limit - *observed;
    case bound::none:
      break;
  }
  return std::nullopt;
}

void verdict::judge(std::optional<double> figure) {
  observed_value = figure;
  if (!figure) {
    pass = false;
    return;
  }
  // Compared, not subtracted: the difference of two finite doubles has the comparison's sign, so
  // margin() agrees, and a NaN fails both.
  switch (limit_bound) {
    case bound::at_least:
      pass = !limit_value || *figure >= *limit_value;
      return;
    case bound::at_most:
      pass = !limit_value || *figure <= *limit_value;
      return;
    case bound::none:
      break;
  }
  pass = true;
}

std::string verdict::message() const {
  std::string m = fmt::format("{} {}: measured {}, limit {}", check, pass ? "passed" : "FAILED",
                              observed, limit);
  if (!pass && !cause.empty()) m += " — likely cause: " + cause;
  return m;
}

}  // namespace hil::measure
