// hil::firmware's firmware_run against the emulator in a bench of this run's own, as a console
// case drives a board: wake, the command typed, the ready marker, the end marker, stock iPerf 2 at
// the peer end; then each fault switch seen through it, red with its cause in the message.
#include "hil/firmware/firmware_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "mcu_sim_fixture.hpp"

namespace {

using hil::firmware::firmware_run;
using hil::firmware::run_limits;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace hil::mcu_sim::test;

TEST(FirmwareRunMcuSim, UdpClientRow) {
  const auto server = peer_server(true);
  mcu_sim sim({});
  host_console host(sim.tty);
  const auto r = run(host, st(), request(iperf_role::client, iperf_protocol::udp), limits());
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_THAT(server->output(), HasSubstr("connected with " + dut_address()));
}

TEST(FirmwareRunMcuSim, UdpServerRowStartsThePeerOnItsReadyMarker) {
  mcu_sim sim({});
  host_console host(sim.tty);
  hil::firmware::wake(host.term, st(), limits());
  firmware_run dut(host.term, st(), request(iperf_role::server, iperf_protocol::udp), limits());
  EXPECT_THAT(dut.text(), HasSubstr("[UDP] Server listening on port 5001"));
  const auto client = peer_iperf({"-c", dut_address(), "-u", "-b", "20M", "-t", "2", "-l", "1470"});
  const auto r = dut.finish();
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  ASSERT_TRUE(r.total) << host.log.text();
  EXPECT_GT(*r.total, 3000U);
  EXPECT_TRUE(client->wait(10s)) << client->output();
  EXPECT_THAT(client->output(), HasSubstr("Server Report"));
}

TEST(FirmwareRunMcuSim, TcpClientRow) {
  const auto server = peer_server(false);
  mcu_sim sim({});
  host_console host(sim.tty);
  const auto r = run(host, st(), request(iperf_role::client, iperf_protocol::tcp), limits());
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0) << "an unshaped link";
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
}

TEST(FirmwareRunMcuSim, TcpServerRow) {
  mcu_sim sim({});
  host_console host(sim.tty);
  hil::firmware::wake(host.term, st(), limits());
  firmware_run dut(host.term, st(), request(iperf_role::server, iperf_protocol::tcp), limits());
  const auto client = peer_iperf({"-c", dut_address(), "-t", "2"});
  const auto r = dut.finish();
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0);
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_TRUE(client->wait(10s)) << client->output();
}

std::string unreachable(host_console& host) {
  run_limits l = limits();
  l.prompt_timeout = 1s;
  try {
    hil::firmware::wake(host.term, st(), l);
  } catch (const hil::firmware::console_unreachable& e) {
    return e.what();
  }
  ADD_FAILURE() << "a prompt came: " << host.log.text();
  return {};
}

TEST(FirmwareRunMcuSimFault, MuteIsUnreachableAndNothingCame) {
  mcu_sim sim({"--mute"});
  host_console host(sim.tty);
  const std::string m = unreachable(host);
  EXPECT_THAT(m, HasSubstr(sim.tty));
  EXPECT_THAT(m, HasSubstr("nothing came"));
}

TEST(FirmwareRunMcuSimFault, GarbleBaudIsUnreachableQuotingTheGarbage) {
  mcu_sim sim({"--garble-baud"});
  host_console host(sim.tty);
  const std::string m = unreachable(host);
  EXPECT_THAT(m, HasSubstr(sim.tty));
  EXPECT_THAT(m, HasSubstr("text came but no prompt, the last of it \"\\x"));
  EXPECT_THAT(m, HasSubstr("wrong baud rate"));
}

TEST(FirmwareRunMcuSimFault, ErrorLineIsQuotedInTheReport) {
  const std::string error = "udp client send error, error code: -1, reason: Connection refused";
  const auto server = peer_server(true);
  mcu_sim sim({"--error-line", error});
  host_console host(sim.tty);
  const auto r = run(host, st(), request(iperf_role::client, iperf_protocol::udp, 1), limits());
  EXPECT_THAT(r.errors, ElementsAre(error)) << host.log.text();
  EXPECT_FALSE(r.mbit_per_second);
}

TEST(FirmwareRunMcuSimFault, NeverEndIsAbortedThenResetAndNamesTheLastLine) {
  const auto server = peer_server(true);
  mcu_sim sim({"--never-end", "--log-every", "0"});
  host_console host(sim.tty);
  run_limits l = limits();
  l.prompt_timeout = 2s;
  l.end_slack = 2s;
  hil::firmware::wake(host.term, st(), l);
  firmware_run dut(host.term, st(), request(iperf_role::client, iperf_protocol::udp, 1), l);
  try {
    (void)dut.finish();
    FAIL() << "a run that never ends finished: " << host.log.text();
  } catch (const hil::firmware::run_stuck& e) {
    const std::string m = e.what();
    EXPECT_THAT(m, HasSubstr("no end of the run (literal \"iperf exit\") within 3.0 s"));
    EXPECT_THAT(m, HasSubstr("\"iperf -a\" typed: no end within 2.0 s"));
    EXPECT_THAT(m, HasSubstr("then \"reset\" typed: the prompt came back"));
    EXPECT_THAT(m, HasSubstr("last line before the abort: \"[ ID] Interval       Transfer"));
  }
  EXPECT_THAT(host.log.text(), HasSubstr("iperf aborting ..."));
  EXPECT_THAT(host.log.text(), HasSubstr("ST67W6X CLI")) << "the reset rebooted it";
  hil::firmware::wake(host.term, st(), l);  // free for the next case
}

TEST(FirmwareRunMcuSimFault, ADroppedByteIsRetypedOnceAndTheRunWorks) {
  const auto server = peer_server(true);
  mcu_sim sim({"--drop-every", "5", "--drop-limit", "1"});
  host_console host(sim.tty, 500ms);
  const auto r = run(host, st(), request(iperf_role::client, iperf_protocol::udp), limits());
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0);
  EXPECT_THAT(host.log.text(), HasSubstr("typing it again"));
}

}  // namespace
