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

struct verdict {
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

  // One line for assertion messages and logs:
  // "LinkSpeed: measured 100 Mb/s, limit == 1000 Mb/s — likely cause: …"
  [[nodiscard]] std::string message() const;
};

}  // namespace hil::measure
