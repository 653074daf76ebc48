// Procedure 000 §4.5.9.1: `iperf3 -c <PC> -i 1 -t <tcp_seconds>` each way; receiver-side goodput
// at least the profile's limit (procedure: transmit 940, receive 870 Mbit/s; docs/checks.md says
// why), intervals printed live; and "Retr does not grow significantly": retransmits per interval
// within the profile's limit.
#include "fixtures/attempts.hpp"
#include "fixtures/traffic_fixture.hpp"
#include "hil/measure/traffic_checks.hpp"

namespace {

enum class direction { dut_transmits, dut_receives };

void PrintTo(direction d, std::ostream* os) {
  *os << (d == direction::dut_transmits ? "DUT transmits" : "DUT receives");
}

hil::measure::test_spec tcp_spec(const hil::profile::profile& p, bool reverse) {
  hil::measure::test_spec s;
  s.duration = std::chrono::seconds(p.durations().tcp_seconds);
  s.interval = std::chrono::seconds(p.durations().interval_seconds);
  s.reverse = reverse;
  return s;
}

class TcpThroughput : public hil::fixtures::traffic_test,
                      public ::testing::WithParamInterface<direction> {};

TEST_P(TcpThroughput, MeetsLimit) {
  const bool transmits = GetParam() == direction::dut_transmits;
  const auto& p = ctx().profile;
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto r = run_traffic(tcp_spec(p, !transmits));
    if (!r) return std::nullopt;
    const double goodput = hil::measure::receiver_goodput_bps(*r, transmits);
    const double limit =
        transmits ? p.limits.tcp_dut_transmits_mbps : p.limits.tcp_dut_receives_mbps;
    hil::record::throughput_figures f;
    f.direction = transmits ? "dut_transmits" : "dut_receives";
    f.goodput_mbps = goodput / 1e6;
    f.interval_mbps = hil::measure::interval_mbps(*r);
    const auto cpu = hil::measure::cpu_evidence_of(*r);
    return outcome(hil::measure::check_tcp_throughput(transmits ? "DutTransmits" : "DutReceives",
                                                      goodput, limit, &cpu),
                   f);
  });
}

INSTANTIATE_TEST_SUITE_P(Direction, TcpThroughput,
                         ::testing::Values(direction::dut_transmits, direction::dut_receives),
                         [](const ::testing::TestParamInfo<direction>& d) {
                           return std::string(d.param == direction::dut_transmits ? "DutTransmits"
                                                                                  : "DutReceives");
                         });

class TcpRetransmits : public hil::fixtures::traffic_test {};

TEST_F(TcpRetransmits, WithinLimitPerInterval) {
  const auto& p = ctx().profile;
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto r = run_traffic(tcp_spec(p, false));
    if (!r) return std::nullopt;
    const auto per_interval = hil::measure::retransmits_per_interval(*r);
    return outcome(
        hil::measure::check_retransmits(per_interval, p.limits.tcp_retransmits_per_interval),
        hil::record::retransmit_figures{per_interval});
  });
}

}  // namespace
