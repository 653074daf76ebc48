// One case's typed record: what every consumer reads — the JSON line in the results file, the
// JUnit properties, the reports, the nightly history and its regressions. Cases fill it; nothing
// downstream guesses a record's kind from the keys it happens to have.
//
//   case_record
//   ├ head       case name, board, times
//   ├ verdict    pass, the texts (observed, limit, cause), the headline figure as numbers
//   │            (observed_value, limit_value, unit, bound → margin)
//   ├ figures    one struct per kind (std::variant): throughput, retransmits, udp_tier,
//   │            datagram_counts, netperf, latency_under_load, icmp_latency, link,
//   │            rfc2544_throughput, rfc2544_frame_loss, rfc2544_back_to_back,
//   │            rfc2544_latency, y1564;
//   │            std::monostate for a skipped case or one that failed before its verdict
//   ├ counters   the DUT interface's counter deltas over the case, when read
//   ├ cpu        each end's CPU over the case's traffic, when the case ran a traffic test
//   └ attempts   every measurement under the quiet-bench rule (docs/quiet-bench.md)
//
// A new kind is a header with its struct, one more alternative in `figures`, and its fields in
// figures_json.cpp; the compiler then lists every std::visit that must handle it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "hil/measure/rfc2544_search.hpp"
#include "hil/measure/verdict.hpp"
#include "hil/record/datagram_counts.hpp"
#include "hil/record/frame_sweeps.hpp"
#include "hil/record/frame_throughput.hpp"
#include "hil/record/latency_checks.hpp"
#include "hil/record/link.hpp"
#include "hil/record/netperf.hpp"
#include "hil/record/retransmits.hpp"
#include "hil/record/throughput.hpp"
#include "hil/record/udp_tier.hpp"
#include "hil/record/y1564.hpp"

namespace hil::record {

// The layout version written in every record's "schema". Files without it are schema 1, the
// untyped layout of earlier hilperf versions, still read (record_json.hpp).
inline constexpr int schema_version = 2;

using figures =
    std::variant<std::monostate, throughput_figures, retransmit_figures, udp_tier_figures,
                 datagram_count_figures, netperf_figures, latency_under_load_figures,
                 icmp_latency_figures, link_figures, frame_throughput_figures, frame_loss_figures,
                 back_to_back_figures, frame_latency_figures, y1564_figures>;

// The kind's name as records spell it: "throughput", …; "none" for std::monostate.
[[nodiscard]] std::string_view kind_name(const figures& f);

// The DUT interface's counters over the case (link::counter_delta, by field name).
struct counter_record {
  std::vector<std::pair<std::string, std::uint64_t>> growth;  // every field, in link's order
  bool reset_seen = false;  // a counter went backwards: the interface was reset meanwhile
  std::string errors;       // "rx_errors +3, rx_dropped +1"; empty when no error counter grew
};

// Each end's CPU over the case's traffic (measure::cpu_evidence as recorded), in percent: of one
// core for the processes (as iperf3's cpu_utilization_percent), of the test's wall time for the
// DUT's busiest data thread (docs/cpu-limit.md).
struct cpu_record {
  double dut_percent = 0;  // the DUT's process, user + system
  double dut_user_percent = 0;
  double dut_system_percent = 0;
  double peer_percent = 0;  // as the peer reported it; 0 from a peer that reports none
  std::optional<double> dut_thread_on_cpu_percent;   // the busiest data thread running,
  std::optional<double> dut_thread_waiting_percent;  // and runnable, waiting for a CPU
};

// Another process that used the CPU during an attempt.
struct busy_process {
  std::string name;  // comm, e.g. "cc1plus"
  int pid = 0;
  bool kernel_thread = false;
  double cpu_seconds = 0;
};

// One measurement of the case and the bench's load meanwhile (measure::attempt and
// sys::bench_pressure, as recorded).
struct attempt_record {
  int number = 1;
  bool pass = false;
  std::string observed;
  std::string cause;
  double cpu_pressure_percent = 0;
  double other_cpu_percent = 0;
  bool disturbed = false;
  std::string bench;            // the load in words
  std::string pressure_source;  // "psi" or "schedstat"; empty when not measured
  double window_seconds = 0;
  double others_cpu_seconds = 0;
  double bench_cpu_seconds = 0;
  std::vector<busy_process> busiest;
};

// The verdict as recorded: measure::verdict plus the margin to the limit.
struct verdict_record {
  bool pass = false;
  std::string check;                     // "UdpZeroLoss", "TcpTxRx DutTransmits", …
  std::string observed;                  // measured, in words with units
  std::string limit;                     // the criterion in words
  std::string cause;                     // the likely cause when failed
  std::optional<double> observed_value;  // the headline figure in unit
  std::optional<double> limit_value;
  std::string unit;
  measure::bound bound = measure::bound::none;  // which side of limit_value passes

  // How far the observed value is from the limit on the passing side (negative: beyond it);
  // absent without both numbers or a bound.
  [[nodiscard]] std::optional<double> margin() const;
};

struct case_record {
  int schema = schema_version;   // as read; records made here are always schema_version
  std::size_t line = 0;          // 1-based line in the file it was read from; 0 when made here
  std::string case_name;         // full gtest name, "MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500"
  std::string board;             // the farm board it ran on; empty outside a farm
  std::string time;              // ISO 8601 UTC, when recorded
  std::int64_t started_ms = 0;   // when the case began, ms since the epoch; 0 when unknown
  std::int64_t recorded_ms = 0;  // when its verdict was recorded
  bool skipped = false;          // the case did not apply; reason says why
  std::string reason;
  // A skipped case the bench could not measure: its sender's ceiling was below what the check
  // needs. Not coverage: summaries count it apart.
  std::optional<measure::tester_ceiling> not_measurable;
  verdict_record verdict;  // meaningless when skipped
  figures measured;        // the kind's figures
  std::optional<counter_record> counters;
  std::optional<cpu_record> cpu;
  std::vector<attempt_record> attempts;  // empty: one attempt, not measured under the rule
  std::string attempts_summary;          // "passed on attempt 2; attempt 1 failed disturbed: …"

  // Measurements the verdict took (1 when attempts is empty).
  [[nodiscard]] int attempt_count() const;
  // The final attempt's CPU pressure and other processes' CPU; absent without attempts.
  [[nodiscard]] std::optional<double> cpu_pressure_percent() const;
  [[nodiscard]] std::optional<double> other_cpu_percent() const;
  // The kind's figures, or nullptr when the record has another kind.
  template <typename T>
  [[nodiscard]] const T* figures_as() const {
    return std::get_if<T>(&measured);
  }
};

}  // namespace hil::record
