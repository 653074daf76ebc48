// Procedure 003's ICMP test (`ping -f`), paced (docs/checks.md): echo round trips through the DUT
// interface, every request answered, percentiles recorded. Needs the peer host, not its iperf3
// service, so it runs with the link checks.
#include <fmt/format.h>

#include "fixtures/attempts.hpp"
#include "fixtures/link_fixture.hpp"
#include "hil/measure/latency_histogram.hpp"
#include "hil/traffic/icmp_echo.hpp"

namespace {

using namespace std::chrono_literals;

class IcmpLatency : public hil::fixtures::guarded_link_test {};

TEST_F(IcmpLatency, NoLossAndPercentiles) {
  const auto& p = ctx().profile;
  constexpr int count = 500;
  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto r = hil::traffic::icmp_echo(p.peer.ipv4, p.dut.interface, count, 2ms, 1s);
    hil::measure::latency_histogram h;
    for (const auto rtt : r.rtts) h.record(rtt);
    const auto s = h.summarize();
    hil::measure::verdict v;
    v.check = "IcmpLatency";
    v.observed =
        fmt::format("{}/{} echo replies; round trip p50 {:.0f} us, p99 {:.0f} us, max {:.0f} us",
                    r.received, r.sent, s.p50_us, s.p99_us, s.max_us);
    v.limit = "every request answered";
    v.limit_value = 0;
    v.limit_bound = hil::measure::bound::at_most;
    v.unit = "echo requests unanswered";
    // Fewer requests sent than asked: the sender failed, no unanswered count was measured.
    v.judge(r.sent == count ? std::optional(static_cast<double>(r.sent - r.received))
                            : std::nullopt);
    if (!v.pass) {
      v.cause = r.received == 0 ? "the peer does not answer ping: wrong address or subnet, a "
                                  "firewall dropping ICMP, or the link is down"
                                : "echo replies lost: link errors (check the counters) or an "
                                  "overloaded peer";
    }
    return hil::fixtures::case_outcome{
        v, hil::record::icmp_latency_figures{r.sent, r.received, hil::record::distribution_of(h)},
        std::nullopt};
  });
}

}  // namespace
