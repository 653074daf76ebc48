// hil::firmware's zperf and ESP-IDF dialects driving the emulator (--dialect zperf, esp-idf) in a
// bench of this run's own, through its pseudo-terminal as a console case drives a board: a UDP
// and a TCP run each way against stock iPerf 2 in the peer namespace, the firmware's figures
// checked against what that end counted; then the faults as each of these firmwares shows them
// (an error line, a run that never ends, a second run while one goes on, a prompt of its own).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "hil/firmware/firmware_run.hpp"
#include "iperf2_text.hpp"
#include "mcu_sim_fixture.hpp"

namespace {

using hil::firmware::firmware_run;
using hil::firmware::run_limits;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace hil::mcu_sim::test;

const hil::firmware::dialect& zp() { return hil::firmware::zperf(); }
const hil::firmware::dialect& esp() { return hil::firmware::esp_idf(); }

// Stock iPerf 2's server at the peer end, printing its figures in bytes and bits/s (-f b) so they
// compare exactly with the firmware's.
std::unique_ptr<hil::sys::child_process> counting_server(bool udp) {
  return peer_server(udp, {"-f", "b"});
}

// What stock iPerf 2 at the peer end printed about its traffic.
hil::mcu_sim::iperf2_run_text peer_count(const hil::sys::child_process& peer) {
  return hil::mcu_sim::read_run_text(peer.output());
}

// The run_stuck message of finishing run (an empty string and a failure when it finished).
std::string stuck(firmware_run& dut, host_console& host) {
  try {
    (void)dut.finish();
  } catch (const hil::firmware::run_stuck& e) {
    return e.what();
  }
  ADD_FAILURE() << "the run finished: " << host.log.text();
  return {};
}

// Zephyr zperf.

TEST(FirmwareRunZperf, UdpUploadAsThePeerCountedIt) {
  const auto server = counting_server(true);
  mcu_sim sim({"--dialect", "zperf"});
  host_console host(sim.tty);
  const auto r = run(host, zp(), request(iperf_role::client, iperf_protocol::udp),
                     limits("kernel reboot cold"));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  const auto peer = peer_count(*server);
  ASSERT_EQ(peer.udp.size(), 1U) << server->output();
  // The statistics' server column is the peer's own count (zperf truncates to whole kbit/s).
  EXPECT_NEAR(*r.mbit_per_second, static_cast<double>(peer.udp[0].bits_per_second) / 1e6, 0.05);
  EXPECT_EQ(r.total, peer.udp[0].total) << "the statistics' server column is the peer's report";
  EXPECT_EQ(r.lost, peer.udp[0].lost);
  EXPECT_THAT(server->output(), HasSubstr("connected with " + dut_address()));
}

TEST(FirmwareRunZperf, UdpDownloadReportsTheSessionThePeerSent) {
  mcu_sim sim({"--dialect", "zperf"});
  host_console host(sim.tty);
  const auto l = limits("kernel reboot cold");
  hil::firmware::wake(host.term, zp(), l);
  firmware_run dut(host.term, zp(), request(iperf_role::server, iperf_protocol::udp), l);
  EXPECT_THAT(dut.text(), HasSubstr("UDP server started on port 5001"));
  const auto client =
      peer_iperf({"-c", dut_address(), "-u", "-b", "20M", "-t", "2", "-l", "1024", "-f", "b"});
  const auto r = dut.finish();
  EXPECT_THAT(dut.text(), HasSubstr("New session started."));
  EXPECT_THAT(dut.text(), HasSubstr("End of session!"));
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  ASSERT_TRUE(client->wait(10s)) << client->output();
  const auto peer = peer_count(*client);
  ASSERT_EQ(peer.udp.size(), 1U) << "the board's server report: " << client->output();
  ASSERT_TRUE(r.total) << host.log.text();
  EXPECT_EQ(*r.total, *peer.udp[0].total) << "received and lost, as the peer was told";
  EXPECT_EQ(r.lost, peer.udp[0].lost);
}

TEST(FirmwareRunZperf, TcpUploadAsThePeerCountedIt) {
  const auto server = counting_server(false);
  mcu_sim sim({"--dialect", "zperf"});
  host_console host(sim.tty);
  const auto r = run(host, zp(), request(iperf_role::client, iperf_protocol::tcp),
                     limits("kernel reboot cold"));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0) << "an unshaped link";
  ASSERT_TRUE(r.seconds);
  EXPECT_NEAR(*r.seconds, 2.0, 0.2);
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_TRUE(hil::test::eventually([&] { return !peer_count(*server).own.empty(); }, 5s))
      << server->output();
}

