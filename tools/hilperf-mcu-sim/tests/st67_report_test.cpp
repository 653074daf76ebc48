// The simulated firmware's report (st67_report.hpp, st67_text.hpp) written from stock iPerf 2's
// output (iperf2_text.hpp; Debian's 2.1.8 with -f b, captured on loopback), line for line, and
// read back by hilperf's own ST67W6X dialect as a case reads a real board's.
#include "st67_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hil/firmware/dialect.hpp"
#include "iperf2_text.hpp"
#include "st67_text.hpp"

namespace hil::mcu_sim {
namespace {

using ::testing::ElementsAre;

const std::string udp_client_output =
    "------------------------------------------------------------\n"
    "Client connecting to 127.0.0.1, UDP port 5010\n"
    "Sending 1470 byte datagrams, IPG target: 2352.00 us (kalman adjust)\n"
    "UDP buffer size: 212992 Byte (default)\n"
    "------------------------------------------------------------\n"
    "[  1] local 127.0.0.1 port 59501 connected with 127.0.0.1 port 5010\n"
    "[ ID] Interval       Transfer     Bandwidth\n"
    "[  1] 0.0000-2.0041 sec  1255380 Bytes  5011329 bits/sec\n"
    "[  1] Sent 855 datagrams\n"
    "[  1] Server Report:\n"
    "[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
    "[  1] 0.0000-2.0039 sec  1255380 Bytes  5011845 bits/sec   0.011 ms 3/854 (0%)\n";

const std::string udp_server_output =
    "------------------------------------------------------------\n"
    "Server listening on UDP port 5010\n"
    "UDP buffer size: 212992 Byte (default)\n"
    "------------------------------------------------------------\n"
    "[  1] local 127.0.0.1 port 5010 connected with 127.0.0.1 port 59501\n"
    "[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
    "[  1] 0.0000-10.0039 sec  35777460 Bytes  28610000 bits/sec   0.011 ms 12/24350 (0.049%)\n";

const std::string tcp_server_output =
    "[  1] local 127.0.0.1 port 5011 connected with 127.0.0.1 port 39206 "
    "(icwnd/mss/irtt=320/32768/25)\n"
    "[ ID] Interval       Transfer     Bandwidth\n"
    "[  1] 0.0000-10.0073 sec  30628659 Bytes  24484000 bits/sec\n";

iperf_args args_of(run_role role, run_protocol protocol) {
  iperf_args a;
  a.role = role;
  a.protocol = protocol;
  a.peer = "127.0.0.1";
  return a;
}

// What a case's dialect reads from lines as the firmware prints them, through "iperf exit".
firmware::firmware_report read_back(const std::vector<std::string>& lines) {
  std::string text = "iperf -c 127.0.0.1 -u -b 5 -t 2\n" + st67::prompt();
  for (const auto& l : lines) text += l + '\n';
  return firmware::st67w6x().parse(text + "iperf exit\n");
}

TEST(McuSimIperf2Text, ReadsFiguresLinesOfBothShapes) {
  const auto t = read_run_text(udp_client_output);
  ASSERT_EQ(t.own.size(), 1U);
  EXPECT_EQ(t.own[0].bytes, 1255380U);
  EXPECT_EQ(t.own[0].bits_per_second, 5011329U);
  EXPECT_DOUBLE_EQ(t.own[0].end_seconds, 2.0041);
  ASSERT_EQ(t.udp.size(), 1U);
  EXPECT_EQ(t.udp[0].lost, 3U);
  EXPECT_EQ(t.udp[0].total, 854U);
  EXPECT_DOUBLE_EQ(*t.udp[0].jitter_ms, 0.011);
  EXPECT_TRUE(t.connected);
  EXPECT_FALSE(t.failure);
  EXPECT_FALSE(read_run_text("[  1] 0.0000-2.0041 sec  1255").connected) << "partial line";
  EXPECT_EQ(read_run_text("tcp connect failed: Connection refused\n").failure,
            "tcp connect failed: Connection refused");
  EXPECT_FALSE(read_run_text("read failed: Connection refused\n").failure)
      << "a UDP client waiting for a report that does not come";
}

TEST(McuSimReport, AUdpClientsSummaryAndTheServersLossCount) {
  const auto lines =
      st67_report(args_of(run_role::client, run_protocol::udp), read_run_text(udp_client_output));
  EXPECT_THAT(lines, ElementsAre("[  1]  0.0-2.0 sec   1.19 MBytes     5.0 Mbits/sec",
                                 "[ ID]  Jitter        Lost/Total Datagrams",
                                 "[  1] 0.11000 ms    3/ 854 (0%)"));
  const auto r = read_back(lines);
  EXPECT_EQ(r.seconds, 2.0);
  EXPECT_EQ(r.mbit_per_second, 5.0);
  EXPECT_EQ(r.lost, 3U);
  EXPECT_EQ(r.total, 854U);
  EXPECT_TRUE(r.errors.empty());
}

TEST(McuSimReport, AUdpServersMisprintedMegabytesAndItsLossCount) {
  const auto lines =
      st67_report(args_of(run_role::server, run_protocol::udp), read_run_text(udp_server_output));
  // 35777460 bytes are 34.12 MiB: the firmware prints its one decimal through %02u.
  EXPECT_THAT(lines, ElementsAre("[  1]  0.0-10.0 sec  34.01 MBytes    28.6 Mbits/sec",
                                 "[ ID]                Lost/Total Datagrams",
                                 "[  1]                  12/ 24350 ( 0.0%)"));
  const auto r = read_back(lines);
  EXPECT_EQ(r.mbit_per_second, 28.6);
  EXPECT_EQ(r.lost, 12U);
  EXPECT_EQ(r.total, 24350U);
}

TEST(McuSimReport, TcpEndsPrintTheSummaryOnly) {
  const auto lines =
      st67_report(args_of(run_role::server, run_protocol::tcp), read_run_text(tcp_server_output));
  EXPECT_THAT(lines, ElementsAre("[  1]  0.0-10.0 sec  29.20 MBytes    24.4 Mbits/sec"));
  EXPECT_FALSE(read_back(lines).lost);
  EXPECT_TRUE(st67_run_over(args_of(run_role::server, run_protocol::tcp),
                            read_run_text(tcp_server_output)));
  EXPECT_FALSE(st67_run_over(args_of(run_role::server, run_protocol::udp),
                             read_run_text(tcp_server_output)));
}

TEST(McuSimReport, IntervalLinesComeBeforeTheSummary) {
  const auto lines = st67_report(args_of(run_role::client, run_protocol::tcp),
                                 read_run_text("[  1] 0.0000-1.0000 sec  3460301 Bytes  27682400 "
                                               "bits/sec\n[  1] 1.0000-2.0000 sec  3460301 Bytes  "
                                               "27682400 bits/sec\n[  1] 0.0000-2.0100 sec  "
                                               "6920600 Bytes  27544000 bits/sec\n"));
  EXPECT_THAT(lines, ElementsAre("[  1] 0.0-1.0 sec   3.30 MBytes    27.6 Mbits/sec",
                                 "[  1] 1.0-2.0 sec   3.30 MBytes    27.6 Mbits/sec",
                                 "[  1]  0.0-2.0 sec   6.59 MBytes    27.5 Mbits/sec"));
  EXPECT_EQ(read_back(lines).mbit_per_second, 27.5) << "the summary, not an interval";
}

TEST(McuSimReport, FailuresAndLogLinesInTheFirmwaresWords) {
  EXPECT_EQ(st67::failure_line("tcp connect failed: Connection refused"),
            "[iperf] Socket unable to connect: errno 111");
  EXPECT_EQ(st67::failure_line("bind failed: Address already in use"),
            "[iperf] Socket unable to bind: errno 98");
  EXPECT_EQ(st67::log_line("ERROR", 4000, "ST67W6XTask", "w61_at_common.c:375",
                           "sem_if_ready not received"),
            "[ERROR] [4000] [ST67W6XTask] (w61_at_common.c:375) sem_if_ready not received");
  EXPECT_EQ(st67::prompt(), "\x1b[36mw61/>\x1b[0m");
  EXPECT_EQ(st67::command_not_found("iperff"), "iperff: command not found.");
  const auto r = firmware::st67w6x().parse(st67::failure_line("connect failed: No route to host"));
  EXPECT_THAT(r.errors, ElementsAre("[iperf] Socket unable to connect: errno 113"));
}

}  // namespace
}  // namespace hil::mcu_sim
