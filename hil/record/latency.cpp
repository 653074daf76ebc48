#include "hil/record/latency.hpp"

namespace hil::record {

latency_distribution distribution_of(const measure::latency_histogram& h, std::size_t max_points) {
  return latency_distribution{h.summarize(), h.cdf(max_points)};
}

}  // namespace hil::record
