// Serialising request/response results (measure/workload.hpp): JSON for hilperf -J and the results
// records reports are built from, and netperf-like text lines for people.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "hil/measure/workload.hpp"

namespace hil::report {

// {"count":..,"min":..,"mean":..,"p50":..,"p90":..,"p99":..,"p999":..,"max":..} in µs, rounded
// to 0.1 µs.
nlohmann::json latency_json(const measure::latency_summary& s);

// Everything an RR run measured: workload, sizes, transactions, rate, lost, latency, load, CPU.
nlohmann::json to_json(const measure::rr_result& r);

// netperf's summary in a few lines:
//   TCP_RR 1 B/1 B, 10.00 s: 25311 transactions, 2531.1 per second, 0 lost
//   round trip us: min 28.1  mean 39.4  p50 37.0  p90 45.0  p99 80.0  p99.9 140.0  max 900.2
//   load while measuring: 452.1 Mbit/s up, 460.3 Mbit/s down          (only with load)
std::string format_rr_summary(const measure::rr_result& r);

}  // namespace hil::report
