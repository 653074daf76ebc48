// hilperf-mcu-sim in a bench of this run's own (netns_main.cpp): started in the DUT namespace as
// the cases start it, driven through hil::console (its pty as a port, the terminal that types
// checked by the echo) with hilperf's ST67W6X dialect, stock iPerf 2 in the peer namespace: the
// four rows of procedure 002, the busy refusal, the shell's answers, and what it leaves behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hil/sys/text_file.hpp"
#include "hil/tests/eventually.hpp"
#include "mcu_sim_fixture.hpp"

namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace hil::mcu_sim::test;

TEST(McuSim, UdpClientRowEndsWithIperfExitNearTheAskedRate) {
  const auto server = peer_server(true);
  mcu_sim sim({});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto r = host.run(request(iperf_role::client, iperf_protocol::udp), 15s);
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  EXPECT_EQ(r.seconds, 2.0);
  ASSERT_TRUE(r.total) << host.log.text();
  EXPECT_GT(*r.total, 3000U) << "20 Mbit/s for 2 s in 1470-byte datagrams";
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_THAT(server->output(), HasSubstr("connected with " + dut_address()))
      << "the traffic leaves from the DUT's address";
}

TEST(McuSim, UdpServerRowReadsStockClientsTraffic) {
  mcu_sim sim({});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto req = request(iperf_role::server, iperf_protocol::udp);
  host.term.type(st().command(req));
  (void)host.expect(pattern::literal("Server listening on port 5001"), 5s);
  const auto client = peer_iperf({"-c", dut_address(), "-u", "-b", "20M", "-t", "2", "-l", "1470"});
  const std::string text = host.expect(pattern::literal("iperf exit"), 15s);
  const auto r = st().parse(text);
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  ASSERT_TRUE(r.total);
  EXPECT_GT(*r.total, 3000U);
  EXPECT_THAT(text, HasSubstr("Lost/Total Datagrams"));
  EXPECT_TRUE(client->wait(10s)) << client->output();
  EXPECT_THAT(client->output(), HasSubstr("Server Report")) << "the server answered the FIN";
}

TEST(McuSim, TcpClientRowAndAnotherTasksErrorLine) {
  const auto server = peer_server(false);
  mcu_sim sim({"--log-error"});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto r = host.run(request(iperf_role::client, iperf_protocol::tcp), 15s);
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0) << "an unshaped gigabit link";
  EXPECT_FALSE(r.lost);
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_THAT(r.log_errors, Contains(HasSubstr("sem_if_ready not received")));
}

TEST(McuSim, TcpServerRowEndsWithTheConnection) {
  mcu_sim sim({});
  host_console host(sim.tty);
  host.wait_for_prompt();
  host.term.type(st().command(request(iperf_role::server, iperf_protocol::tcp)));
  (void)host.expect(pattern::literal("[TCP] Server listening on port 5001"), 5s);
  // The banner waits for the port: a client started on it is not refused.
  const auto client = peer_iperf({"-c", dut_address(), "-t", "2"});
  const auto r = st().parse(host.expect(pattern::literal("iperf exit"), 15s));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0);
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_TRUE(client->wait(10s));
  EXPECT_THAT(client->output(), Not(HasSubstr("connect failed")));
}

TEST(McuSim, ASecondRunIsRefusedWhileOneGoesOn) {
  const auto server = peer_server(true);
  mcu_sim sim({});
  host_console host(sim.tty);
  host.wait_for_prompt();
  const auto req = request(iperf_role::client, iperf_protocol::udp, 3);
  host.term.type(st().command(req));
  (void)host.expect(st().prompt, 2s);
  host.term.type(st().command(req));
  (void)host.expect(pattern::literal("iperf is running"), 2s);
  const auto r = st().parse(host.expect(pattern::literal("iperf exit"), 15s));
  EXPECT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_THROW((void)host.expect(pattern::literal("iperf exit"), 2s), hil::console::console_timeout)
      << "one run, one end marker";
}

TEST(McuSim, TheShellsAnswersAndAHostThatReconnects) {
  const std::string link = "/tmp/hilperf-mcu-sim-test-" + std::to_string(::getpid());
  const std::string pid_path = link + ".pid";
  {
    mcu_sim sim({"--link", link, "--pid-file", pid_path});
    EXPECT_EQ(hil::sys::read_text_file(pid_path, 64), std::to_string(sim.process.pid()) + "\n")
        << "ip netns exec runs it in its own place";
    {
      host_console host(link);
      host.wait_for_prompt();
      host.term.type("iperff -s");
      (void)host.expect(pattern::literal("iperff: command not found."), 2s);
      host.term.type("iperf -u -t 10");
      (void)host.expect(pattern::literal("client/server required"), 2s);
      host.term.type("iperf -c pc.local");
      (void)host.expect(pattern::literal("Invalid server address"), 2s);
    }
    host_console again(link);  // a real board does not die when its host lets go
    again.wait_for_prompt();
  }
  EXPECT_NE(::access(link.c_str(), F_OK), 0) << link << " is left behind";
  EXPECT_NE(::access(pid_path.c_str(), F_OK), 0) << pid_path << " is left behind";
}

TEST(McuSim, StoppedMidRunLeavesNoIperfBehind) {
  {
    mcu_sim sim({});
    host_console host(sim.tty);
    host.wait_for_prompt();
    host.term.type("iperf -s -p 5999");
    (void)host.expect(pattern::literal("port 5999"), 5s);
    ASSERT_TRUE(hil::test::eventually(
        [] {
          return hil::sys::run({"pgrep", "-f", "iperf -s -p 5999"}).exit_code == 0;
        },
        5s));
  }
  EXPECT_TRUE(hil::test::eventually(
      [] {
        return hil::sys::run({"pgrep", "-f", "iperf -s -p 5999"}).exit_code != 0;
      },
      5s));
}

}  // namespace
