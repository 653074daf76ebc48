// The completeness check: gtest listings parsed into full case names, and the cases of the listing
// that left no record since the run began.
#include "hil/report/completeness.hpp"

#include <gtest/gtest.h>

namespace {

using hil::report::missing_cases;
using hil::report::parse_gtest_listing;

TEST(CompletenessListing, SuitesTestsParametersAndTwoListingsConcatenated) {
  const auto names = parse_gtest_listing(
      "hilperf: profile ci/boards/sim.toml\n"
      "Link.\n  LinkState\n  LinkSpeed\n"
      "MtuTier/MtuReadBack.\n  SetAndReadBack/mtu576  # GetParam() = mtu 576\n"
      "DatagramCounts.\n  NearIdealAndFallingAcrossTiers\n"
      "Workload/NetperfSuite.\n  Iterations/TCP_RR  # GetParam() = TCP_RR\n");
  EXPECT_EQ(names, (std::vector<std::string>{"Link.LinkState", "Link.LinkSpeed",
                                             "MtuTier/MtuReadBack.SetAndReadBack/mtu576",
                                             "DatagramCounts.NearIdealAndFallingAcrossTiers",
                                             "Workload/NetperfSuite.Iterations/TCP_RR"}));
  EXPECT_TRUE(parse_gtest_listing("").empty());
  EXPECT_TRUE(parse_gtest_listing("hilperf: cannot load the profile\n  indented noise\n").empty());
}

hil::record::case_record rec(const std::string& name, std::int64_t at) {
  hil::record::case_record r;
  r.case_name = name;
  r.recorded_ms = at;
  return r;
}

TEST(CompletenessMissing, OnlyRecordsOfThisRunCount) {
  const std::vector<std::string> expected{"Link.LinkState", "Link.LinkSpeed", "Link.Duplex"};
  const std::vector<hil::record::case_record> records{
      rec("Link.LinkState", 2000), rec("Link.LinkSpeed", 500) /* an earlier run's */,
      rec("Other.Case", 2100)};
  EXPECT_EQ(missing_cases(expected, records, 1000),
            (std::vector<std::string>{"Link.LinkSpeed", "Link.Duplex"}));
  EXPECT_EQ(missing_cases(expected, records, 0), (std::vector<std::string>{"Link.Duplex"}));
}

}  // namespace
