// Evaluators for the netperf suite (procedure 003) and latency under load (procedure 000
// "latency, especially under high load"; docs/checks.md). Pure functions over typed statistics; a
// failed verdict names the measured value, the limit and the likely cause.
#pragma once

#include <span>

#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/sample_stats.hpp"
#include "hil/measure/verdict.hpp"
#include "hil/measure/workload.hpp"

namespace hil::measure {

// The unit a workload's figure is reported in: "Mbit/s" (streams) or "trans/s" (RR).
[[nodiscard]] const char* workload_unit(workload w);

// NetperfSuite: every iteration produced a figure (> 0), and when minimum > 0 the average is at
// least minimum. The confidence interval is reported in observed, never failed on (netperf only
// warns when -I is not met).
verdict check_netperf_average(workload w, std::span<const double> iterations,
                              const sample_stats& stats, double minimum);

// LatencyUnderLoad: the load ran both ways and the loaded TCP_RR p99 is within limit_ms; the idle
// p99 is reported next to it.
verdict check_loaded_latency(const latency_summary& idle, const latency_summary& loaded,
                             double load_up_bps, double load_down_bps, double limit_ms);

}  // namespace hil::measure
