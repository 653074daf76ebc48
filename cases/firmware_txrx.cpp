// Procedure 002's Tx/Rx table with the DUT behind its console (docs/console-duts.md): the
// firmware's iperf typed at its console — `iperf -c <PC> -u -b 50 -t 10`, `iperf -s -u -t 10`,
// `iperf -c <PC> -t 10`, `iperf -s -t 10` on the ST67W6X — and hilperf's own iPerf 2 end on the
// runner (the PC): its server counts what the firmware sends; its client sends what the firmware's
// server counts (UDP: the count comes back in iPerf 2's server report; TCP: what the DUT's stack
// acknowledged). The verdict rests on those counts; the firmware's printed figures are recorded
// beside them and a disagreement beyond firmware_iperf.report_tolerance_percent is named.
#include <fmt/format.h>

#include <future>
#include <iostream>
#include <optional>

#include "fixtures/attempts.hpp"
#include "fixtures/console_fixture.hpp"
#include "fixtures/suite.hpp"
#include "hil/firmware/firmware_run.hpp"
#include "hil/measure/firmware_checks.hpp"
#include "hil/measure/traffic_checks.hpp"
#include "hil/record/converters.hpp"
#include "hil/session/iperf2_client.hpp"
#include "hil/session/iperf2_server.hpp"
#include "hil/sys/cidr.hpp"