TEST(FirmwareRunZperf, TcpDownloadEndsWithTheSession) {
  mcu_sim sim({"--dialect", "zperf"});
  host_console host(sim.tty);
  const auto l = limits("kernel reboot cold");
  hil::firmware::wake(host.term, zp(), l);
  firmware_run dut(host.term, zp(), request(iperf_role::server, iperf_protocol::tcp), l);
  const auto client = peer_iperf({"-c", dut_address(), "-t", "2", "-f", "b"});
  const auto r = dut.finish();
  EXPECT_THAT(dut.text(), HasSubstr("New TCP session started."));
  EXPECT_THAT(dut.text(), HasSubstr("TCP session ended"));
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  ASSERT_TRUE(client->wait(10s)) << client->output();
  const auto peer = peer_count(*client);
  ASSERT_EQ(peer.own.size(), 1U) << client->output();
  EXPECT_GT(peer.own[0].bits_per_second, 50'000'000U) << "what the peer sent and the board took";
}

TEST(FirmwareRunZperfFault, ErrorLineIsQuotedInTheReport) {
  const auto server = peer_server(true);
  mcu_sim sim({"--dialect", "zperf", "--error-line", "UDP upload failed (-105)"});
  host_console host(sim.tty);
  const auto r = run(host, zp(), request(iperf_role::client, iperf_protocol::udp, 1),
                     limits("kernel reboot cold"));
  EXPECT_THAT(r.errors, ElementsAre("UDP upload failed (-105)")) << host.log.text();
  EXPECT_THAT(host.log.text(), Not(HasSubstr("Upload completed!")));
}

TEST(FirmwareRunZperfFault, AnUploadThatNeverEndsHoldsTheShellEvenAgainstTheReset) {
  const auto server = peer_server(true);
  mcu_sim sim({"--dialect", "zperf", "--never-end", "--log-every", "0"});
  host_console host(sim.tty, 1s);
  run_limits l = limits("kernel reboot cold");
  l.prompt_timeout = 2s;
  l.end_slack = 2s;
  hil::firmware::wake(host.term, zp(), l);
  firmware_run dut(host.term, zp(), request(iperf_role::client, iperf_protocol::udp, 1), l);
  const std::string m = stuck(dut, host);
  EXPECT_THAT(m, HasSubstr("zperf has no command that stops this run"));
  EXPECT_THAT(m, HasSubstr("then \"kernel reboot cold\" typed:"));
  EXPECT_THAT(m, HasSubstr("the firmware may still be running it"))
      << "a blocked shell neither echoes nor runs what is typed";
}

TEST(FirmwareRunZperfFault, ADownloadThatNeverEndsIsStoppedByItsAbort) {
  mcu_sim sim({"--dialect", "zperf", "--never-end", "--log-every", "0"});
  host_console host(sim.tty);
  run_limits l = limits("kernel reboot cold");
  l.end_slack = 2s;
  hil::firmware::wake(host.term, zp(), l);
  firmware_run dut(host.term, zp(), request(iperf_role::server, iperf_protocol::udp, 1), l);
  const auto client = peer_iperf({"-c", dut_address(), "-u", "-b", "5M", "-t", "1"});
  const std::string m = stuck(dut, host);
  EXPECT_THAT(m, HasSubstr("\"zperf udp download stop\" typed: the run ended and the prompt came "
                           "back"));
  EXPECT_THAT(host.log.text(), HasSubstr("UDP server stopped"));
}

