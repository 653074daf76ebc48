// Statistics over repeated measurements (netperf's iterations, a benchmark's runs): the median,
// and the mean, sample standard deviation and a Student-t confidence interval, in the spirit of
// netperf's `-I 99,5` (99 % confidence that the true mean lies within ±2.5 % of the measured one,
// i.e. an interval 5 % of the mean wide).
// Pure code.
#pragma once

#include <cstddef>
#include <span>

namespace hil::measure {

struct sample_stats {
  std::size_t n = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 when n < 2
  double min = 0;
  double max = 0;
  double confidence_level = 0;  // e.g. 0.99
  double ci_half_width = 0;     // t(level, n-1) · stddev / sqrt(n); 0 when n < 2
  // Interval width as a percentage of the mean: 2 · half width / |mean| · 100 (0 when mean == 0
  // and the width is 0; infinity when mean == 0 and the width is not).
  [[nodiscard]] double ci_width_percent() const;
  // True when the interval is no wider than width_percent of the mean and n >= 2 (netperf's
  // "desired confidence achieved").
  [[nodiscard]] bool confidence_met(double width_percent) const;
};

// Summarises values at confidence_level (0 < level < 1). Throws std::invalid_argument for an empty
// span, a non-finite value, or a level outside (0, 1).
sample_stats summarize_samples(std::span<const double> values, double confidence_level);

// The median of values: the middle one after sorting, or the mean of the two middle ones for an
// even count. Throws std::invalid_argument for an empty span.
[[nodiscard]] double median(std::span<const double> values);

// The two-sided Student-t critical value: t such that P(|T| <= t) = confidence_level for T with
// dof degrees of freedom (dof >= 1), e.g. (0.95, 9) → 2.262, (0.99, 4) → 4.604. Accurate to 1e-6.
double student_t_critical(double confidence_level, int dof);

}  // namespace hil::measure
