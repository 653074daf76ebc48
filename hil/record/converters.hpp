// The one room where the earlier stages' typed results become records: a verdict, the DUT's
// counter deltas, each end's CPU, the attempts under the quiet-bench rule and a UDP tier's
// figures. Fixtures and cases call these and fill nothing of a record field by field themselves.
//
//   measure::verdict         ─→ verdict_record   (to_verdict_record)
//   link::counter_delta      ─→ counter_record   (to_counter_record)
//   measure::cpu_evidence    ─→ cpu_record       (to_cpu_record)
//   measure::attempt + sys::bench_pressure ─→ attempt_record (to_attempt_records)
//   measure::stream_result   ─→ udp_tier_figures (to_udp_tier_figures)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hil/link/counters.hpp"
#include "hil/measure/attempts.hpp"
#include "hil/measure/results.hpp"
#include "hil/measure/traffic_checks.hpp"
#include "hil/measure/verdict.hpp"
#include "hil/record/case_record.hpp"
#include "hil/record/udp_tier.hpp"
#include "hil/sys/cpu_pressure.hpp"

namespace hil::record {

// The recorded form of v.
[[nodiscard]] verdict_record to_verdict_record(const measure::verdict& v);

// The recorded form of the DUT's counter deltas: every field by name in link's order.
[[nodiscard]] counter_record to_counter_record(const link::counter_delta& d);

// The recorded form of each end's CPU over a case's traffic.
[[nodiscard]] cpu_record to_cpu_record(const measure::cpu_evidence& e);

// The recorded form of a case's attempts; pressure[i] is the bench's load during attempts[i]
// (an attempt without one records none).
[[nodiscard]] std::vector<attempt_record> to_attempt_records(
    std::span<const measure::attempt> attempts, std::span<const sys::bench_pressure> pressure);

// A UDP tier's figures from its stream: the counts at both ends as exchanged, lost as
// measure::udp_datagrams_lost (the figure the UdpZeroLoss verdict holds), jitter in ms.
[[nodiscard]] udp_tier_figures to_udp_tier_figures(int mtu, int ip_version,
                                                   std::uint32_t payload_bytes,
                                                   const measure::stream_result& s);

}  // namespace hil::record
