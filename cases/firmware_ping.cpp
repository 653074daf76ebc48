// Connectivity of a DUT behind its console, through the firmware's own ping (docs/console-duts.md
// "Connectivity"): procedure 000's first step (`ping` to the PC, four replies) typed at the
// firmware's CLI — `ping <PC> -c 4 -s 64` on the ST67W6X — where the dialect has a ping. Every
// request must be answered; the round trips the firmware printed are recorded.
#include <chrono>

#include "fixtures/attempts.hpp"
#include "fixtures/console_fixture.hpp"
#include "fixtures/suite.hpp"
#include "hil/firmware/ping.hpp"
#include "hil/measure/firmware_checks.hpp"
#include "hil/measure/latency_histogram.hpp"
#include "hil/record/latency_checks.hpp"

namespace {

class FirmwarePing : public hil::fixtures::console_test {};

TEST_F(FirmwarePing, Connectivity) {
  const auto& p = hil::fixtures::suite_profile();
  const auto* ping = hil::firmware::ping_of(dialect().name);
  if (ping == nullptr) {
    GTEST_SKIP() << "hilperf knows no ping command of the " << dialect().name
                 << " firmware: its connectivity shows in the Tx/Rx rows' traffic "
                    "(docs/console-duts.md \"Connectivity\")";
  }
  hil::firmware::ping_request request;
  request.peer_address = p.peer.ipv4;
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto report = hil::firmware::run_ping(terminal(), dialect(), *ping, request, limits());
    hil::measure::firmware_ping seen;
    seen.peer = request.peer_address;
    seen.asked = request.count;
    seen.replies = static_cast<unsigned>(report.rtt_ms.size());
    seen.errors = report.errors;
    hil::measure::latency_histogram h;
    for (const double ms : report.rtt_ms) {
      h.record(std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::duration<double, std::milli>(ms)));
    }
    if (!report.rtt_ms.empty()) seen.avg_rtt_ms = h.mean_us() / 1000.0;
    return hil::fixtures::case_outcome{
        hil::measure::check_firmware_ping(seen),
        hil::record::icmp_latency_figures{request.count, seen.replies,
                                          hil::record::distribution_of(h)},
        std::nullopt};
  });
}

}  // namespace
