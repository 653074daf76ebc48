// The simulated ESP-IDF iperf console's pure parts (esp_text.hpp, esp_report.hpp): what the
// command reads from its arguments (-b's suffixes among them), its log and report lines, the
// report written from stock iPerf 2's output (Debian's 2.1.8 with -f b, shaped as it prints
// them), read back through hil::console's expect buffer by hilperf's own ESP-IDF dialect as a case
// reads a real board, in reads of any size.
#include "esp_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dialect_read_back.hpp"
#include "esp_text.hpp"
#include "hil/firmware/dialect.hpp"
#include "iperf2_text.hpp"
#include "shell_plumbing.hpp"

namespace hil::mcu_sim {
namespace {

using test::read_back;
using test::report_request;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string udp_client_output =
    "[  1] local 198.18.0.10 port 40000 connected with 198.18.0.195 port 5001\n"
    "[ ID] Interval       Transfer     Bandwidth\n"
    "[  1] 0.0000-10.0002 sec  33758550 Bytes  27006000 bits/sec\n"
    "[  1] Sent 22965 datagrams\n";

const std::string udp_server_output =
    "[  1] local 198.18.0.10 port 5001 connected with 198.18.0.195 port 40000\n"
    "[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
    "[  1] 0.0000-10.0039 sec  34627320 Bytes  27690000 bits/sec   0.120 ms 12/23568 (0.051%)\n";

esp::run run_of(const std::vector<std::string>& words) {
  const auto c = esp::parse_iperf(words);
  EXPECT_TRUE(std::holds_alternative<esp::run>(c));
  return std::holds_alternative<esp::run>(c) ? std::get<esp::run>(c) : esp::run{};
}

esp::refusal refusal_of(const std::vector<std::string>& words) {
  const auto c = esp::parse_iperf(words);
  EXPECT_TRUE(std::holds_alternative<esp::refusal>(c));
  return std::holds_alternative<esp::refusal>(c) ? std::get<esp::refusal>(c) : esp::refusal{};
}

std::string lines_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

TEST(McuSimEspText, ReadsTheCommandsHilperfTypes) {
  const auto c = run_of({"-c", "198.18.0.195", "-u", "-b", "27m", "-t", "10", "-i", "10"});
  EXPECT_EQ(c.role, run_role::client);
  EXPECT_EQ(c.protocol, run_protocol::udp);
  EXPECT_EQ(c.peer, "198.18.0.195");
  EXPECT_EQ(c.bits_per_second, 27'000'000);
  EXPECT_EQ(c.time, 10);
  EXPECT_EQ(c.interval, 10);
  const auto s = run_of({"-s", "-u", "-t", "10", "-i", "10", "-p", "5002"});
  EXPECT_EQ(s.role, run_role::server);
  EXPECT_EQ(s.port, 5002);
  const auto d = run_of({"-c", "10.0.0.1"});
  EXPECT_EQ(d.time, 30) << "IPERF_DEFAULT_TIME, whatever the help text says";
  EXPECT_EQ(d.interval, 3);
  EXPECT_EQ(d.bits_per_second, -1) << "no limit";
  EXPECT_EQ(run_of({"-c", "10.0.0.1", "-t", "2"}).time, 3) << "-t raised to the interval";
  EXPECT_EQ(run_of({"--client=10.0.0.1", "--time", "20", "-i20"}).time, 20);
  EXPECT_TRUE(std::holds_alternative<esp::abort_all>(esp::parse_iperf({"--abort"})));
}

TEST(McuSimEspText, BandwidthSuffixesAreDecimalLowerAndBinaryUpper) {
  EXPECT_EQ(esp::bandwidth_of("50M"), 52'428'800) << "-b 50M is 52.4 Mbit/s";
  EXPECT_EQ(esp::bandwidth_of("50m"), 50'000'000);
  EXPECT_EQ(esp::bandwidth_of("27500k"), 27'500'000);
  EXPECT_EQ(esp::bandwidth_of("2K"), 2048);
  EXPECT_EQ(esp::bandwidth_of("1000"), 1000) << "no suffix: bits/s";
  EXPECT_EQ(esp::bandwidth_of("0"), -1);
  EXPECT_EQ(esp::bandwidth_of("x"), -1);
  EXPECT_EQ(esp::bandwidth_of("3G"), -1) << "past 32 bits";
}

TEST(McuSimEspText, RefusalsAsTheCommandPrintsThem) {
  EXPECT_EQ(refusal_of({"-u", "-t", "10"}).error_log, "should specific client/server mode");
  EXPECT_EQ(refusal_of({"-u", "-t", "10"}).returned, 0);
  EXPECT_EQ(refusal_of({"-c", "pc.local"}).error_log, "invalid destination address");
  EXPECT_EQ(refusal_of({"-c", "pc.local"}).returned, 1);
  EXPECT_THAT(refusal_of({"-s", "-x"}).lines, ElementsAre("iperf: invalid option \"-x\""));
  EXPECT_THAT(refusal_of({"-s", "-t", "ten"}).lines,
              ElementsAre("iperf: invalid argument \"ten\" to option -t"));
  EXPECT_THAT(refusal_of({"-s", "-t"}).lines,
              ElementsAre("iperf: option \"-t\" requires an argument"));
}

TEST(McuSimEspText, LinesInTheFirmwaresFormats) {
  EXPECT_EQ(esp::log_line('I', 5230, "IPERF", "DONE.IPERF_STOP,OK"),
            "\x1b[0;32mI (5230) IPERF: DONE.IPERF_STOP,OK\x1b[0m");
  EXPECT_EQ(esp::log_line('W', 9000, esp::instance_tag(2), "x"),
            "\x1b[0;33mW (9000) iperf(id=2): x\x1b[0m");
  EXPECT_EQ(
      esp::mode_text(run_of({"-c", "198.18.0.195", "-u", "-b", "27m", "-t", "10", "-i", "10"})),
      "mode=udp-client sip=0.0.0.0:0, dip=198.18.0.195:5001, interval=10, time=10");
  EXPECT_EQ(esp::mode_text(run_of({"-s", "-t", "10", "-i", "10"})),
            "mode=tcp-server sip=0.0.0.0:5001, dip=0.0.0.0:0, interval=10, time=10");
  EXPECT_EQ(esp::traffic_line(1, 0, 10, 33'030'000, 'm'),
            "[  1]  0.0-10.0 sec\t33.03 MBytes\t26.42 Mbits/sec");
  EXPECT_EQ(esp::traffic_line(2, 3, 6, 1'200'000, 'k'),
            "[  2]  3.0- 6.0 sec\t1200.00 KBytes\t3200.00 Kbits/sec");
  EXPECT_EQ(esp::traffic_task_error(run_of({"-s", "-u"})),
            "iperf_traffic_task(619): an error occurred while running udp server");
  EXPECT_EQ(esp::prompt("iperf>"), "iperf> ");
}

TEST(McuSimEspReport, AUdpClientsReportReadBackByTheDialect) {
  const auto r = run_of({"-c", "198.18.0.195", "-u", "-b", "27m", "-t", "10", "-i", "10"});
  const auto text = read_run_text(udp_client_output);
  const auto head = esp::connect_lines(1, r, text.connections.at(0));
  EXPECT_THAT(head, ElementsAre("[  1] local 198.18.0.10:40000 connected to 198.18.0.195:5001",
                                "\n[ ID] Interval\t\tTransfer\tBandwidth"));
  const auto lines = esp::traffic_lines(1, r, text);
  EXPECT_THAT(lines, ElementsAre("[  1]  0.0-10.0 sec\t33.76 MBytes\t27.01 Mbits/sec",
                                 "[  1]  0.0-10.0 sec\t33.76 MBytes\t27.01 Mbits/sec"))
      << "the one period of the whole run, then the summary";
  const std::string console =
      crlf("iperf -c 198.18.0.195 -u -b 27m -t 10 -i 10\n" +
           esp::log_line('I', 5230, "IPERF", esp::mode_text(r)) + "\niperf> " + lines_of(head) +
           esp::log_line('I', 7000, "wifi", "station link up") + "\n" + lines_of(lines));
  for (const std::size_t split : {1U, 9U, 4096U}) {
    const auto f =
        read_back(firmware::esp_idf(),
                  report_request(firmware::iperf_role::client, firmware::iperf_protocol::udp),
                  console, split);
    EXPECT_EQ(f.seconds, 10.0) << split;
    EXPECT_EQ(f.mbit_per_second, 27.01) << split;
    EXPECT_FALSE(f.lost) << split << ": it counts bytes only";
    EXPECT_TRUE(f.errors.empty()) << split;
  }
}

TEST(McuSimEspReport, AServersReportAndItsConnectInfo) {
  const auto r = run_of({"-s", "-u", "-t", "10", "-i", "10"});
  const auto text = read_run_text(udp_server_output);
  EXPECT_THAT(esp::connect_lines(1, r, text.connections.at(0)).front(),
              "[  1] local 0.0.0.0:5001 connected to 198.18.0.195:40000")
      << "getsockname of a UDP socket bound to any address";
  EXPECT_THAT(esp::traffic_lines(1, r, text).back(),
              "[  1]  0.0-10.0 sec\t34.63 MBytes\t27.70 Mbits/sec")
      << "its ticks: 0 to -t, whatever iPerf 2 measured";
  const auto tcp = run_of({"-s", "-t", "10", "-i", "10"});
  EXPECT_THAT(esp::connect_lines(1, tcp, text.connections.at(0)).front(),
              "[  1] local 198.18.0.10:5001 connected to 198.18.0.195:40000");
}

TEST(McuSimEspReport, IntervalLinesBeforeTheSummary) {
  const auto r = run_of({"-c", "10.0.0.1", "-t", "2", "-i", "1"});
  const auto lines = esp::traffic_lines(
      1, r,
      read_run_text("[  1] 0.0000-1.0000 sec  3375000 Bytes  27000000 bits/sec\n"
                    "[  1] 1.0000-2.0000 sec  3375000 Bytes  27000000 bits/sec\n"
                    "[  1] 0.0000-2.0011 sec  6750000 Bytes  26985000 bits/sec\n"));
  EXPECT_THAT(lines, ElementsAre("[  1]  0.0- 1.0 sec\t3.38 MBytes\t27.00 Mbits/sec",
                                 "[  1]  1.0- 2.0 sec\t3.38 MBytes\t27.00 Mbits/sec",
                                 "[  1]  0.0- 2.0 sec\t6.75 MBytes\t27.00 Mbits/sec"));
  EXPECT_TRUE(esp::traffic_lines(1, r, read_run_text("")).empty());
}

}  // namespace
}  // namespace hil::mcu_sim
