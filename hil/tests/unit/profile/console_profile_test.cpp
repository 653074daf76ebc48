// Unit tests of a console DUT's profile: dut.mode, the [console] and [firmware_iperf] tables, their
// checks across keys, and the echo of a list of console lines.
#include <gtest/gtest.h>

#include <string>

#include "hil/profile/profile.hpp"
#include "hil/tests/unit/profile/profile_test_support.hpp"

namespace hil::profile {
namespace {

class ConsoleProfile : public ProfileEnv {};

// The minimal profile with a console DUT, then extra (the lines of this text are 1-6).
std::string console_with(std::string_view extra) {
  return std::string(R"([dut]
mode = "console"
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)") + std::string(extra);
}

TEST_F(ConsoleProfile, AConsoleDutIsReadWithItsConsoleAndRows) {
  const profile p = parse_profile(console_with(R"([console]
port = "tcp://127.0.0.1:3001"
baud = 921600
dialect = "st67w6x"
line_ending = "lf"
setup_commands = ["wifi_sta_connect lab-ap secret", "ip"]
setup_replies = ["Connected", "IP"]
reset_command = "reset"
[firmware_iperf]
udp_rate_mbps = 30
udp_tx_mbps = 27.0
)"),
                                  "test.toml");
  EXPECT_EQ(p.dut.mode, dut_mode::console);
  EXPECT_EQ(p.console.port, "tcp://127.0.0.1:3001");
  EXPECT_EQ(p.console.baud, 921600);
  EXPECT_EQ(p.console.dialect, firmware_dialect::st67w6x);
  EXPECT_EQ(p.console.line_ending, console_line_ending::lf);
  ASSERT_EQ(p.console.setup_commands.size(), 2U);
  EXPECT_EQ(p.console.setup_commands[0], "wifi_sta_connect lab-ap secret");
  EXPECT_EQ(p.console.setup_replies[1], "IP");
  EXPECT_EQ(p.console.reset_command, "reset");
  EXPECT_EQ(p.firmware_iperf.udp_rate_mbps, 30);
  EXPECT_DOUBLE_EQ(p.firmware_iperf.udp_tx_mbps, 27.0);
  EXPECT_DOUBLE_EQ(p.firmware_iperf.tcp_rx_mbps, 22.0) << "the default: 90 % of 24.5";
}

TEST_F(ConsoleProfile, ALinuxBoardIsTheDefaultAndNeedsNoConsole) {
  const profile p = parse_profile(minimal, "test.toml");
  EXPECT_EQ(p.dut.mode, dut_mode::linux_board);
  EXPECT_TRUE(p.console.port.empty());
}

TEST_F(ConsoleProfile, AConsoleDutWithoutAPortIsRefusedNamingTheKey) {
  const problem p = only_problem(console_with(""));
  EXPECT_EQ(p.key, "console.port");
  EXPECT_TRUE(contains(p.message, "required when dut.mode is \"console\"")) << p.message;
}

TEST_F(ConsoleProfile, SetupCommandsAndRepliesMustPairUp) {
  const problem p = only_problem(console_with(R"([console]
port = "/dev/ttyACM0"
setup_commands = ["a", "b"]
setup_replies = ["A"]
)"));
  EXPECT_EQ(p.key, "console.setup_replies");
  EXPECT_EQ(p.line, 10);
  EXPECT_TRUE(contains(p.message, "2 commands, 1 replies")) << p.message;
}

TEST_F(ConsoleProfile, ASetupListOfNonStringsNamesTheElement) {
  const problem p = only_problem(console_with(R"([console]
port = "/dev/ttyACM0"
setup_commands = ["a", 3]
setup_replies = ["A", "B"]
)"));
  EXPECT_EQ(p.key, "console.setup_commands[1]");
  EXPECT_TRUE(contains(p.message, "string")) << p.message;
}

TEST_F(ConsoleProfile, AnUnknownDialectListsTheKnownOnes) {
  const problem p =
      only_problem(console_with("[console]\nport = \"/dev/ttyACM0\"\n"
                                "dialect = \"nuttx\"\n"));
  EXPECT_EQ(p.key, "console.dialect");
  EXPECT_TRUE(contains(p.message, "\"st67w6x\", \"zperf\", \"esp_idf\"; got \"nuttx\""))
      << p.message;
}

TEST_F(ConsoleProfile, AnRfc2217ConsoleIsReadWithItsBaudRate) {
  const profile p = parse_profile(console_with(R"([console]
port = "rfc2217://console-server.lab:3001"
baud = 921600
rtscts = true
)"),
                                  "test.toml");
  EXPECT_EQ(p.console.port, "rfc2217://console-server.lab:3001");
  EXPECT_EQ(p.console.baud, 921600);
  EXPECT_TRUE(p.console.rtscts);
}

TEST_F(ConsoleProfile, AConsoleAddressWithoutAPortOrOfAnotherSchemeIsRefusedNamingTheForms) {
  for (const char* port : {"rfc2217://console-server.lab", "tcp://127.0.0.1:0", "rfc2217://:3001",
                           "telnet://127.0.0.1:3001", "tcp://a,b:3001"}) {
    const problem p =
        only_problem(console_with("[console]\nport = \"" + std::string(port) + "\"\n"));
    EXPECT_EQ(p.key, "console.port") << port;
    EXPECT_EQ(p.line, 8) << port;
    EXPECT_TRUE(contains(p.message, "tcp://host:port or rfc2217://host:port")) << p.message;
    EXPECT_TRUE(contains(p.message, port)) << p.message;
  }
}

TEST_F(ConsoleProfile, TheEchoWritesTheConsoleLinesAsTomlThatReadsBack) {
  const profile p = parse_profile(console_with(R"([console]
port = "/dev/ttyACM0"
setup_commands = ["say \"hi\"\\now"]
setup_replies = ["hi"]
)"),
                                  "test.toml");
  const std::string text = echo(p);
  EXPECT_TRUE(contains(text, "setup_commands = [\"say \\\"hi\\\"\\\\now\"]")) << text;
  const profile back = parse_profile(text, "echo.toml");
  EXPECT_EQ(back.console.setup_commands, p.console.setup_commands);
  EXPECT_EQ(back.dut.mode, dut_mode::console);
}

}  // namespace
}  // namespace hil::profile
