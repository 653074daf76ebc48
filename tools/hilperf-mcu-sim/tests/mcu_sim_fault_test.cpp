// hilperf-mcu-sim's fault switches, each seen from the host as a case would meet it on a real
// board: a dead console, a wrong baud rate, a run that fails with a traffic error, a run that
// never ends until the reset command, a UDP client at half the asked rate, bytes lost on the
// way in (the echo shows it, the command is typed again), a UDP server nobody sends to.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mcu_sim_fixture.hpp"

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace hil::mcu_sim::test;

// The message of the console_timeout waiting timeout for p throws.
std::string timeout_message(host_console& host, const pattern& p,
                            std::chrono::milliseconds timeout) {
  try {
    (void)host.expect(p, timeout);
  } catch (const hil::console::console_timeout& e) {
    return e.what();
  }
  ADD_FAILURE() << p.describe() << " came";
  return {};
}

TEST(McuSimFault, MuteNeverAnswers) {
  mcu_sim sim({"--mute"});
  host_console host(sim.tty);
  host.term.type("");
  EXPECT_THAT(timeout_message(host, st().prompt, 1s), HasSubstr("nothing at all"));
}

TEST(McuSimFault, GarbleBaudAnswersWithBytesThatAreNoText) {
  mcu_sim sim({"--garble-baud"});
  host_console host(sim.tty);
  host.term.type("");
  (void)timeout_message(host, st().prompt, 1s);
  const std::string log = host.log.text();
  const auto at = log.find("<] ");
  ASSERT_NE(at, std::string::npos) << "bytes came: " << log;
  const std::string received = log.substr(at + 3, log.find('\n', at) - at - 3);
  EXPECT_FALSE(received.empty());
  for (const char c : received) {
    EXPECT_GE(static_cast<unsigned char>(c), 0x80U) << "none of them text: " << log;
  }
}

TEST(McuSimFault, ErrorLineFailsTheNextRunQuotingIt) {
  const std::string error = "udp client send error, error code: -1, reason: Connection refused";
  const auto server = peer_server(true);
  mcu_sim sim({"--error-line", error});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto req = request(iperf_role::client, iperf_protocol::udp, 1);
  const auto failed = host.run(req, 10s);
  EXPECT_THAT(failed.errors, ElementsAre(error)) << host.log.text();
  EXPECT_FALSE(failed.mbit_per_second);
  const auto next = host.run(req, 10s);
  EXPECT_TRUE(next.errors.empty()) << host.log.text();
  EXPECT_TRUE(next.mbit_per_second) << "only the next run fails";
}

TEST(McuSimFault, NeverEndIgnoresTheAbortUntilTheResetCommand) {
  const auto server = peer_server(true);
  mcu_sim sim({"--never-end"});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto req = request(iperf_role::client, iperf_protocol::udp, 1);
  host.term.type(st().command(req));
  (void)timeout_message(host, pattern::literal("iperf exit"), 4s);
  host.term.type(st().abort(req));
  (void)host.expect(pattern::literal("iperf aborting ..."), 2s);
  (void)timeout_message(host, pattern::literal("iperf exit"), 2s);
  host.term.type("reset");
  (void)host.expect(pattern::literal("ST67W6X CLI"), 2s);
  (void)host.expect(st().prompt, 2s);
  host.term.type(st().command(req));
  const std::string text = host.expect(pattern::literal("Client connecting"), 3s);
  EXPECT_THAT(text, Not(HasSubstr("iperf is running"))) << "the reset ended the run";
}

TEST(McuSimFault, RateFactorSendsAtHalfTheAskedRate) {
  const auto server = peer_server(true);
  mcu_sim sim({"--rate-factor", "0.5"});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto r = host.run(request(iperf_role::client, iperf_protocol::udp), 15s);
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 10.0, 1.0) << "20 Mbit/s asked";
}

TEST(McuSimFault, ALostByteShowsInTheEchoAndTheCommandIsTypedAgain) {
  mcu_sim sim({"--drop-every", "5", "--drop-limit", "1"});
  host_console host(sim.tty, 500ms);
  host.wait_for_prompt();
  host.term.type("iperf -u -t 10");
  const std::string text = host.expect(pattern::literal("client/server required"), 2s);
  EXPECT_THAT(text, Not(HasSubstr("command not found")));
  EXPECT_THAT(host.log.text(), HasSubstr("typing it again"));
}

TEST(McuSimFault, AConsoleThatKeepsLosingBytesIsNeverSentAGarbledCommand) {
  mcu_sim sim({"--drop-every", "5"});
  host_console host(sim.tty, 500ms);
  try {
    host.term.type("iperf -u -t 10");
    FAIL() << "typed through a console that loses every fifth byte";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("garbled a command twice"));
  }
  EXPECT_THAT(timeout_message(host, pattern::literal("client/server required"), 1s),
              HasSubstr("did not print"))
      << "no line end was sent: nothing ran";
}

TEST(McuSimFault, AUdpServerNobodySendsToGivesUpAfterItsIdleTime) {
  mcu_sim sim({"--udp-server-idle", "1"});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto r = host.run(request(iperf_role::server, iperf_protocol::udp), 5s);
  EXPECT_THAT(r.errors, ElementsAre(HasSubstr("udp server recv error")));
}

}  // namespace
