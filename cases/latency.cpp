// Procedure 000 "latency, especially under high load" (docs/checks.md): TCP_RR round-trip
// percentiles on an idle link, then again while latency.load_streams TCP streams saturate it both
// ways (flent's RRUL); the loaded p99 must stay within latency.loaded_p99_ms.
#include <algorithm>

#include "fixtures/attempts.hpp"
#include "fixtures/workload_fixture.hpp"
#include "hil/measure/netperf_checks.hpp"

namespace {

using namespace std::chrono_literals;

class LatencyUnderLoad : public hil::fixtures::workload_test {};

TEST_F(LatencyUnderLoad, P99WithinLimit) {
  const auto& p = ctx().profile;
  hil::measure::rr_spec spec;
  spec.kind = hil::measure::workload::tcp_rr;
  spec.duration = std::chrono::seconds(p.durations().latency_seconds);
  // Under heavy bloat a round trip takes seconds: that must read as a latency verdict, not as a
  // peer that "stopped answering", so each transaction may take 10 x the limit (at least 5 s).
  spec.response_timeout =
      std::max(std::chrono::milliseconds(5'000),
               std::chrono::milliseconds(static_cast<std::int64_t>(p.latency.loaded_p99_ms * 10)));
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    spec.load_streams = 0;
    const auto idle = run_rr(spec);
    if (!idle) return std::nullopt;
    spec.load_streams = p.latency.load_streams;
    const auto loaded = run_rr(spec);
    if (!loaded) return std::nullopt;
    const auto idle_s = idle->latency.summarize();
    const auto loaded_s = loaded->latency.summarize();
    return hil::fixtures::case_outcome{
        hil::measure::check_loaded_latency(idle_s, loaded_s, loaded->load_up_bps,
                                           loaded->load_down_bps, p.latency.loaded_p99_ms),
        hil::record::latency_under_load_figures{
            hil::record::distribution_of(idle->latency),
            hil::record::distribution_of(loaded->latency), loaded->load_up_bps / 1e6,
            loaded->load_down_bps / 1e6, p.latency.load_streams},
        counters()};
  });
  if (!unsupported_reason().empty()) GTEST_SKIP() << unsupported_reason();
}

}  // namespace