TEST(FirmwareRunZperfFault, ASecondDownloadIsRefusedWhileTheFirstServes) {
  mcu_sim sim({"--dialect", "zperf"});
  host_console host(sim.tty);
  const auto l = limits("kernel reboot cold");
  hil::firmware::wake(host.term, zp(), l);
  firmware_run first(host.term, zp(), request(iperf_role::server, iperf_protocol::udp), l);
  firmware_run second(host.term, zp(), request(iperf_role::server, iperf_protocol::udp), l);
  EXPECT_THAT(second.finish().errors, ElementsAre("UDP server already started!"))
      << host.log.text();
  // The first is left unfinished: its destructor stops the server (`zperf udp download stop`).
}

// ESP-IDF iperf.

TEST(FirmwareRunEspIdf, UdpClientSendsNoEndOfTestAndThePeerCountsOnItsOwn) {
  const auto server = counting_server(true);
  mcu_sim sim({"--dialect", "esp-idf"});
  host_console host(sim.tty);
  const auto r =
      run(host, esp(), request(iperf_role::client, iperf_protocol::udp), limits("restart"));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  EXPECT_EQ(r.seconds, 2.0);
  EXPECT_FALSE(r.total) << "it counts bytes only";
  EXPECT_TRUE(r.errors.empty()) << host.log.text();
  EXPECT_TRUE(hil::test::eventually([&] { return !peer_count(*server).udp.empty(); }, 5s))
      << server->output();
  // The firmware reports what it sent; the peer counted what arrived, on its own.
  const auto peer = peer_count(*server).udp.at(0);
  EXPECT_GT(peer.bytes, 0U);
  EXPECT_LE(static_cast<double>(peer.bits_per_second) / 1e6, *r.mbit_per_second + 0.5);
}

TEST(FirmwareRunEspIdf, UdpServerAnswersNoEndOfTest) {
  mcu_sim sim({"--dialect", "esp-idf"});
  host_console host(sim.tty);
  const auto l = limits("restart");
  hil::firmware::wake(host.term, esp(), l);
  firmware_run dut(host.term, esp(), request(iperf_role::server, iperf_protocol::udp), l);
  EXPECT_THAT(dut.text(), HasSubstr("[UDP Server] Socket created"));
  const auto client =
      peer_iperf({"-c", dut_address(), "-u", "-b", "20M", "-t", "2", "-l", "1470", "-f", "b"});
  const auto r = dut.finish();
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_NEAR(*r.mbit_per_second, 20.0, 2.0) << host.log.text();
  EXPECT_EQ(r.seconds, 2.0);
  ASSERT_TRUE(client->wait(10s)) << client->output();
  const auto peer = peer_count(*client);
  ASSERT_EQ(peer.own.size(), 1U) << client->output();
  EXPECT_NEAR(static_cast<double>(peer.own[0].bits_per_second) / 1e6, *r.mbit_per_second, 2.0)
      << "what the peer sent is what the board counted";
  EXPECT_TRUE(peer.udp.empty()) << "no server report: " << client->output();
  EXPECT_THAT(client->output(), Not(HasSubstr("Server Report")));
}

TEST(FirmwareRunEspIdf, TcpClientAsThePeerCountedIt) {
  const auto server = counting_server(false);
  mcu_sim sim({"--dialect", "esp-idf"});
  host_console host(sim.tty);
  const auto r =
      run(host, esp(), request(iperf_role::client, iperf_protocol::tcp), limits("restart"));
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0);
  EXPECT_EQ(r.seconds, 2.0);
  EXPECT_TRUE(hil::test::eventually([&] { return !peer_count(*server).own.empty(); }, 5s))
      << server->output();
}

TEST(FirmwareRunEspIdf, TcpServerCountsThePeersStream) {
  mcu_sim sim({"--dialect", "esp-idf"});
  host_console host(sim.tty);
  const auto l = limits("restart");
  hil::firmware::wake(host.term, esp(), l);
  firmware_run dut(host.term, esp(), request(iperf_role::server, iperf_protocol::tcp), l);
  const auto client = peer_iperf({"-c", dut_address(), "-t", "2", "-f", "b"});
  const auto r = dut.finish();
  ASSERT_TRUE(r.mbit_per_second) << host.log.text();
  EXPECT_GT(*r.mbit_per_second, 50.0);
  ASSERT_TRUE(client->wait(10s)) << client->output();
  const auto peer = peer_count(*client);
  ASSERT_EQ(peer.own.size(), 1U) << client->output();
  EXPECT_NEAR(static_cast<double>(peer.own[0].bits_per_second) / 1e6, *r.mbit_per_second,
              0.2 * *r.mbit_per_second);
}

