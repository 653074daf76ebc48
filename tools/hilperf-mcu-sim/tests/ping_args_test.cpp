// The simulated ST67W6X's reading of `ping` arguments (ping_run.hpp): what it accepts and the
// firmware's own refusals.
#include <gtest/gtest.h>

#include <variant>

#include "ping_run.hpp"

namespace {

using namespace std::chrono_literals;
using hil::mcu_sim::parse_ping;
using hil::mcu_sim::ping_args;
using hil::mcu_sim::ping_refusal;

std::string refusal_of(std::string_view arguments) {
  const auto c = parse_ping(arguments);
  const auto* r = std::get_if<ping_refusal>(&c);
  return r == nullptr || r->lines.empty() ? std::string("(accepted)") : r->lines.front();
}

TEST(McuSimPingArgs, TheAddressAndItsOptionsAreRead) {
  const auto c = parse_ping(" 198.18.0.195 -c 4 -s 64");
  ASSERT_TRUE(std::holds_alternative<ping_args>(c));
  const auto& a = std::get<ping_args>(c);
  EXPECT_EQ(a.peer, "198.18.0.195");
  EXPECT_EQ(a.count, 4);
  EXPECT_EQ(a.size, 64);
  EXPECT_EQ(a.interval, 1000ms);
  const auto d = std::get<ping_args>(parse_ping("10.0.0.1 -i 200"));
  EXPECT_EQ(d.count, 4);
  EXPECT_EQ(d.interval, 200ms);
}

TEST(McuSimPingArgs, TheFirmwaresRefusalsAreItsOwnWords) {
  EXPECT_EQ(refusal_of(""), "Missing IPv4 address argument");
  EXPECT_EQ(refusal_of("pc.local"), "Invalid IPv4 address pc.local");
  EXPECT_EQ(refusal_of("10.0.0.1 -c 0"), "Ping count is invalid");
  EXPECT_EQ(refusal_of("10.0.0.1 -c"), "Ping count is invalid");
  EXPECT_EQ(refusal_of("10.0.0.1 -s 1471"), "Ping size is invalid");
  EXPECT_EQ(refusal_of("10.0.0.1 -i x"), "Ping interval is invalid");
  EXPECT_EQ(refusal_of("10.0.0.1 -t 3"), "Invalid argument -t");
}

}  // namespace
