#include "hil/report/workload_report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace hil::report {
namespace {

double tenth(double v) { return std::round(v * 10) / 10; }

}  // namespace

nlohmann::json latency_json(const measure::latency_summary& s) {
  return {{"count", s.count},         {"min", tenth(s.min_us)}, {"mean", tenth(s.mean_us)},
          {"p50", tenth(s.p50_us)},   {"p90", tenth(s.p90_us)}, {"p99", tenth(s.p99_us)},
          {"p999", tenth(s.p999_us)}, {"max", tenth(s.max_us)}};
}

nlohmann::json to_json(const measure::rr_result& r) {
  nlohmann::json j{{"workload", measure::workload_name(r.spec.kind)},
                   {"request_size", r.spec.request_size},
                   {"response_size", r.spec.response_size},
                   {"seconds", r.seconds},
                   {"transactions", r.transactions},
                   {"transactions_per_second", r.transactions_per_second()},
                   {"lost", r.lost},
                   {"peer_transactions", r.peer_transactions},
                   {"latency_us", latency_json(r.latency.summarize())},
                   {"local_cpu", r.local_cpu.total},
                   {"remote_cpu", r.remote_cpu.total}};
  if (r.spec.load_streams > 0) {
    j["load_streams"] = r.spec.load_streams;
    j["load_up_mbps"] = tenth(r.load_up_bps / 1e6);
    j["load_down_mbps"] = tenth(r.load_down_bps / 1e6);
  }
  return j;
}

std::string format_rr_summary(const measure::rr_result& r) {
  const auto s = r.latency.summarize();
  std::string out = fmt::format(
      "{} {} B/{} B, {:.2f} s: {} transactions, {:.1f} per second, {} lost\n"
      "round trip us: min {:.1f}  mean {:.1f}  p50 {:.1f}  p90 {:.1f}  p99 {:.1f}  p99.9 {:.1f}  "
      "max {:.1f}\n",
      measure::workload_name(r.spec.kind), r.spec.request_size, r.spec.response_size, r.seconds,
      r.transactions, r.transactions_per_second(), r.lost, s.min_us, s.mean_us, s.p50_us, s.p90_us,
      s.p99_us, s.p999_us, s.max_us);
  if (r.spec.load_streams > 0) {
    out += fmt::format(
        "load while measuring ({} streams each way): {:.1f} Mbit/s up, {:.1f} "
        "Mbit/s down\n",
        r.spec.load_streams, r.load_up_bps / 1e6, r.load_down_bps / 1e6);
  }
  return out;
}

}  // namespace hil::report
