// The zperf and ESP-IDF dialects on console text rebuilt from the firmwares' format strings
// (zperf_shell.c; iperf_report.c), read through the expect buffer to each run's end marker
// whatever the reads' split.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "hil/console/expect_buffer.hpp"
#include "hil/firmware/dialect.hpp"

namespace {

using hil::firmware::dialect;
using hil::firmware::iperf_protocol;
using hil::firmware::iperf_request;
using hil::firmware::iperf_role;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

iperf_request request(iperf_role role, iperf_protocol protocol) {
  iperf_request r;
  r.role = role;
  r.protocol = protocol;
  r.peer_address = "198.18.0.195";
  r.bitrate_bps = 27'000'000;
  r.duration = 10s;
  return r;
}

// The run's text through its end marker, read in reads of `split` bytes, and what came after.
struct read_run {
  std::string text;
  std::string after;
};
read_run through_end(const dialect& d, const iperf_request& r, const std::string& console,
                     std::size_t split) {
  hil::console::expect_buffer b;
  std::optional<hil::console::expect_match> end;
  const auto markers = d.end_markers(r);
  for (std::size_t at = 0; at < console.size(); at += split) {
    b.feed(std::string_view(console).substr(at, split));
    if (!end) end = b.take(markers);
  }
  EXPECT_TRUE(end) << "no end marker";
  return {end ? end->before + end->matched : "", std::string(b.unread())};
}

TEST(Zperf, CommandsTakePositionalArgumentsAndDecimalRates) {
  const auto& z = hil::firmware::zperf();
  EXPECT_EQ(z.command(request(iperf_role::client, iperf_protocol::udp)),
            "zperf udp upload 198.18.0.195 5001 10 1024 27M");
  auto r = request(iperf_role::client, iperf_protocol::udp);
  r.bitrate_bps = 27'500'000;
  r.datagram_bytes = 1000;
  EXPECT_EQ(z.command(r), "zperf udp upload 198.18.0.195 5001 10 1000 27500K");
  r.bitrate_bps = 27'500'001;
  EXPECT_THROW((void)z.command(r), std::invalid_argument);
  EXPECT_EQ(z.command(request(iperf_role::client, iperf_protocol::tcp)),
            "zperf tcp upload 198.18.0.195 5001 10 1024");
  EXPECT_EQ(z.command(request(iperf_role::server, iperf_protocol::udp)), "zperf udp download 5001");
  EXPECT_EQ(z.abort(request(iperf_role::server, iperf_protocol::tcp)), "zperf tcp download stop");
  EXPECT_EQ(z.abort(request(iperf_role::client, iperf_protocol::udp)), "") << "an upload blocks";
}

const std::string zperf_upload =
    "zperf udp upload 198.18.0.195 5001 10 1024 27M\r\n"
    "Remote port is 5001\r\nConnecting to 198.18.0.195\r\nDuration:\t10.00 s\r\n"
    "Packet size:\t1024 bytes\r\nRate:\t\t27000 kbps\r\nStarting...\r\nRate:\t\t27.00 Mbps\r\n"
    "Packet duration 0 ms\r\n-\r\nUpload completed!\r\nStatistics:\t\tserver\t(client)\r\n"
    "Duration:\t\t10.01 s\t(10.00 s)\r\nNum packets:\t\t32959\t(32960)\r\n"
    "Num packets out order:\t0\r\nNum packets lost:\t1\r\nJitter:\t\t\t63 us\r\n"
    "Rate:\t\t\t26.97 Mbps\t(27.00 Mbps)\r\n\x1b[1;32muart:~$ \x1b[m";

TEST(Zperf, AnUploadsStatisticsAreItsReport) {
  const auto& z = hil::firmware::zperf();
  for (const std::size_t split : {1U, 9U, 4096U}) {
    const auto run =
        through_end(z, request(iperf_role::client, iperf_protocol::udp), zperf_upload, split);
    const auto r = z.parse(run.text);
    EXPECT_EQ(r.mbit_per_second, 26.97) << split << ": the server's figure";
    EXPECT_EQ(r.seconds, 10.01) << split;
    EXPECT_EQ(r.total, 32959U) << split;
    EXPECT_EQ(r.lost, 1U) << split;
    EXPECT_TRUE(r.errors.empty()) << split;
    EXPECT_THAT(run.after, HasSubstr("uart:~$")) << split << ": the prompt is left unread";
  }
}

TEST(Zperf, ADownloadsSessionReportAndAFailedUpload) {
  const auto& z = hil::firmware::zperf();
  const std::string download =
      "zperf udp download 5001\nUDP server started on port 5001\nuart:~$ New session started.\n"
      "End of session!\n duration:\t\t10.00 s\n received packets:\t23551\n"
      " nb packets lost:\t12\n nb packets outorder:\t0\n jitter:\t\t\t120 us\n"
      " rate:\t\t\t27.70 Mbps\n";
  const auto run =
      through_end(z, request(iperf_role::server, iperf_protocol::udp), download, 5).text;
  const auto r = z.parse(run);
  EXPECT_EQ(r.mbit_per_second, 27.70);
  EXPECT_EQ(r.lost, 12U);
  EXPECT_EQ(r.total, 23563U) << "received and lost";
  const auto failed = through_end(z, request(iperf_role::client, iperf_protocol::tcp),
                                  "zperf tcp upload 198.18.0.195 5001 10 1024\n"
                                  "TCP upload failed (-111)\nuart:~$ ",
                                  3);
  EXPECT_THAT(z.parse(failed.text).errors, ElementsAre("TCP upload failed (-111)"));
  EXPECT_THAT(z.parse("Rate:\t\t\t950 Kbps\t(951 Kbps)\n").mbit_per_second, 0.95);
}

TEST(Zperf, ADownloadsReportReadsThroughThePromptsTheShellDrawsAgain) {
  // As the shell sends it (Zephyr's shell_vfprintf from another thread): each print erases the
  // prompt, prints, and draws the coloured prompt again, so a label and its figure arrive with a
  // prompt between them.
  const std::string p = "\x1b[1;32muart:~$ \x1b[m\x1b[8D\x1b[J";
  const std::string download =
      "zperf udp download 5001\r\nUDP server started on port 5001\r\n" + p + "End of session!\r\n" +
      p + " duration:\t\t" + p + "5.00 s" + p + "\r\n" + p + " received packets:\t11482\r\n" + p +
      " nb packets lost:\t0\r\n" + p + " nb packets outorder:\t0\r\n" + p + " jitter:\t\t\t" + p +
      "370 us" + p + "\r\n" + p + " rate:\t\t\t" + p + "26.99 Mbps" + p + "\r\n" + p;
  const auto& z = hil::firmware::zperf();
  for (const std::size_t split : {1U, 7U, 4096U}) {
    const auto run =
        through_end(z, request(iperf_role::server, iperf_protocol::udp), download, split);
    const auto r = z.parse(run.text);
    EXPECT_EQ(r.mbit_per_second, 26.99) << split;
    EXPECT_EQ(r.seconds, 5.0) << split;
    EXPECT_EQ(r.lost, 0U) << split;
    EXPECT_EQ(r.total, 11482U) << split;
  }
}

TEST(EspIdf, CommandsUseDecimalSuffixesAndOneReportOfTheWholeRun) {
  const auto& e = hil::firmware::esp_idf();
  EXPECT_EQ(e.command(request(iperf_role::client, iperf_protocol::udp)),
            "iperf -c 198.18.0.195 -u -b 27m -t 10 -i 10");
  EXPECT_EQ(e.command(request(iperf_role::server, iperf_protocol::tcp)), "iperf -s -t 10 -i 10");
  auto r = request(iperf_role::client, iperf_protocol::udp);
  r.bitrate_bps = 0;
  EXPECT_THROW((void)e.command(r), std::invalid_argument);
  EXPECT_EQ(e.abort(r), "iperf --abort");
}

TEST(EspIdf, TheSummaryOfTheRunsLengthEndsIt) {
  const auto& e = hil::firmware::esp_idf();
  const std::string console =
      "iperf -s -u -t 10 -i 10\nI (5230) iperf: mode=udp-server sip=198.18.0.10:5001, "
      "dip=0.0.0.0:5001, interval=10, time=10\niperf> I (5240) iperf(id=1): [UDP Server] Socket "
      "created\n\n[ ID] Interval\t\tTransfer\tBandwidth\n"
      "W (9000) iperf: report_task is starving for execution time!\n"
      "[  1]  0.0-10.0 sec\t33.03 MBytes\t27.71 Mbits/sec\nI (15300) iperf: iperf exit\n";
  const auto run =
      through_end(e, request(iperf_role::server, iperf_protocol::udp), console, 4).text;
  const auto r = e.parse(run);
  EXPECT_EQ(r.seconds, 10.0);
  EXPECT_EQ(r.mbit_per_second, 27.71);
  EXPECT_FALSE(r.lost) << "it counts bytes only";
  EXPECT_THAT(e.parse("W (9000) iperf: udp client send error, error code: 12, reason: Out of "
                      "memory\n")
                  .errors,
              ElementsAre(HasSubstr("error code: 12")));
  EXPECT_EQ(e.parse("[  1]  0.0-10.0 sec\t1.20 MBytes\t950.00 Kbits/sec\n").mbit_per_second, 0.95);
}

// A server's ready line as each prints it; a client has none (its command starts it).
TEST(EspIdf, ATrafficTaskThatGaveUpEndsTheRunQuotingBothLines) {
  // No summary follows: the socket's W line, then the traffic task's E line, then the prompt.
  const auto& e = hil::firmware::esp_idf();
  const std::string console =
      "iperf -c 198.18.0.195 -u -b 27m -t 10 -i 10\n"
      "W (5300) iperf(id=1): sendto error, error code: 12, reason: Out of memory\n"
      "E (5301) iperf: iperf_traffic_task(621): an error occurred while running udp client\n"
      "iperf> ";
  for (const std::size_t split : {1U, 9U, 4096U}) {
    const auto run =
        through_end(e, request(iperf_role::client, iperf_protocol::udp), console, split);
    EXPECT_THAT(
        e.parse(run.text).errors,
        ElementsAre("W (5300) iperf(id=1): sendto error, error code: 12, reason: Out of memory",
                    "an error occurred while running udp client"))
        << split;
  }
  const auto unknown =
      through_end(e, request(iperf_role::client, iperf_protocol::tcp),
                  "iperf -c 198.18.0.195 -t 10 -i 10\nUnrecognized command\niperf> ", 5);
  EXPECT_THAT(e.parse(unknown.text).errors, ElementsAre("Unrecognized command"));
}

TEST(Dialects, AServersReadyMarker) {
  const auto& z = hil::firmware::zperf();
  const auto& e = hil::firmware::esp_idf();
  const auto udp_server = request(iperf_role::server, iperf_protocol::udp);
  const auto tcp_server = request(iperf_role::server, iperf_protocol::tcp);
  ASSERT_EQ(z.ready(udp_server).size(), 1U);
  EXPECT_TRUE(z.ready(udp_server)[0].find("UDP server started on port 5001\n"));
  EXPECT_TRUE(z.ready(tcp_server)[0].find("TCP server started on port 5001\n"));
  EXPECT_FALSE(z.ready(udp_server)[0].find("UDP server already started!\n"));
  ASSERT_EQ(e.ready(udp_server).size(), 1U);
  EXPECT_TRUE(e.ready(udp_server)[0].find("I (2519) iperf(id=1): [UDP Server] Socket created\n"));
  EXPECT_TRUE(e.ready(tcp_server)[0].find("I (2519) iperf(id=1): [TCP Server] Socket created\n"));
  for (const auto* d : {&z, &e}) {
    EXPECT_TRUE(d->ready(request(iperf_role::client, iperf_protocol::udp)).empty()) << d->name;
  }
}

// `zperf udp download stop` ends a download (its abort): its answer is an end marker.
TEST(Zperf, ADownloadStoppedByItsAbortEnds) {
  const auto& z = hil::firmware::zperf();
  const auto r = request(iperf_role::server, iperf_protocol::udp);
  EXPECT_EQ(z.abort(r), "zperf udp download stop");
  const std::string console =
      "zperf udp download 5001\nUDP server started on port 5001\nuart:~$ "
      "zperf udp download stop\nUDP server stopped\nuart:~$ ";
  for (const std::size_t split : {1U, 7U, 300U}) {
    EXPECT_THAT(through_end(z, r, console, split).text, HasSubstr("UDP server stopped"));
  }
}

TEST(Dialects, EachIsFoundByItsName) {
  EXPECT_EQ(hil::firmware::dialect_named("zperf"), &hil::firmware::zperf());
  EXPECT_EQ(hil::firmware::dialect_named("esp-idf"), &hil::firmware::esp_idf());
  EXPECT_EQ(hil::firmware::dialect_named("st67w6x"), &hil::firmware::st67w6x());
  EXPECT_EQ(hil::firmware::dialect_named("lwiperf"), nullptr);
}

}  // namespace
