// The ST67W6X dialect on console text rebuilt from the firmware's format strings (iperf_shell.c,
// iperf.c): procedure 002's four commands, the units -b takes, and the report lines of each run,
// read through the expect buffer to the end marker whatever the reads' split.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "hil/console/expect_buffer.hpp"
#include "hil/firmware/dialect.hpp"

namespace {

using hil::firmware::iperf_protocol;
using hil::firmware::iperf_request;
using hil::firmware::iperf_role;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

const hil::firmware::dialect& st() { return hil::firmware::st67w6x(); }

iperf_request request(iperf_role role, iperf_protocol protocol) {
  iperf_request r;
  r.role = role;
  r.protocol = protocol;
  r.peer_address = "192.168.8.1";
  r.bitrate_bps = 50'000'000;
  r.duration = 10s;
  return r;
}

TEST(St67w6x, TheProceduresFourCommands) {
  EXPECT_EQ(st().command(request(iperf_role::client, iperf_protocol::udp)),
            "iperf -c 192.168.8.1 -u -b 50 -t 10");
  EXPECT_EQ(st().command(request(iperf_role::server, iperf_protocol::udp)), "iperf -s -u -t 10");
  EXPECT_EQ(st().command(request(iperf_role::client, iperf_protocol::tcp)),
            "iperf -c 192.168.8.1 -t 10");
  EXPECT_EQ(st().command(request(iperf_role::server, iperf_protocol::tcp)), "iperf -s -t 10");
  auto other_port = request(iperf_role::server, iperf_protocol::tcp);
  other_port.port = 5002;
  EXPECT_EQ(st().command(other_port), "iperf -s -t 10 -p 5002");
}

TEST(St67w6x, ARateItsWholeMbitCannotSayIsRefusedNamingTheNeighbours) {
  auto r = request(iperf_role::client, iperf_protocol::udp);
  r.bitrate_bps = 27'500'000;
  try {
    (void)st().command(r);
    FAIL() << "27.5 Mbit/s was typed";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("27.5 Mbit/s cannot be asked (use 27 or 28)"));
  }
  r.bitrate_bps = 0;
  EXPECT_THROW((void)st().command(r), std::invalid_argument) << "the firmware's 1 Mbit/s default";
  r = request(iperf_role::client, iperf_protocol::udp);
  r.peer_address.clear();
  EXPECT_THROW((void)st().command(r), std::invalid_argument);
}

// One run as the console shows it, through the prompt, read to the end marker in reads of
// `split` bytes; the run's text through the marker parsed.
hil::firmware::firmware_report run(const std::string& console, std::size_t split) {
  hil::console::expect_buffer b;
  std::optional<hil::console::expect_match> end;
  const auto markers = st().end_markers(request(iperf_role::client, iperf_protocol::udp));
  for (std::size_t at = 0; at < console.size() && !end; at += split) {
    b.feed(std::string_view(console).substr(at, split));
    end = b.take(markers);
  }
  EXPECT_TRUE(end) << "no end marker";
  return st().parse(end ? end->before + end->matched : "");
}

const std::string udp_client =
    "iperf -c 192.168.8.1 -u -b 50 -t 10\n\x1b[36mw61/>\x1b[0m"
    "------------------------------------------------------------\n"
    "[UDP] Client connecting to 192.168.8.1, port 5001\nSending 1470 bytes datagrams\n"
    "------------------------------------------------------------\n"
    "[ ID] Interval       Transfer        Bandwidth\n"
    "[  1]  0.0-10.0 sec  32.42 MBytes    27.2 Mbits/sec\n"
    "[ ID]  Jitter        Lost/Total Datagrams\n"
    "[  1] 12.345 ms    12/ 23128 (0%)\n"
    "iperf exit\n\x1b[36mw61/>\x1b[0m";

TEST(St67w6x, AUdpClientsSummaryAndThePeersLossCount) {
  for (const std::size_t split : {1U, 5U, 64U, 4096U}) {
    const auto r = run(udp_client, split);
    EXPECT_EQ(r.seconds, 10.0) << split;
    EXPECT_EQ(r.mbit_per_second, 27.2) << split;
    EXPECT_EQ(r.lost, 12U) << split;
    EXPECT_EQ(r.total, 23128U) << split;
    EXPECT_TRUE(r.errors.empty()) << split;
  }
}

