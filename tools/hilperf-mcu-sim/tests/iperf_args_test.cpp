// The simulated firmware's reading of `iperf …` (iperf_args.hpp): procedure 002's four commands,
// -b read like atoi, the refusals the firmware prints, and the stock iPerf 2 command that plays
// each run.
#include "iperf_args.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

namespace hil::mcu_sim {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

iperf_args accepted(const std::string& arguments) {
  const auto c = parse_iperf(arguments);
  EXPECT_TRUE(std::holds_alternative<iperf_args>(c)) << arguments;
  return std::holds_alternative<iperf_args>(c) ? std::get<iperf_args>(c) : iperf_args{};
}

std::vector<std::string> refused(const std::string& arguments) {
  const auto c = parse_iperf(arguments);
  EXPECT_TRUE(std::holds_alternative<iperf_refusal>(c)) << arguments;
  return std::holds_alternative<iperf_refusal>(c) ? std::get<iperf_refusal>(c).lines
                                                  : std::vector<std::string>{};
}

TEST(McuSimIperfArgs, TheProceduresFourCommands) {
  auto a = accepted(" -c 192.168.8.1 -u -b 50M -t 10");
  EXPECT_EQ(a.role, run_role::client);
  EXPECT_EQ(a.protocol, run_protocol::udp);
  EXPECT_EQ(a.peer, "192.168.8.1");
  EXPECT_EQ(a.mbit, 50) << "atoi: the suffix is ignored";
  EXPECT_EQ(a.seconds, 10);
  a = accepted("-s -u -t 10");
  EXPECT_EQ(a.role, run_role::server);
  EXPECT_EQ(a.protocol, run_protocol::udp);
  a = accepted("-c 192.168.8.1 -t 10");
  EXPECT_EQ(a.protocol, run_protocol::tcp);
  a = accepted("-s -t 10 -p 5002");
  EXPECT_EQ(a.role, run_role::server);
  EXPECT_EQ(a.port, 5002);
}

TEST(McuSimIperfArgs, DefaultsAreTheFirmwares) {
  const auto a = accepted("-c 10.0.0.1 -u");
  EXPECT_EQ(a.mbit, 1) << "UDP at 1 Mbit/s without -b";
  EXPECT_EQ(a.seconds, 10);
  EXPECT_EQ(a.port, 5001);
  EXPECT_EQ(a.length, 1470);
  EXPECT_EQ(accepted("-c 10.0.0.1 -u -b 27.5").mbit, 27) << "whole Mbit/s only";
  EXPECT_EQ(accepted("-c 10.0.0.1 -u -b x").mbit, 0);
}

TEST(McuSimIperfArgs, AbortAndTheRefusals) {
  EXPECT_TRUE(std::holds_alternative<iperf_abort>(parse_iperf(" -a")));
  EXPECT_THAT(refused(" -x"),
              ElementsAre(HasSubstr("Unknown argument. Usage: iperf"), HasSubstr("-c"),
                          HasSubstr("-s"), HasSubstr("-u"), HasSubstr("-p"), HasSubstr("-l"),
                          HasSubstr("-i"), HasSubstr("-t"), HasSubstr("-b"), HasSubstr("-S"),
                          HasSubstr("-n"), HasSubstr("-P"), HasSubstr("-a"), HasSubstr("-h")));
  EXPECT_THAT(refused(" -c"), testing::Contains(HasSubstr("Unknown argument"))) << "no value";
  EXPECT_THAT(refused(" -udp"), testing::Contains(HasSubstr("Unknown argument")))
      << "options are exactly two characters";
  EXPECT_THAT(refused(""), ElementsAre("client/server required"));
  EXPECT_THAT(refused(" -u -t 10"), ElementsAre("client/server required"));
  EXPECT_THAT(refused(" -c pc.local"), ElementsAre("Invalid server address"));
  EXPECT_THAT(refused(" -c 10.0.0.1 -s"), ElementsAre("client/server required"));
}

TEST(McuSimIperfArgs, StockIperf2PlaysEachRun) {
  EXPECT_THAT(stock_argv(accepted("-c 10.0.0.1 -u -b 20 -t 3"), "iperf", 1.0),
              ElementsAreArray({"iperf", "-c", "10.0.0.1", "-t", "3", "-p", "5001", "-f", "b", "-u",
                                "-b", "20000000", "-l", "1470"}));
  EXPECT_THAT(stock_argv(accepted("-c 10.0.0.1 -u -b 20 -t 3"), "iperf", 0.5),
              testing::Contains("10000000"))
      << "--rate-factor";
  EXPECT_THAT(stock_argv(accepted("-s -u -t 10 -p 5002"), "/usr/bin/iperf", 1.0),
              ElementsAreArray({"/usr/bin/iperf", "-s", "-p", "5002", "-f", "b", "-u"}));
  EXPECT_THAT(
      stock_argv(accepted("-c 10.0.0.1 -t 3 -i 1"), "iperf", 1.0),
      ElementsAreArray({"iperf", "-c", "10.0.0.1", "-t", "3", "-p", "5001", "-f", "b", "-i", "1"}));
}

}  // namespace
}  // namespace hil::mcu_sim
