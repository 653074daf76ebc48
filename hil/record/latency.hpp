// A latency distribution as a record carries it: the summary in microseconds (measure's
// latency_summary, units in the names) and its cumulative distribution for the CDF plots.
#pragma once

#include <utility>
#include <vector>

#include "hil/measure/latency_histogram.hpp"

namespace hil::record {

// (microseconds, fraction of samples at or below) in rising order; at most ~100 points.
using cdf_points = std::vector<std::pair<double, double>>;

struct latency_distribution {
  measure::latency_summary summary;  // count, min_us … max_us
  cdf_points cdf;                    // may be empty
};

// The distribution of h: its summary and a CDF of at most max_points points.
[[nodiscard]] latency_distribution distribution_of(const measure::latency_histogram& h,
                                                   std::size_t max_points = 100);

}  // namespace hil::record
