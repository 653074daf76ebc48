// Attempts, never silent retries (docs/quiet-bench.md): a case measures; when its verdict fails
// while the bench was disturbed (CPU pressure, or other processes' CPU use, above the profile's
// quiet limits) it measures again,
// up to max_attempts. A failure on a quiet bench is final at once. Every attempt is kept, and the
// final verdict says what happened:
//
//   attempt 1 ── pass ─────────────────────────────► pass
//      │ fail, quiet ──────────────────────────────► fail (the check's own cause)
//      │ fail, disturbed, attempts left ─► attempt 2 … (same rules)
//      └ fail, disturbed, none left ──────────────► fail: "the bench was busy during every attempt"
//                                                    (only when every attempt was disturbed)
#pragma once

#include <string>
#include <vector>

#include "hil/measure/verdict.hpp"

namespace hil::measure {

// One measurement of a case and the bench's state meanwhile.
struct attempt {
  int number = 1;                   // 1-based
  verdict result;                   // the check's verdict on this attempt
  double cpu_pressure_percent = 0;  // PSI "some" over the attempt's window
  double other_cpu_percent = 0;     // other user-space processes' CPU, % of one core
  bool disturbed = false;           // either figure above its quiet limit
  std::string bench;  // the bench's load in words ("31.0 % CPU pressure …; busiest …")
};

// Whether a window was disturbed: pressure or the other processes' CPU above its limit.
bool is_disturbed(double cpu_pressure_percent, double other_cpu_percent,
                  double pressure_limit_percent, double other_cpu_limit_percent);

// The retry rule: the last attempt failed on a disturbed bench and attempts are left.
bool measure_again(const std::vector<attempt>& so_far, int max_attempts);

// The verdict of a case from all its attempts (non-empty): the last attempt's, with cause and
// observed value adjusted when every attempt failed disturbed; "passed on attempt 2; attempt 1
// disturbed: …" history goes to summary().
verdict final_verdict(const std::vector<attempt>& attempts);

// One line for logs, records and reports: "1 attempt, quiet (0.4 % CPU pressure)" or
// "passed on attempt 2; attempt 1 disturbed: 31.0 % CPU pressure …".
std::string attempts_summary(const std::vector<attempt>& attempts);

}  // namespace hil::measure
