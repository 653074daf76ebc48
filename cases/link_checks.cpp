// Procedure 000, "Test Criteria" (docs/checks.md): the link is up and has negotiated the expected
// speed at full duplex (`cat /sys/class/net/eth0/speed`). Read through netlink (state) and sysfs
// (speed, duplex).
#include "hil/measure/link_checks.hpp"
#include "fixtures/link_fixture.hpp"
#include "hil/traffic/icmp_echo.hpp"

namespace {

using hil::fixtures::dut_link_test;

class Link : public dut_link_test {};

TEST_F(Link, LinkState) {
  const auto info = ctx().link.info(ifname());
  expect_verdict(
      hil::measure::check_link_state(ifname(), info.admin_up, info.carrier, info.operstate));
}

TEST_F(Link, LinkSpeed) {
  expect_verdict(hil::measure::check_link_speed(ifname(), ctx().link.sysfs().speed_mbps(ifname()),
                                                ctx().profile.link.speed_mbps));
}

TEST_F(Link, Duplex) {
  const std::string expected =
      ctx().profile.link.duplex == hil::profile::duplex_mode::full ? "full" : "half";
  expect_verdict(
      hil::measure::check_duplex(ifname(), ctx().link.sysfs().duplex(ifname()), expected));
}

// Procedure 000, first step: `ping -I eth0 <peer>` answers.
TEST_F(Link, Connectivity) {
  const std::string& peer = ctx().profile.peer.ipv4;
  const auto r = hil::traffic::icmp_echo(peer, ifname(), 4, std::chrono::milliseconds(200),
                                         std::chrono::seconds(1));
  double avg_ms = 0;
  for (const auto rtt : r.rtts) avg_ms += static_cast<double>(rtt.count()) / 1000.0;
  if (!r.rtts.empty()) avg_ms /= static_cast<double>(r.rtts.size());
  expect_verdict(hil::measure::check_connectivity(ifname(), peer, r.sent, r.received, avg_ms));
}

}  // namespace
