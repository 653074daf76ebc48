// Procedure 000 §4.5.9.2, "Configuration Check" (docs/checks.md): `ip link set eth0 mtu <M>`
// succeeds and the read-back value equals M, for each tier of the profile; the original MTU is
// restored afterwards (by the fixture's LinkGuard, verified in TearDown). The jumbo tier runs only
// when the profile enables it.
#include "fixtures/link_fixture.hpp"
#include "fixtures/mtu_tiers.hpp"
#include "hil/measure/link_checks.hpp"

namespace {

using hil::fixtures::mtu_tier;

class MtuReadBack : public hil::fixtures::guarded_link_test,
                    public ::testing::WithParamInterface<mtu_tier> {};

TEST_P(MtuReadBack, SetAndReadBack) {
  const mtu_tier tier = GetParam();
  if (hil::fixtures::skip_disabled_jumbo(tier)) return;
  guard().set_mtu(tier.mtu);
  const int via_netlink = ctx().link.mtu(ifname());
  const int via_sysfs = ctx().link.sysfs().mtu(ifname());
  expect_verdict(hil::measure::check_mtu_read_back(ifname(), tier.mtu, via_netlink, via_sysfs));
}

INSTANTIATE_TEST_SUITE_P(MtuTier, MtuReadBack, ::testing::ValuesIn(hil::fixtures::mtu_tiers()),
                         hil::fixtures::mtu_tier_name);

}  // namespace
