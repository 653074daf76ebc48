// hilperf-mcu-sim in a bench of this run's own (netns_main.cpp): started in the DUT namespace as
// the cases start it, driven through hil::console (its pty as a port, the terminal that types
// checked by the echo) with hilperf's ST67W6X dialect, stock iPerf 2 in the peer namespace. The
// four rows of procedure 002, the busy refusal, and each fault switch seen from the host.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hil/console/port.hpp"
#include "hil/console/terminal.hpp"
#include "hil/console/transcript.hpp"
#include "hil/firmware/dialect.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
using hil::console::pattern;
using hil::firmware::iperf_protocol;
using hil::firmware::iperf_request;
using hil::firmware::iperf_role;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }
const hil::firmware::dialect& st() { return hil::firmware::st67w6x(); }
std::string dut_address() { return hil::sys::without_prefix(bench().dut_ipv4); }
std::string peer_address() { return hil::sys::without_prefix(bench().peer_ipv4); }

std::vector<std::string> in_netns(const std::string& ns, std::vector<std::string> argv) {
  argv.insert(argv.begin(), {"ip", "netns", "exec", ns});
  return argv;
}

// The emulator in the DUT namespace, with flags; its pty path from its "console <path>" line.
struct mcu_sim {
  explicit mcu_sim(std::vector<std::string> flags)
      : process(in_netns(bench().dut_netns, [&] {
          flags.insert(flags.begin(), HILPERF_MCU_SIM_BINARY);
          return flags;
        }())) {
    EXPECT_TRUE(process.wait_for_output("\n", 10s)) << process.output();
    const std::string out = process.output();
    const auto at = out.find("console ");
    if (at != std::string::npos) tty = out.substr(at + 8, out.find('\n', at) - at - 8);
  }
  hil::sys::child_process process;
  std::string tty;
};

// A host at the emulator's console, as a case is at a board's.
struct host_console {
  explicit host_console(const std::string& tty, std::chrono::milliseconds echo_timeout = 2s)
      : port({tty, 921600}, hil::console::port::clock::now() + 5s),
        term(port, {st().line_ending, true, echo_timeout, 0ms}, log) {}
  // A bare line end, then the prompt (what the firmware printed before is read).
  void wait_for_prompt() {
    term.type("");
    (void)term.expect(std::vector<pattern>{st().prompt}, 5s);
    term.read_all();
  }
  // The text through pattern p.
  std::string expect(const pattern& p, std::chrono::milliseconds timeout) {
    const auto m = term.expect(std::vector<pattern>{p}, timeout);
    return m.before + m.matched;
  }
  // Types request's command and reads its run through the end marker.
  hil::firmware::firmware_report run(const iperf_request& r, std::chrono::milliseconds timeout) {
    term.type(st().command(r));
    const auto m = term.expect(st().end_markers(r), timeout);
    return st().parse(m.before + m.matched);
  }
  hil::console::port port;
  hil::console::transcript log;
  hil::console::terminal term;
};

iperf_request request(iperf_role role, iperf_protocol protocol, int seconds = 2) {
  iperf_request r;
  r.role = role;
  r.protocol = protocol;
  r.peer_address = peer_address();
  r.bitrate_bps = 20'000'000;
  r.duration = std::chrono::seconds(seconds);
  return r;
}

// Stock iPerf 2 in the peer namespace.
std::unique_ptr<hil::sys::child_process> peer_iperf(std::vector<std::string> args) {
  args.insert(args.begin(), "iperf");
  return std::make_unique<hil::sys::child_process>(in_netns(bench().peer_netns, args));
}

std::unique_ptr<hil::sys::child_process> peer_server(bool udp) {
  auto server = peer_iperf(udp ? std::vector<std::string>{"-s", "-u", "-p", "5001"}
                               : std::vector<std::string>{"-s", "-p", "5001"});
  EXPECT_TRUE(server->wait_for_output("Server listening", 10s)) << server->output();
  const std::string state = udp ? "-lun" : "-ltn";
  EXPECT_TRUE(hil::test::eventually(
      [&] {
        const auto r =
            hil::sys::run(in_netns(bench().peer_netns, {"ss", "-H", state, "sport = :5001"}));
        return r.output.find("5001") != std::string::npos;
      },
      5s));
  return server;
}

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
  std::unique_ptr<hil::sys::child_process> client;
  ASSERT_TRUE(hil::test::eventually(
      [&] {  // the run's stock server listens a moment after its banner
        client = peer_iperf({"-c", dut_address(), "-t", "2"});
        (void)client->wait(5s);
        return client->output().find("connect failed") == std::string::npos;
      },
      5s));
  const auto r = st().parse(host.expect(pattern::literal("iperf exit"), 15s));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0);
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
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
  {
    mcu_sim sim({"--link", link});
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
