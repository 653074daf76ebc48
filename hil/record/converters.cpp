#include "hil/record/converters.hpp"

#include <utility>

namespace hil::record {

verdict_record to_verdict_record(const measure::verdict& v) {
  return verdict_record{v.pass,           v.check,       v.observed, v.limit,      v.cause,
                        v.observed_value, v.limit_value, v.unit,     v.limit_bound};
}

counter_record to_counter_record(const link::counter_delta& d) {
  counter_record c;
  for (const auto& f : link::counter_fields) c.growth.emplace_back(f.name, d.growth.*f.member);
  c.reset_seen = d.reset_seen;
  c.errors = d.error_summary();
  return c;
}

cpu_record to_cpu_record(const measure::cpu_evidence& e) {
  cpu_record c;
  c.dut_percent = e.dut.total;
  c.dut_user_percent = e.dut.user;
  c.dut_system_percent = e.dut.system;
  c.peer_percent = e.peer.total;
  if (e.dut_data_thread) {
    c.dut_thread_on_cpu_percent = e.dut_data_thread->on_cpu_percent;
    c.dut_thread_waiting_percent = e.dut_data_thread->waiting_percent;
  }
  return c;
}

std::vector<attempt_record> to_attempt_records(std::span<const measure::attempt> attempts,
                                               std::span<const sys::bench_pressure> pressure) {
  std::vector<attempt_record> out;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& a = attempts[i];
    attempt_record r;
    r.number = a.number;
    r.pass = a.result.pass;
    r.observed = a.result.observed;
    r.cause = a.result.cause;
    r.cpu_pressure_percent = a.cpu_pressure_percent;
    r.other_cpu_percent = a.other_cpu_percent;
    r.disturbed = a.disturbed;
    r.bench = a.bench;
    if (i < pressure.size()) {
      const auto& p = pressure[i];
      r.pressure_source = p.source;
      r.window_seconds = p.window_seconds;
      r.others_cpu_seconds = p.others_cpu_seconds;
      r.bench_cpu_seconds = p.bench_cpu_seconds;
      for (const auto& b : p.busiest) {
        r.busiest.push_back({b.name, b.pid, b.kernel_thread, b.cpu_seconds});
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

udp_tier_figures to_udp_tier_figures(int mtu, int ip_version, std::uint32_t payload_bytes,
                                     const measure::stream_result& s) {
  return udp_tier_figures{mtu,
                          ip_version,
                          payload_bytes,
                          s.sender.packets,
                          s.receiver.packets,
                          measure::udp_datagrams_lost(s),
                          s.receiver.jitter_s * 1000};
}

}  // namespace hil::record
