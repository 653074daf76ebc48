// The firmware rows' verdicts (measure/firmware_checks.hpp): the count against the minimum, the
// cause by side, and the firmware's printed figure named only beyond the tolerance.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/measure/firmware_checks.hpp"

namespace {

using hil::measure::firmware_row;
using ::testing::HasSubstr;

firmware_row udp_tx(double counted) {
  return {true, true, 30, counted, "hilperf's iPerf 2 server", 29.0};
}

TEST(FirmwareRow, ACountAtTheMinimumPasses) {
  const auto v = hil::measure::check_firmware_row(udp_tx(24.5), 24.5);
  EXPECT_TRUE(v.pass) << v.message();
  EXPECT_EQ(v.check, "FirmwareTxRx UdpTx");
  EXPECT_THAT(v.observed, HasSubstr("24.50 Mbit/s counted by hilperf's iPerf 2 server"));
}

TEST(FirmwareRow, AFirmwareSendingHalfItsRateFailsNamingTheDutsSendingSide) {
  const auto v = hil::measure::check_firmware_row(udp_tx(15.0), 24.5);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("the firmware sent 15.0 Mbit/s of the 30 asked"));
  EXPECT_THAT(v.cause, HasSubstr("the DUT's sending path"));
  EXPECT_THAT(v.message(), HasSubstr(">= 24.5 Mbit/s"));
}

TEST(FirmwareRow, AReceivingRowBelowItsMinimumNamesTheReceivingSide) {
  const firmware_row r{false, false, 0, 10.0, "hilperf's iPerf 2 client", std::nullopt};
  const auto v = hil::measure::check_firmware_row(r, 22.0);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.check, "FirmwareTxRx TcpRx");
  EXPECT_THAT(v.cause, HasSubstr("the DUT's receiving path"));
}

TEST(FirmwareRow, NothingCountedFailsWithoutAFigure) {
  const firmware_row r{true, false, 30, std::nullopt, "the firmware's server report", 0.0};
  const auto v = hil::measure::check_firmware_row(r, 24.9);
  EXPECT_FALSE(v.pass);
  EXPECT_FALSE(v.observed_value);
  EXPECT_THAT(v.cause, HasSubstr("reported nothing back"));
}

TEST(FirmwareRow, TheFirmwaresFigureIsNamedOnlyBeyondTheTolerance) {
  EXPECT_FALSE(hil::measure::firmware_disagreement(udp_tx(30.0), 10.0));  // 29.0: -3.3 %
  auto far = udp_tx(30.0);
  far.firmware_mbps = 20.0;
  const auto words = hil::measure::firmware_disagreement(far, 10.0);
  ASSERT_TRUE(words);
  EXPECT_THAT(*words, HasSubstr("the firmware printed 20.0 Mbit/s, -33.3 %"));
  far.firmware_mbps.reset();
  EXPECT_FALSE(hil::measure::firmware_disagreement(far, 10.0)) << "not printed: nothing to name";
}

}  // namespace
