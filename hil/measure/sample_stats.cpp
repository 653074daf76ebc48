// Student-t critical values without a table: the two-sided tail of T with ν degrees of freedom is
//
//   P(|T| > t) = I_x(ν/2, 1/2),   x = ν / (ν + t²)
//
// (I the regularized incomplete beta function), which falls strictly as t grows, so the critical
// value is found by bisection on t. I is evaluated by its continued fraction (modified Lentz).
#include "hil/measure/sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace hil::measure {

namespace {

// The continued fraction for I_x(a, b) (Numerical Recipes' betacf); converges fast for
// x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;  // keeps the Lentz denominators away from 0
  constexpr double tolerance = 1e-15;
  constexpr int max_terms = 100'000;  // ~√a terms are needed; a = ν/2 can be large
  const auto guard = [](double v) { return std::abs(v) < tiny ? tiny : v; };
  double c = 1.0;
  double d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
  double h = d;
  for (int m = 1; m <= max_terms; ++m) {
    const double m2 = 2.0 * m;
    const double even = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
    d = 1.0 / guard(1.0 + even * d);
    c = guard(1.0 + even / c);
    h *= d * c;
    const double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
    d = 1.0 / guard(1.0 + odd * d);
    c = guard(1.0 + odd / c);
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1.0) < tolerance) break;
  }
  return h;
}

// I_x(a, b) with y = 1 − x passed separately, so that x close to 1 loses no precision.
double regularized_incomplete_beta(double a, double b, double x, double y) {
  if (x <= 0.0) return 0.0;
  if (y <= 0.0) return 1.0;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log(y);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, y) / b;  // I_x(a, b) = 1 − I_y(b, a)
}

// P(|T| > t) for T with dof degrees of freedom, t >= 0.
double two_sided_tail(double t, double dof) {
  const double t2 = t * t;
  return regularized_incomplete_beta(dof / 2.0, 0.5, dof / (dof + t2), t2 / (dof + t2));
}

void check_level(double confidence_level, const char* who) {
  if (!(confidence_level > 0.0 && confidence_level < 1.0)) {  // also rejects NaN
    throw std::invalid_argument(std::string(who) + ": confidence level " +
                                std::to_string(confidence_level) +
                                " is outside (0, 1); write 0.99 for 99 %");
  }
}

}  // namespace

double median(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("median of no value");
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double sample_stats::ci_width_percent() const {
  const double width = 2.0 * ci_half_width;
  if (mean == 0.0) return width == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return width / std::abs(mean) * 100.0;
}

bool sample_stats::confidence_met(double width_percent) const {
  return n >= 2 && ci_width_percent() <= width_percent;
}

double student_t_critical(double confidence_level, int dof) {
  check_level(confidence_level, "student_t_critical");
  if (dof < 1) {
    throw std::invalid_argument("student_t_critical: degrees of freedom must be >= 1, got " +
                                std::to_string(dof));
  }
  const double alpha = 1.0 - confidence_level;  // the two-sided tail to leave outside ±t
  const auto nu = static_cast<double>(dof);
  // Bracket: the tail is 1 at t = 0 and falls towards 0; double hi until it is below alpha.
  double lo = 0.0;
  double hi = 1.0;
  while (two_sided_tail(hi, nu) > alpha) {
    lo = hi;
    hi *= 2.0;
    if (!std::isfinite(hi)) return std::numeric_limits<double>::infinity();  // level ≈ 1
  }
  // Bisect to a relative 1e-13, far inside the promised 1e-6.
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = lo + (hi - lo) / 2.0;
    (two_sided_tail(mid, nu) > alpha ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2.0;
}

sample_stats summarize_samples(std::span<const double> values, double confidence_level) {
  check_level(confidence_level, "summarize_samples");
  if (values.empty()) throw std::invalid_argument("summarize_samples: no values to summarise");
  if (!std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); })) {
    throw std::invalid_argument("summarize_samples: a value is NaN or infinite");
  }
  sample_stats s;
  s.n = values.size();
  s.confidence_level = confidence_level;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  const auto count = static_cast<double>(s.n);
  double sum = 0.0;
  for (const double v : values) sum += v;
  s.mean = sum / count;
  if (s.n < 2) return s;
  // Two passes: squared deviations from the mean, not Σv² − n·mean² (which cancels badly).
  double squares = 0.0;
  for (const double v : values) squares += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(squares / (count - 1.0));
  const auto dof = std::min<std::size_t>(s.n - 1, std::numeric_limits<int>::max());
  const double t = student_t_critical(confidence_level, static_cast<int>(dof));
  s.ci_half_width = t * s.stddev / std::sqrt(count);
  return s;
}

}  // namespace hil::measure
