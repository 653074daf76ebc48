// Verdicts: the evaluate stage between a typed measurement and an assertion (docs/code-style.md
// rule 9). A verdict carries what was observed, the limit it was held against and, when it failed,
// the likely cause from the procedure's "Common Issues" (docs/checks.md), so each failure
// explains itself.
#pragma once

#include <optional>
#include <string>

namespace hil::measure {

// Which side of a verdict's limit_value passes.
enum class bound {
  none,      // no numeric limit (a composite check, or one judged in words)
  at_least,  // observed_value >= limit_value (goodput, transactions per second)
  at_most,   // observed_value <= limit_value (datagrams lost, retransmits, a p99)
};

// How far observed is from limit on the passing side of b (negative: beyond it); nullopt without
// both numbers or with bound::none. The one definition of a verdict's margin.
[[nodiscard]] std::optional<double> margin_of(std::optional<double> observed,
                                              std::optional<double> limit, bound b);

struct verdict {
  // Set by judge() for a check with a headline figure (limit_bound not none); by hand only for a
  // composite check, which has no figure.
  bool pass = false;
  std::string check;     // the documented check, e.g. "LinkSpeed"
  std::string observed;  // the measured value with its unit, e.g. "100 Mb/s"
  std::string limit;     // the criterion, e.g. "== 1000 Mb/s"
  std::string cause;     // the likely cause when failed; empty when passed
  // The headline figure and its limit as numbers in unit, where the check has one (goodput,
  // datagrams lost, a p99): what reports and trend charts compare. Absent for composite checks.
  std::optional<double> observed_value;
  std::optional<double> limit_value;
  std::string unit;                 // e.g. "Mbit/s", "datagrams", "ms"; empty with no figure
  bound limit_bound = bound::none;  // which side of limit_value passes

  // Decides a check with a headline figure, the one place its pass is derived: records figure
  // as observed_value and passes exactly when it was measured and lies within limit_value on
  // limit_bound's side (any measured figure when there is no limit_value). nullopt: the check
  // could not measure its figure (nothing was sent, no sample), so it fails without a figure.
  // Whatever the figure, pass == (margin() >= 0) wherever margin() has a value.
  void judge(std::optional<double> figure);

  // margin_of this verdict's figure, limit and bound.
  [[nodiscard]] std::optional<double> margin() const {
    return margin_of(observed_value, limit_value, limit_bound);
  }

  // One line for assertion messages and logs:
  // "LinkSpeed: measured 100 Mb/s, limit == 1000 Mb/s — likely cause: …"
  [[nodiscard]] std::string message() const;
};

}  // namespace hil::measure