TEST(St67w6x, AUdpServersSummaryWithItsMisprintedMegabytesAndAnIntervalLine) {
  // -i 1 adds interval lines from 0.0 too; the summary is the one that ends last. The server
  // prints 27.3 MBytes as "27.03" (%02u of one decimal): only the bandwidth is read.
  const auto r =
      run("iperf -s -u -t 10\n\x1b[36mw61/>\x1b[0m[UDP] Server listening on port 5001\n"
          "[ ID] Interval       Transfer        Bandwidth\n"
          "[  1] 0.0-1.0 sec   3.30 MBytes    27.7 Mbits/sec\n"
          "[  1]  0.0-10.0 sec  33.03 MBytes    27.7 Mbits/sec\n"
          "[ ID]                Lost/Total Datagrams\n"
          "[  1]                  12/ 23563 ( 0.0%)\n"
          "iperf exit\n",
          7);
  EXPECT_EQ(r.seconds, 10.0);
  EXPECT_EQ(r.mbit_per_second, 27.7);
  EXPECT_EQ(r.lost, 12U);
  EXPECT_EQ(r.total, 23563U);
}

TEST(St67w6x, ATcpServerThatEndsOnARecvErrorQuotesItAndKeepsItsSummary) {
  const auto r =
      run("iperf -s -t 10\n\x1b[36mw61/>\x1b[0m[TCP] Server listening on port 5001\n"
          "[  1]  0.0-10.0 sec  29.21 MBytes    24.5 Mbits/sec\n"
          "tcp server recv error, error code: 11, reason: Resource temporarily unavailable\n"
          "[ERROR] [4000] [ST67W6XTask] (w61_at_common.c:375) sem_if_ready not received\n"
          "iperf exit\n",
          3);
  EXPECT_EQ(r.mbit_per_second, 24.5);
  EXPECT_FALSE(r.lost) << "TCP has no datagrams";
  EXPECT_THAT(r.errors, ElementsAre("tcp server recv error, error code: 11, reason: Resource "
                                    "temporarily unavailable"));
  EXPECT_THAT(r.log_errors, ElementsAre(HasSubstr("sem_if_ready not received")));
}

TEST(St67w6x, TheShellsAndTheHandlersRefusalsAreErrors) {
  EXPECT_THAT(st().parse("iperff -s\niperff: command not found.\n").errors,
              ElementsAre("iperff: command not found."));
  EXPECT_THAT(st().parse("iperf -x\nUnknown argument. Usage: iperf [-s|-c host]\n").errors,
              ElementsAre("Unknown argument. Usage: iperf [-s|-c host]"));
  EXPECT_THAT(st().parse("[iperf] Socket unable to bind: errno 98\n").errors,
              ElementsAre("[iperf] Socket unable to bind: errno 98"));
  EXPECT_TRUE(st().parse("").errors.empty());
  EXPECT_FALSE(st().parse("").seconds);
}

TEST(St67w6x, IsFoundByItsNameAndAbortsWithDashA) {
  EXPECT_EQ(hil::firmware::dialect_named("st67w6x"), &st());
  EXPECT_EQ(hil::firmware::dialect_named("st67"), nullptr);
  EXPECT_EQ(st().abort(request(iperf_role::server, iperf_protocol::udp)), "iperf -a");
  EXPECT_EQ(st().line_ending, "\n");
}

// A server is under way once its banner names the port (the firmware prints it once bound); a
// client once its command is typed.
TEST(St67w6x, AServersReadyMarkerIsItsListeningLine) {
  auto r = request(iperf_role::server, iperf_protocol::udp);
  r.port = 5002;
  const auto ready = st().ready(r);
  ASSERT_EQ(ready.size(), 1U);
  EXPECT_TRUE(ready[0].find("------\n[UDP] Server listening on port 5002\n"));
  EXPECT_FALSE(ready[0].find("[UDP] Server listening on port 5001\n"));
  const auto tcp = st().ready(request(iperf_role::server, iperf_protocol::tcp));
  ASSERT_EQ(tcp.size(), 1U);
  EXPECT_TRUE(tcp[0].find("[TCP] Server listening on port 5001"));
  EXPECT_TRUE(st().ready(request(iperf_role::client, iperf_protocol::udp)).empty());
}

}  // namespace
