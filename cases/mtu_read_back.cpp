// Seed 000 §4.5.9.2, "Configuration Check": `ip link set eth0 mtu <M>` succeeds and the read-back
// value equals M, for each tier of the profile; the original MTU is restored afterwards (by the
// fixture's LinkGuard, verified in TearDown). The jumbo tier runs only when the profile enables it.
#include <algorithm>
#include <vector>

#include "fixtures/case_names.hpp"
#include "fixtures/link_fixture.hpp"
#include "hil/measure/link_checks.hpp"

namespace {

using hil::fixtures::guarded_link_test;

struct mtu_tier {
  int mtu = 0;
  bool jumbo = false;  // the optional tier: skipped unless mtu.jumbo_enabled
};

// gtest prints the parameter in listings and failure messages; bytes would be noise.
void PrintTo(const mtu_tier& tier, std::ostream* os) {
  *os << "mtu " << tier.mtu << (tier.jumbo ? " (jumbo)" : "");
}

// The profile's tiers plus the jumbo tier; read while gtest registers the cases.
std::vector<mtu_tier> tiers() {
  const auto& p = hil::fixtures::suite_profile();
  std::vector<mtu_tier> out;
  for (int m : p.mtu.tiers) out.push_back({m, false});
  if (std::ranges::find(p.mtu.tiers, p.mtu.jumbo) == p.mtu.tiers.end()) {
    out.push_back({p.mtu.jumbo, true});  // a jumbo value listed as a tier already runs as one
  }
  return out;
}

class MtuReadBack : public guarded_link_test, public ::testing::WithParamInterface<mtu_tier> {};

TEST_P(MtuReadBack, SetAndReadBack) {
  const mtu_tier tier = GetParam();
  if (tier.jumbo && !ctx().profile.mtu.jumbo_enabled) {
    GTEST_SKIP() << "jumbo tier " << tier.mtu
                 << " is off: set mtu.jumbo_enabled = true only when the peer's NIC (and any "
                    "switch) accepts jumbo frames (seed 000: a standard PC NIC shows 100% loss)";
  }
  guard().set_mtu(tier.mtu);
  const int via_netlink = ctx().link.mtu(ifname());
  const int via_sysfs = ctx().link.sysfs().mtu(ifname());
  expect_verdict(hil::measure::check_mtu_read_back(ifname(), tier.mtu, via_netlink, via_sysfs));
}

INSTANTIATE_TEST_SUITE_P(MtuTier, MtuReadBack, ::testing::ValuesIn(tiers()),
                         [](const ::testing::TestParamInfo<mtu_tier>& tier_info) {
                           return hil::fixtures::mtu_case_name(tier_info.param.mtu);
                         });

}  // namespace
