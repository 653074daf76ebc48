// The simulated Zephyr zperf shell's pure parts (zperf_text.hpp, zperf_report.hpp): what it reads
// from a typed command, the figures it prints in zperf's units, its statistics and session reports
// written from stock iPerf 2's output (Debian's 2.1.8 with -f b, shaped as it prints them), read
// back through hil::console's expect buffer by hilperf's own zperf dialect as a case reads a real
// board, in reads of any size; and the stock iPerf 2 command lines that play its runs.
#include "zperf_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dialect_read_back.hpp"
#include "hil/firmware/dialect.hpp"
#include "iperf2_text.hpp"
#include "shell_plumbing.hpp"
#include "stock_iperf.hpp"
#include "zperf_text.hpp"

namespace hil::mcu_sim {
namespace {

using test::read_back;
using test::report_request;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string udp_client_output =
    "Client connecting to 198.18.0.195, UDP port 5001\n"
    "Sending 1024 byte datagrams, IPG target: 303.41 us (kalman adjust)\n"
    "[  1] local 198.18.0.10 port 40000 connected with 198.18.0.195 port 5001\n"
    "[ ID] Interval       Transfer     Bandwidth\n"
    "[  1] 0.0000-10.0001 sec  33751040 Bytes  27000000 bits/sec\n"
    "[  1] Sent 32960 datagrams\n"
    "[  1] Server Report:\n"
    "[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
    "[  1] 0.0000-10.0098 sec  33748992 Bytes  26972000 bits/sec   0.063 ms 1/32959 (0.003%)\n";

const std::string tcp_client_output =
    "[  1] local 198.18.0.10 port 40002 connected with 198.18.0.195 port 5001\n"
    "[ ID] Interval       Transfer     Bandwidth\n"
    "[  1] 0.0000-10.0215 sec  29360128 Bytes  23438000 bits/sec\n";

const std::string udp_server_output =
    "Server listening on UDP port 5001\n"
    "[  1] local 198.18.0.10 port 5001 connected with 198.18.0.195 port 40000\n"
    "[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
    "[  1] 0.0000-10.0039 sec  35777460 Bytes  28610000 bits/sec   0.120 ms 12/24350 (0.049%)\n";

zperf::upload upload_of(const std::string& command) {
  std::vector<std::string> words;
  std::string w;
  for (const char c : command + " ") {
    if (c != ' ') {
      w += c;
    } else if (!w.empty()) {
      words.push_back(std::move(w));
      w.clear();
    }
  }
  const auto c = zperf::parse_command(words);
  EXPECT_TRUE(std::holds_alternative<zperf::upload>(c)) << command;
  return std::holds_alternative<zperf::upload>(c) ? std::get<zperf::upload>(c) : zperf::upload{};
}

TEST(McuSimZperfText, ReadsTheCommandsHilperfTypesAndRefusesAsTheShellDoes) {
  const auto u = upload_of("udp upload 198.18.0.195 5001 10 1024 27M");
  EXPECT_EQ(u.protocol, run_protocol::udp);
  EXPECT_EQ(u.peer, "198.18.0.195");
  EXPECT_EQ(u.port, 5001);
  EXPECT_EQ(u.seconds, 10U);
  EXPECT_EQ(u.packet_size, 1024U);
  EXPECT_EQ(u.rate_kbps, 27000U);
  EXPECT_THAT(u.said, ElementsAre("Remote port is 5001", "Connecting to 198.18.0.195"));
  EXPECT_EQ(upload_of("udp upload 10.0.0.1 5001 1 1K 27500k").packet_size, 1000U) << "decimal K";
  EXPECT_EQ(upload_of("udp upload 10.0.0.1 5001 1 1K 27500k").rate_kbps, 27500U);
  EXPECT_EQ(upload_of("udp upload 10.0.0.1").seconds, 1U) << "zperf's defaults";
  EXPECT_EQ(upload_of("udp upload 10.0.0.1").rate_kbps, 10U);
  EXPECT_THAT(upload_of("tcp upload 10.0.0.1 5001 10 1024 1M").said.back(),
              HasSubstr("TCP upload will ignore <baud rate> argument"));

  const auto d = zperf::parse_command({"udp", "download", "5002"});
  ASSERT_TRUE(std::holds_alternative<zperf::download>(d));
  EXPECT_EQ(std::get<zperf::download>(d).port, 5002);
  EXPECT_TRUE(std::holds_alternative<zperf::download_stop>(
      zperf::parse_command({"tcp", "download", "stop"})));
  const auto refused = [](const std::vector<std::string>& words) {
    const auto c = zperf::parse_command(words);
    EXPECT_TRUE(std::holds_alternative<zperf::refusal>(c));
    std::string all;
    if (const auto* r = std::get_if<zperf::refusal>(&c)) {
      for (const auto& l : r->lines) all += l + "|";
    }
    return all;
  };
  EXPECT_THAT(refused({"udp", "upload"}), HasSubstr("Not enough parameters."));
  EXPECT_THAT(refused({"udp", "upload", "pc.local"}), HasSubstr("Invalid IP address pc.local"));
  EXPECT_THAT(refused({"udp", "upload", "-i", "1", "10.0.0.1"}),
              HasSubstr("UDP does not support -i option"));
  EXPECT_THAT(refused({"udp", "upload", "-x", "10.0.0.1"}), HasSubstr("Unrecognized argument: -x"));
  EXPECT_THAT(refused({"udpp", "upload"}), HasSubstr("udpp: command not found"));
}

TEST(McuSimZperfText, NumbersInZperfsUnits) {
  EXPECT_EQ(zperf::time_text(10'010'000), "10.01 s");
  EXPECT_EQ(zperf::time_text(250'000), "250.00 ms");
  EXPECT_EQ(zperf::time_text(63), "63 us");
  EXPECT_EQ(zperf::time_text(63'000'000), "1.05 m");
  EXPECT_EQ(zperf::rate_text(27'000), "27.00 Mbps");
  EXPECT_EQ(zperf::rate_text(26'972), "26.97 Mbps");
  EXPECT_EQ(zperf::rate_text(950), "950 Kbps");
  EXPECT_EQ(zperf::prompt(), "\x1b[1;32muart:~$ \x1b[m");
  EXPECT_EQ(zperf::asynchronous("New session started.\n", ""),
            "\x1b[8D\x1b[JNew session started.\n\x1b[1;32muart:~$ \x1b[m")
      << "another thread's text: the prompt line erased, the text, the prompt drawn again";
  EXPECT_EQ(zperf::asynchronous("x\n", "zp"), "\x1b[10D\x1b[Jx\n\x1b[1;32muart:~$ \x1b[mzp");
  EXPECT_EQ(zperf::log_line(3'723'450, "inf", "wifi", "up"), "[01:02:03.450,000] <inf> wifi: up");
}

TEST(McuSimZperfReport, AUdpUploadsStatisticsReadBackByTheDialect) {
  const auto u = upload_of("udp upload 198.18.0.195 5001 10 1024 27M");
  EXPECT_EQ(zperf::upload_start(u),
            "Duration:\t10.00 s\nPacket size:\t1024 bytes\nRate:\t\t27000 kbps\nStarting...\n"
            "Rate:\t\t27.00 Mbps\nPacket duration 296 us\n");
  const std::string stats = zperf::upload_stats(
      run_protocol::udp, zperf::upload_results(u, read_run_text(udp_client_output)));
  EXPECT_EQ(stats,
            "-\nUpload completed!\nStatistics:\t\tserver\t(client)\nDuration:\t\t10.00 s\t(10.00 "
            "s)\nNum packets:\t\t32959\t(32960)\nNum packets out order:\t0\nNum packets lost:\t1\n"
            "Jitter:\t\t\t63 us\nRate:\t\t\t26.97 Mbps\t(27.00 Mbps)\n");
  const std::string console = crlf("zperf udp upload 198.18.0.195 5001 10 1024 27M\n" + u.said[0] +
                                   "\n" + u.said[1] + "\n" + zperf::upload_start(u) + stats) +
                              zperf::prompt();
  for (const std::size_t split : {1U, 7U, 4096U}) {
    const auto r =
        read_back(firmware::zperf(),
                  report_request(firmware::iperf_role::client, firmware::iperf_protocol::udp),
                  console, split);
    EXPECT_EQ(r.mbit_per_second, 26.97) << split << ": the server's figure";
    EXPECT_EQ(r.seconds, 10.0) << split;
    EXPECT_EQ(r.total, 32959U) << split;
    EXPECT_EQ(r.lost, 1U) << split;
    EXPECT_TRUE(r.errors.empty()) << split;
  }
}

TEST(McuSimZperfReport, AUdpUploadWithoutAServerReport) {
  const auto u = upload_of("udp upload 198.18.0.195 5001 10 1024 27M");
  const std::string stats = zperf::upload_stats(
      run_protocol::udp,
      zperf::upload_results(u, read_run_text("[  1] 0.0000-10.0001 sec  33751040 Bytes  27000000 "
                                             "bits/sec\n[  1] Sent 32960 datagrams\n")));
  EXPECT_THAT(stats, HasSubstr("\x1b[1;31mLAST PACKET NOT RECEIVED!!!\n\x1b[m"));
  EXPECT_THAT(stats, HasSubstr("Rate:\t\t\t0 Kbps\t(27.00 Mbps)"));
  const auto r = firmware::zperf().parse(stats);
  EXPECT_THAT(r.errors, ElementsAre("LAST PACKET NOT RECEIVED!!!"));
}

TEST(McuSimZperfReport, ATcpUploadsStatistics) {
  const auto u = upload_of("tcp upload 198.18.0.195 5001 10 1024");
  const std::string stats = zperf::upload_stats(
      run_protocol::tcp, zperf::upload_results(u, read_run_text(tcp_client_output)));
  EXPECT_EQ(stats,
            "-\nUpload completed!\nDuration:\t10.02 s\nNum packets:\t28672\nNum errors:\t0 (retry "
            "or fail)\nRate:\t\t23.43 Mbps\n");
  const auto r = read_back(
      firmware::zperf(),
      report_request(firmware::iperf_role::client, firmware::iperf_protocol::tcp),
      crlf("zperf tcp upload 198.18.0.195 5001 10 1024\n" + zperf::upload_start(u) + stats) +
          zperf::prompt(),
      5);
  EXPECT_EQ(r.mbit_per_second, 23.43);
  EXPECT_EQ(r.seconds, 10.02);
}

TEST(McuSimZperfReport, ADownloadSessionsReportPieceByPiece) {
  const auto text = read_run_text(udp_server_output);
  ASSERT_EQ(text.udp.size(), 1U);
  const auto pieces = zperf::session_end(run_protocol::udp, zperf::session_results(text.udp[0], 0));
  EXPECT_THAT(pieces, ElementsAre("End of session!\n", " duration:\t\t", "10.00 s", "\n",
                                  " received packets:\t24338\n", " nb packets lost:\t12\n",
                                  " nb packets outorder:\t0\n", " jitter:\t\t\t", "120 us", "\n",
                                  " rate:\t\t\t", "28.61 Mbps", "\n"));
  std::string clean;
  for (const auto& p : pieces) clean += p;
  const auto r = firmware::zperf().parse(clean);
  EXPECT_EQ(r.mbit_per_second, 28.61);
  EXPECT_EQ(r.lost, 12U);
  EXPECT_EQ(r.total, 24350U) << "received and lost";

  // As the board sends it: each piece from the session's thread, between the prompt erased and
  // drawn again. The end marker and the counts come through whatever the split.
  std::string console =
      crlf("zperf udp download 5001\n" + zperf::server_started(run_protocol::udp, 5001)) +
      zperf::prompt() + crlf(zperf::asynchronous(zperf::session_started(run_protocol::udp), ""));
  for (const auto& p : pieces) console += crlf(zperf::asynchronous(p, ""));
  for (const std::size_t split : {1U, 13U, 4096U}) {
    const auto d =
        read_back(firmware::zperf(),
                  report_request(firmware::iperf_role::server, firmware::iperf_protocol::udp),
                  console, split);
    EXPECT_EQ(d.lost, 12U) << split;
    EXPECT_EQ(d.total, 24350U) << split;
    EXPECT_TRUE(d.errors.empty()) << split;
  }
  const auto tcp = zperf::session_end(
      run_protocol::tcp,
      zperf::session_results(read_run_text("[  1] 0.0000-10.0073 sec  30628659 Bytes  24484000 "
                                           "bits/sec\n")
                                 .own.at(0),
                             0));
  EXPECT_THAT(tcp, ElementsAre("TCP session ended\n", " Duration:\t\t", "10.00 s", "\n",
                               " rate:\t\t\t", "24.48 Mbps", "\n"));
}

TEST(McuSimStockIperf, CommandLinesThatPlayTheRuns) {
  stock_plan client;
  client.role = run_role::client;
  client.protocol = run_protocol::udp;
  client.peer = "198.18.0.195";
  client.seconds = 10;
  client.bits_per_second = 27'000'000;
  client.length = 1024;
  EXPECT_THAT(stock_argv(client, "iperf"),
              ElementsAre("iperf", "-c", "198.18.0.195", "-p", "5001", "-t", "10", "-f", "b", "-u",
                          "-b", "27000000", "-l", "1024"));
  stock_plan server;
  server.role = run_role::server;
  server.protocol = run_protocol::udp;
  server.port = 5002;
  server.no_udp_fin = true;
  EXPECT_THAT(stock_argv(server, "iperf"),
              ElementsAre("iperf", "-s", "-p", "5002", "-f", "b", "-u", "--no-udp-fin"));
  server.protocol = run_protocol::tcp;
  EXPECT_THAT(stock_argv(server, "iperf"), ElementsAre("iperf", "-s", "-p", "5002", "-f", "b"))
      << "TCP has no end-of-test datagram";
}

}  // namespace
}  // namespace hil::mcu_sim
