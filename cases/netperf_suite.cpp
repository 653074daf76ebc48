// Procedure 003 (docs/checks.md): netperf's six tests — TCP_STREAM, UDP_STREAM, TCP_MAERTS,
// TCP_RR, TCP_CRR, UDP_RR — run.iterations times each for durations.*.netperf_seconds; every
// iteration, the average and a confidence interval (netperf -I 99,5) are recorded for the report's
// table, with an optional minimum average per test from [netperf]. With peer.server =
// "netserver" all six run against netperf's own netserver (peer.netserver_port), figures as
// netperf prints them. Otherwise the stream tests run over plain iperf3 (any iperf3 peer) and the
// request/response tests need hilperf-peer's extension, skipping, saying why, against a stock
// iperf3 or iperf 2.
#include <fmt/format.h>

#include <iostream>

#include "fixtures/attempts.hpp"
#include "fixtures/workload_fixture.hpp"
#include "hil/measure/netperf_checks.hpp"
#include "hil/measure/traffic_checks.hpp"

namespace hil::measure {
// gtest prints a failing case's parameter by its netperf name, not its bytes.
void PrintTo(workload w, std::ostream* os) { *os << workload_name(w); }
}  // namespace hil::measure

namespace {

using hil::measure::workload;

// One stream iteration as an iperf3 test: the figure is receiver-side goodput.
hil::measure::test_spec stream_spec(workload w, const hil::profile::profile& p) {
  hil::measure::test_spec s;
  s.duration = std::chrono::seconds(p.durations().netperf_seconds);
  s.interval = std::chrono::seconds(1);
  s.reverse = w == workload::tcp_maerts;
  if (w == workload::udp_stream) {
    // netperf UDP_STREAM sends as fast as it can; one unfragmented datagram per MTU-1500 frame.
    s.proto = hil::measure::protocol::udp;
    s.bitrate_given = true;
    s.bitrate_bps = 0;
    s.block_len = 1472;
  }
  return s;
}

double minimum_for(workload w, const hil::profile::netperf_config& n) {
  switch (w) {
    case workload::tcp_stream:
      return n.tcp_stream_mbps;
    case workload::tcp_maerts:
      return n.tcp_maerts_mbps;
    case workload::udp_stream:
      return n.udp_stream_mbps;
    case workload::tcp_rr:
      return n.tcp_rr_per_second;
    case workload::tcp_crr:
      return n.tcp_crr_per_second;
    case workload::udp_rr:
      return n.udp_rr_per_second;
  }
  return 0;
}

class NetperfSuite : public hil::fixtures::workload_test,
                     public ::testing::WithParamInterface<workload> {};

TEST_P(NetperfSuite, Iterations) {
  const workload w = GetParam();
  const auto& p = ctx().profile;
  const char* unit = hil::measure::workload_unit(w);
  if (w == workload::udp_stream && p.peer.server == hil::profile::peer_server::iperf2) {
    GTEST_SKIP() << "peer.server = \"iperf2\": UDP_STREAM sends unpaced at line rate, after which "
                    "Debian's iperf 2.1.8 UDP server dies (general protection fault; also with its "
                    "own iperf -c -u -b 2000M): run it against hilperf-peer, iperf3 or netserver";
  }
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    std::vector<double> values;
    std::vector<std::vector<double>> intervals;
    hil::measure::latency_histogram latency;
    for (int i = 1; i <= p.iterations; ++i) {
      double value = 0;
      if (p.peer.server == hil::profile::peer_server::netserver) {
        // netperf's own peer: the figure as netperf prints it (docs/netserver-protocol.md).
        const auto r = run_netserver(w, p);
        if (!r) return std::nullopt;
        if (hil::measure::is_request_response(w)) {
          value = r->transactions_per_second();
          latency.merge(r->latency);
        } else {
          value = r->throughput_mbps();
          intervals.emplace_back();  // netserver reports the whole test only
        }
      } else if (hil::measure::is_request_response(w)) {
        hil::measure::rr_spec spec;
        spec.kind = w;
        spec.request_size = static_cast<std::uint32_t>(p.netperf.request_size);
        spec.response_size = static_cast<std::uint32_t>(p.netperf.response_size);
        spec.duration = std::chrono::seconds(p.durations().netperf_seconds);
        const auto r = run_rr(spec);
        if (!r) return std::nullopt;
        value = r->transactions_per_second();
        latency.merge(r->latency);
      } else {
        const auto r = run_traffic(stream_spec(w, p));
        if (!r) return std::nullopt;
        value = hil::measure::receiver_goodput_bps(*r, w != workload::tcp_maerts) / 1e6;
        intervals.push_back(hil::measure::interval_mbps(*r));
      }
      values.push_back(value);
      std::cout << fmt::format("{} iteration {}/{}: {:.1f} {}\n", hil::measure::workload_name(w), i,
                               p.iterations, value, unit)
                << std::flush;
    }
    const auto stats = hil::measure::summarize_samples(values, p.netperf.confidence_level / 100.0);
    if (!stats.confidence_met(p.netperf.confidence_width_percent)) {
      // netperf's "!!! WARNING: Desired confidence was not achieved": reported, not failed.
      std::cout << fmt::format(
          "note: the {}% confidence interval is {:.1f}% of the mean wide (wanted {:.1f}%): more "
          "iterations (run.iterations) or longer ones (netperf_seconds) would narrow it\n",
          p.netperf.confidence_level, stats.ci_width_percent(), p.netperf.confidence_width_percent);
    }
    hil::record::netperf_figures figures;
    figures.test = hil::measure::workload_name(w);
    figures.unit = unit;
    figures.iterations = values;
    figures.average = stats.mean;
    figures.ci_half_width = stats.ci_half_width;
    figures.confidence_level_percent = p.netperf.confidence_level;
    figures.ci_width_percent = stats.ci_width_percent();
    figures.confidence_met = stats.confidence_met(p.netperf.confidence_width_percent);
    if (hil::measure::is_request_response(w)) {
      figures.latency = hil::record::distribution_of(latency);
    } else {
      figures.interval_mbps = std::move(intervals);
    }
    return hil::fixtures::case_outcome{
        hil::measure::check_netperf_average(w, values, stats, minimum_for(w, p.netperf)), figures,
        std::nullopt};
  });
  if (!unsupported_reason().empty()) GTEST_SKIP() << unsupported_reason();
}

INSTANTIATE_TEST_SUITE_P(Workload, NetperfSuite,
                         ::testing::Values(workload::tcp_stream, workload::udp_stream,
                                           workload::tcp_maerts, workload::tcp_rr,
                                           workload::tcp_crr, workload::udp_rr),
                         [](const ::testing::TestParamInfo<workload>& param_info) {
                           return std::string(hil::measure::workload_name(param_info.param));
                         });

}  // namespace
