// Seed 000, "Test Criteria": the link is up and has negotiated the expected speed at full duplex
// (`cat /sys/class/net/eth0/speed`). Read through netlink (state) and sysfs (speed, duplex).
#include "hil/measure/link_checks.hpp"
#include "fixtures/link_fixture.hpp"

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

}  // namespace
