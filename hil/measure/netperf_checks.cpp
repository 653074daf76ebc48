#include "hil/measure/netperf_checks.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hil::measure {
namespace {

std::string likely_cause(workload w) {
  switch (w) {
    case workload::tcp_stream:
    case workload::tcp_maerts:
      return "the link runs below its rate: speed/duplex negotiated lower, a rate limit on the "
             "path, or a CPU-bound board (a debug kernel halves it: procedure 003's \"MMU kernel "
             "with "
             "kernel debug option\" rows)";
    case workload::udp_stream:
      return "datagrams dropped before the peer: a CPU-bound sender or receiver, small socket "
             "buffers (net.core.rmem_max) or a rate limit on the path";
    default:
      return "each transaction takes too long: interrupt coalescing (ethtool -C), CPU frequency "
             "scaling, a debug kernel, or a busy peer";
  }
}

}  // namespace

const char* workload_unit(workload w) { return is_request_response(w) ? "trans/s" : "Mbit/s"; }

verdict check_netperf_average(workload w, std::span<const double> iterations,
                              const sample_stats& stats, double minimum) {
  verdict v;
  v.check = fmt::format("NetperfSuite {}", workload_name(w));
  const char* unit = workload_unit(w);
  v.observed = fmt::format(
      "average {:.1f} {} over {} iterations (±{:.1f} at {:.0f} %, {:.1f} % of "
      "the mean wide)",
      stats.mean, unit, stats.n, stats.ci_half_width, stats.confidence_level * 100,
      stats.ci_width_percent());
  v.limit = minimum > 0 ? fmt::format(">= {:.1f} {} average, every iteration > 0", minimum, unit)
                        : "every iteration > 0 (no minimum average set in the profile)";
  if (minimum > 0) v.limit_value = minimum;
  v.limit_bound = bound::at_least;
  v.unit = unit;
  const auto zero =
      std::find_if(iterations.begin(), iterations.end(), [](double x) { return !(x > 0); });
  if (iterations.empty() || zero != iterations.end()) {
    v.judge(std::nullopt);
    v.cause = iterations.empty()
                  ? std::string("no iteration ran")
                  : fmt::format(
                        "iteration {} measured nothing (procedure 003 records such a test as "
                        "\"failed\"): {}",
                        zero - iterations.begin() + 1, likely_cause(w));
    return v;
  }
  v.judge(stats.mean);
  if (!v.pass) v.cause = likely_cause(w);
  return v;
}

verdict check_loaded_latency(const latency_summary& idle, const latency_summary& loaded,
                             double load_up_bps, double load_down_bps, double limit_ms) {
  verdict v;
  v.check = "LatencyUnderLoad";
  v.observed = fmt::format(
      "TCP_RR p99 {:.2f} ms under load (idle p99 {:.3f} ms; load {:.1f} Mbit/s up, {:.1f} Mbit/s "
      "down)",
      loaded.p99_us / 1000, idle.p99_us / 1000, load_up_bps / 1e6, load_down_bps / 1e6);
  v.limit = fmt::format("p99 <= {:.2f} ms while the link is saturated both ways", limit_ms);
  v.limit_value = limit_ms;
  v.limit_bound = bound::at_most;
  v.unit = "ms";
  if (loaded.count == 0 || idle.count == 0) {
    v.judge(std::nullopt);
    v.cause = "no transaction completed";
    return v;
  }
  if (!(load_up_bps > 0) || !(load_down_bps > 0)) {
    v.judge(std::nullopt);
    v.cause = "the load did not run both ways, so the latency was not measured under load";
    return v;
  }
  v.judge(loaded.p99_us / 1000);
  if (!v.pass) {
    v.cause = fmt::format(
        "bufferbloat: {:.0f}x the idle p99 — deep transmit queues on the board or the peer "
        "(txqueuelen, the root qdisc, no BQL) or a switch buffer; try fq_codel or a shorter "
        "txqueuelen",
        loaded.p99_us / std::max(idle.p99_us, 1.0));
  }
  return v;
}

}  // namespace hil::measure
