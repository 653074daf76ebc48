// A record's headline figures: what the nightly history keeps per run and compares with the
// board's earlier runs. Each kind says which of its figures matter and which way is better, so the
// regression rule needs no knowledge of the kinds.
#pragma once

#include <string>
#include <vector>

#include "hil/record/case_record.hpp"

namespace hil::record {

struct headline_figure {
  std::string name;  // "Direction/TcpThroughput.MeetsLimit/DutTransmits goodput"
  std::string unit;  // "Mbit/s", "trans/s", "us"
  double value = 0;
  bool higher_is_better = true;
  bool judged = true;  // false: shown in the history table and the trend, never a regression
};

// throughput: "<case> goodput" (or "sum" with parallel streams, "out" and "in" both ways at
// once), higher is better; netperf: "NetperfSuite <test> average", higher; latency_under_load:
// "<case> loaded p99" in µs, lower. Other kinds, skipped and failed-before-verdict records: none.
[[nodiscard]] std::vector<headline_figure> headline_figures(const case_record& r);

}  // namespace hil::record