namespace {

using hil::measure::protocol;
constexpr std::uint32_t firmware_datagram = 1470;  // iPerf 2's and the firmwares' UDP payload

struct row_case {
  protocol proto = protocol::udp;
  bool dut_sends = true;
};

void PrintTo(const row_case& c, std::ostream* os) {
  *os << (c.proto == protocol::udp ? "UDP" : "TCP") << (c.dut_sends ? " Tx" : " Rx");
}

class FirmwareTxRx : public hil::fixtures::console_test,
                     public ::testing::WithParamInterface<row_case> {
 protected:
  [[nodiscard]] hil::firmware::iperf_request request() const {
    const auto& p = hil::fixtures::suite_profile();
    hil::firmware::iperf_request r;
    r.role = GetParam().dut_sends ? hil::firmware::iperf_role::client
                                  : hil::firmware::iperf_role::server;
    r.protocol = GetParam().proto == protocol::udp ? hil::firmware::iperf_protocol::udp
                                                   : hil::firmware::iperf_protocol::tcp;
    r.peer_address = p.peer.ipv4;
    r.port = static_cast<std::uint16_t>(p.firmware_iperf.port);
    if (r.protocol == hil::firmware::iperf_protocol::udp &&
        r.role == hil::firmware::iperf_role::client) {
      r.bitrate_bps = static_cast<std::uint64_t>(p.firmware_iperf.udp_rate_mbps) * 1'000'000;
    }
    r.duration = std::chrono::seconds(p.durations().txrx_seconds);
    return r;
  }

  // The DUT sends: hilperf's iPerf 2 server on the runner counts one test while the firmware runs.
  std::optional<hil::measure::test_result> count_what_it_sends(
      hil::firmware::firmware_report& out) {
    const auto& p = hil::fixtures::suite_profile();
    std::optional<hil::measure::test_result> result;
    hil::session::iperf2_server_options o;
    o.bind_address = p.peer.ipv4;
    o.port = static_cast<std::uint16_t>(p.firmware_iperf.port);
    o.one_off = true;
    o.on_result = [&](const hil::measure::test_result& r) { result = r; };
    hil::session::iperf2_server server(o);
    auto serving = std::async(std::launch::async, [&] { return server.run(); });
    {
      hil::firmware::firmware_run run(terminal(), dialect(), request(), limits());
      out = run.finish();
    }
    // The one-off server ends with the stream; a firmware whose stream never came leaves it
    // serving, stopped here.
    if (serving.wait_for(std::chrono::seconds(5)) != std::future_status::ready) server.stop();
    serving.wait();
    return result;
  }

  // The DUT receives: the firmware's server started, hilperf's iPerf 2 client sends to it.
  hil::measure::test_result send_what_it_counts(hil::firmware::firmware_report& out) {
    const auto& p = hil::fixtures::suite_profile();
    hil::firmware::firmware_run run(terminal(), dialect(), request(), limits());
    hil::session::client_options c;
    c.host = hil::sys::without_prefix(p.dut.ipv4);
    c.port = static_cast<std::uint16_t>(p.firmware_iperf.port);
    c.spec.proto = GetParam().proto;
    c.spec.duration = std::chrono::seconds(p.durations().txrx_seconds);
    if (GetParam().proto == protocol::udp) {
      c.spec.bitrate_bps = static_cast<std::uint64_t>(p.firmware_iperf.udp_rate_mbps) * 1'000'000;
      c.spec.bitrate_given = true;
      c.spec.block_len = firmware_datagram;
    }
    auto r = hil::session::run_iperf2_client(c);
    out = run.finish();
    return r;
  }
};

// The firmware's own figures as JUnit properties, and a disagreement beyond the tolerance named.
void record_firmware_figures(const hil::firmware::firmware_report& report,
                             const hil::measure::firmware_row& row, double tolerance) {
  if (report.mbit_per_second) {
    ::testing::Test::RecordProperty("firmware_mbps",
                                    fmt::format("{:.1f}", *report.mbit_per_second));
  }
  if (report.lost && report.total) {
    ::testing::Test::RecordProperty("firmware_lost_total",
                                    fmt::format("{}/{}", *report.lost, *report.total));
  }
  for (const auto& line : report.log_errors)
    std::cout << "hilperf: the firmware logged: " << line << '\n';
  if (const auto words = hil::measure::firmware_disagreement(row, tolerance)) {
    std::cout << "hilperf: " << *words << '\n';
    ::testing::Test::RecordProperty("firmware_disagreement", *words);
  }
}

TEST_P(FirmwareTxRx, Seed002) {
  const row_case c = GetParam();
  const auto& p = hil::fixtures::suite_profile();
  const auto& f = p.firmware_iperf;
  const bool udp = c.proto == protocol::udp;
  const double min = udp ? (c.dut_sends ? f.udp_tx_mbps : f.udp_rx_mbps)
                         : (c.dut_sends ? f.tcp_tx_mbps : f.tcp_rx_mbps);
  if (udp && !c.dut_sends && !hil::firmware::sends_udp_server_report(dialect())) {
    GTEST_SKIP() << "the " << dialect().name
                 << " firmware's UDP server sends no iPerf 2 server report: what it received is "
                    "known only from its own console, which hilperf records but never rests a "
                    "verdict on (docs/console-duts.md)";
  }
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    hil::firmware::firmware_report report;
    const auto r =
        c.dut_sends ? count_what_it_sends(report) : std::optional(send_what_it_counts(report));
    if (!report.errors.empty()) {
      ADD_FAILURE() << "the firmware's iperf failed: \"" << report.errors.front()
                    << "\" (the console log has the whole run)";
      return std::nullopt;
    }
    hil::measure::firmware_row row;
    row.udp = udp;
    row.dut_sends = c.dut_sends;
    row.asked_mbps = udp ? static_cast<double>(f.udp_rate_mbps) : 0;
    row.counted_by = c.dut_sends ? "hilperf's iPerf 2 server"
                     : udp       ? "the firmware's iPerf 2 server report"
                                 : "hilperf's iPerf 2 client (what the DUT's TCP acknowledged)";
    if (r && !r->streams.empty()) {
      row.counted_mbps = hil::measure::receiver_goodput_bps(*r, !c.dut_sends) / 1e6;
    }
    row.firmware_mbps = report.mbit_per_second;
    record_firmware_figures(report, row, f.report_tolerance_percent);
    auto v = hil::measure::check_firmware_row(row, min);
    hil::record::figures figures;
    if (udp && r && !r->streams.empty()) {
      figures = hil::record::to_udp_tier_figures(1500, 4, firmware_datagram, r->streams.at(0));
    } else {
      hil::record::throughput_figures t;
      t.direction = c.dut_sends ? "dut_transmits" : "dut_receives";
      t.dut_role = c.dut_sends ? "client" : "server";
      t.goodput_mbps = row.counted_mbps.value_or(0);
      figures = t;
    }
    return hil::fixtures::case_outcome{v, figures, std::nullopt};
  });
}

INSTANTIATE_TEST_SUITE_P(Rows, FirmwareTxRx,
                         ::testing::Values(row_case{protocol::udp, true},
                                           row_case{protocol::udp, false},
                                           row_case{protocol::tcp, true},
                                           row_case{protocol::tcp, false}),
                         [](const auto& row) {
                           return std::string(row.param.proto == protocol::udp ? "Udp" : "Tcp") +
                                  (row.param.dut_sends ? "Tx" : "Rx");
                         });

}  // namespace
