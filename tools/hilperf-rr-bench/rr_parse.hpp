// What one client run of each request/response tool printed, reduced to the same typed figures:
// transactions per second and round-trip latency percentiles in microseconds.
//
//   hilperf --workload … -J   JSON (hil/report/workload_report.hpp), round trip
//   sockperf ping-pong         text with ANSI colours; round trip only with --full-rtt;
//                              rate = ReceivedMessages / RunTime of the [Valid Duration] line
//   netperf -P 0 -- -o …       one CSV line THROUGHPUT,MEAN,P50,P90,P99,MAX (integer µs), round
//   trip
//
// Pure functions over text, benchmark-only (tools/hilperf-rr-bench). Each throws
// std::runtime_error saying what was missing when the text is not a complete result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hil::rr_bench_tool {

// One client run's figures.
struct rr_sample {
  double transactions_per_second = 0;
  double p50_us = 0;  // round trip
  double p90_us = 0;
  double p99_us = 0;
  std::uint64_t lost = 0;  // unanswered requests (UDP), as far as the tool counts them
};

// text without ANSI colour sequences (ESC [ … m).
[[nodiscard]] std::string strip_ansi(std::string_view text);

// hilperf --workload -J output (the JSON object may be surrounded by other lines).
[[nodiscard]] rr_sample parse_hilperf_json(std::string_view output);

// sockperf ping-pong --full-rtt output, colours and all.
[[nodiscard]] rr_sample parse_sockperf(std::string_view output);

// netperf -P 0 output with -o THROUGHPUT,MEAN_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,
// MAX_LATENCY: its last non-empty line.
[[nodiscard]] rr_sample parse_netperf(std::string_view output);

// The first line of text that contains "version" ("sockperf, version 3.7-no.git", "Netperf
// version 2.7.1"), else its first non-empty line ("hilperf 0.1.0 (…)"), without colours and
// surrounding blanks; empty for blank text.
[[nodiscard]] std::string version_line(std::string_view text);

}  // namespace hil::rr_bench_tool