TEST(FirmwareRunEspIdfFault, AnErrorLineEndsTheRunWithoutASummaryQuotingIt) {
  const auto server = peer_server(true);
  mcu_sim sim({"--dialect", "esp-idf", "--error-line",
               "sendto error, error code: 12, reason: Out of memory", "--log-every", "0"});
  host_console host(sim.tty);
  run_limits l = limits("restart");
  l.end_slack = 10s;
  hil::firmware::wake(host.term, esp(), l);
  const auto start = std::chrono::steady_clock::now();
  firmware_run dut(host.term, esp(), request(iperf_role::client, iperf_protocol::udp, 1), l);
  const auto r = dut.finish();
  // Ended by the traffic task's line, not by the wait for a summary that never comes.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s + l.end_slack) << host.log.text();
  EXPECT_THAT(r.errors, ElementsAre(HasSubstr("iperf(id=1): sendto error, error code: 12"),
                                    "an error occurred while running udp client"))
      << host.log.text();
  EXPECT_FALSE(r.mbit_per_second);
  EXPECT_THAT(host.log.text(), ::testing::Not(HasSubstr("iperf --abort")));
}

TEST(FirmwareRunEspIdfFault, ARunThatNeverEndsIsAnsweredByTheAbortAndStaysBehind) {
  const auto server = peer_server(true);
  mcu_sim sim({"--dialect", "esp-idf", "--never-end", "--log-every", "0"});
  host_console host(sim.tty);
  run_limits l = limits("restart");
  l.end_slack = 2s;
  hil::firmware::wake(host.term, esp(), l);
  firmware_run dut(host.term, esp(), request(iperf_role::client, iperf_protocol::udp, 1), l);
  const std::string m = stuck(dut, host);
  EXPECT_THAT(m, HasSubstr("\"iperf --abort\" typed: the run ended and the prompt came back"))
      << "the abort's DONE line comes whatever the instance does";
  host.term.type(esp().command(request(iperf_role::client, iperf_protocol::tcp, 1)));
  (void)host.expect(pattern::literal("mode=tcp-client"), 2s);
  host.term.type("restart");
  (void)host.expect(pattern::literal("Type 'help' to get the list of commands."), 3s);
  (void)host.expect(esp().prompt, 3s);
}

TEST(FirmwareRunEspIdfFault, ASecondRunStartsASecondInstance) {
  const auto server = peer_server(true);
  mcu_sim sim({"--dialect", "esp-idf", "--log-every", "0"});
  host_console host(sim.tty);
  hil::firmware::wake(host.term, esp(), limits("restart"));
  const auto req = request(iperf_role::client, iperf_protocol::udp, 2);
  host.term.type(esp().command(req));
  (void)host.expect(esp().prompt, 2s);
  host.term.type(esp().command(req));
  const std::string text =
      host.expect(pattern::regex(R"(\[\s*2\]\s+0\.0-\s*2\.0 sec[^\n]*\n)"), 15s);
  EXPECT_THAT(text, HasSubstr("[  1] local "));
  EXPECT_THAT(text, HasSubstr("[  2] local ")) << "iperf-cmd runs instances side by side";
}

TEST(FirmwareRunEspIdfFault, AnOlderExamplesPromptIsTheProfilesToName) {
  mcu_sim sim({"--dialect", "esp-idf", "--prompt", "esp32>"});
  host_console host(sim.tty);
  run_limits l = limits("restart");
  l.prompt_timeout = 1s;
  EXPECT_THROW(hil::firmware::wake(host.term, esp(), l), hil::firmware::console_unreachable);
  l.prompt = pattern::literal("esp32>");
  EXPECT_NO_THROW(hil::firmware::wake(host.term, esp(), l)) << host.log.text();
}

}  // namespace
