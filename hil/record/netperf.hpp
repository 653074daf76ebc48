// Kind "netperf": the iterations of one netperf test (NetperfSuite), their average and
// confidence interval as netperf -I computes it, and per test kind either the request/response
// latency or each stream iteration's throughput per interval.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hil/record/latency.hpp"

namespace hil::record {

struct netperf_figures {
  std::string test;                // "TCP_STREAM", "TCP_RR", … (measure::workload_name)
  std::string unit;                // "Mbit/s" (stream tests) or "trans/s" (request/response)
  std::vector<double> iterations;  // one value per iteration, in run order, in unit
  // The mean, the ± of its confidence interval (in unit) and the interval's level. Always set by
  // the suite; absent from records of earlier versions that did not record them.
  std::optional<double> average;
  std::optional<double> ci_half_width;
  std::optional<double> confidence_level_percent;
  double ci_width_percent = 0;  // the interval's width as % of the mean
  bool confidence_met = false;  // the width within the profile's confidence_width_percent
  std::optional<latency_distribution> latency;  // request/response tests
  // Stream tests: each iteration's throughput per interval (JSON "iteration_interval_mbps").
  std::vector<std::vector<double>> interval_mbps;
};

}  // namespace hil::record
