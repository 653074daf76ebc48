#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/measure/link_checks.hpp"

namespace {

using ::testing::HasSubstr;
using namespace hil::measure;

TEST(LinkSpeedVerdict, PassesOnTheExpectedSpeed) {
  const auto v = check_link_speed("eth0", 1000, 1000);
  EXPECT_TRUE(v.pass);
  EXPECT_EQ(v.observed, "1000 Mb/s");
  EXPECT_TRUE(v.cause.empty());
}

TEST(LinkSpeedVerdict, AWrongSpeedNamesBothValuesAndTheLikelyCause) {
  const auto v = check_link_speed("eth0", 100, 1000);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("measured 100 Mb/s"));
  EXPECT_THAT(v.message(), HasSubstr("== 1000 Mb/s"));
  EXPECT_THAT(v.message(), HasSubstr("did not negotiate 1000 Mb/s"));
}

TEST(LinkSpeedVerdict, AnUnexpectedlyHighSpeedPointsAtTheProfile) {
  const auto v = check_link_speed("eth0", 10000, 1000);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("measured 10000 Mb/s"));
  EXPECT_THAT(v.message(), HasSubstr("link.speed_mbps"));
}

TEST(LinkSpeedVerdict, AnUnknownSpeedFails) {
  const auto v = check_link_speed("eth0", std::nullopt, 1000);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.observed, HasSubstr("unknown"));
}

TEST(LinkStateVerdict, NeedsAdminUpCarrierAndOperstateUp) {
  EXPECT_TRUE(check_link_state("eth0", true, true, "up").pass);
  EXPECT_THAT(check_link_state("eth0", false, false, "down").message(),
              HasSubstr("administratively down"));
  EXPECT_THAT(check_link_state("eth0", true, false, "lowerlayerdown").message(),
              HasSubstr("no link partner"));
  EXPECT_THAT(check_link_state("eth0", true, true, "dormant").message(), HasSubstr("dmesg"));
}

TEST(DuplexVerdict, HalfDuplexFailsWithTheCause) {
  EXPECT_TRUE(check_duplex("eth0", "full", "full").pass);
  const auto v = check_duplex("eth0", "half", "full");
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("measured half"));
  EXPECT_THAT(v.message(), HasSubstr("duplex mismatch"));
}

TEST(MtuReadBackVerdict, BothPathsMustMatch) {
  EXPECT_TRUE(check_mtu_read_back("eth0", 3000, 3000, 3000).pass);
  const auto v = check_mtu_read_back("eth0", 3000, 3000, 1500);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("netlink 3000, sysfs 1500"));
  EXPECT_THAT(v.message(), HasSubstr("both == 3000"));
}

}  // namespace
