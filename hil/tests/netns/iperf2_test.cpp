// iperf 2 against Debian's iperf 2.1.8 on the bench of this run (netns_main.cpp): our client
// against `iperf -s` and `iperf -s -u` in the peer namespace, stock `iperf -c` against
// hilperf-peer's iperf 2 port, and the wrong protocol named. Counts are compared where the
// protocol makes them exact; rates are not (they follow this machine's load).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hil/session/iperf2_client.hpp"
#include "hil/session/iperf2_server.hpp"
#include "hil/session/iperf3_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;
using hil::measure::protocol;

constexpr std::uint16_t iperf2_port = 5001;
constexpr std::uint16_t iperf3_port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address(bool ipv6) {
  const std::string cidr = ipv6 ? bench().peer_ipv6 : bench().peer_ipv4;
  return hil::sys::without_prefix(cidr);
}

std::vector<std::string> in_peer(std::vector<std::string> argv) {
  argv.insert(argv.begin(), {"ip", "netns", "exec", bench().peer_netns});
  return argv;
}

// True when the peer namespace has a socket listening on (TCP) or bound to (UDP) iperf2_port.
bool peer_port_open(bool udp) {
  const auto r = hil::sys::run(
      in_peer({"ss", "-H", udp ? "-lun" : "-ltn", "sport = :" + std::to_string(iperf2_port)}));
  return r.exit_code == 0 && r.output.find_first_not_of(" \t\r\n") != std::string::npos;
}

// Stock `iperf -s` for TCP and `iperf -s -u` for UDP (two processes, as iperf 2 needs), both
// dual-stack (-V), in the peer namespace. iperf 2 prints its banner from one thread and listens
// from another (strace: the banner can come first), so the ports themselves are waited for: a
// client right after the banner was refused once in a CI run.
struct stock_iperf2_servers {
  stock_iperf2_servers()
      : tcp(in_peer({"iperf", "-s", "-V", "-p", std::to_string(iperf2_port)})),
        udp(in_peer({"iperf", "-s", "-u", "-V", "-p", std::to_string(iperf2_port)})) {
    EXPECT_TRUE(tcp.wait_for_output("Server listening on TCP", 10s)) << tcp.output();
    EXPECT_TRUE(udp.wait_for_output("Server listening on UDP", 10s)) << udp.output();
    EXPECT_TRUE(hil::test::eventually([] { return peer_port_open(false); }, 5s))
        << "no TCP listener on " << iperf2_port << ": " << tcp.output();
    EXPECT_TRUE(hil::test::eventually([] { return peer_port_open(true); }, 5s))
        << "no UDP socket on " << iperf2_port << ": " << udp.output();
  }
  hil::sys::child_process tcp;
  hil::sys::child_process udp;
};

enum class way { forward, reverse, full_duplex };

struct client_case {
  std::string name;
  protocol proto;
  int parallel = 1;
  bool ipv6 = false;
  std::uint32_t datagram = 0;  // -l; 0: the default
  way direction = way::forward;
  std::uint64_t bytes = 0;  // -n; 0: -t 2
};
void PrintTo(const client_case& c, std::ostream* os) { *os << c.name; }

class Iperf2Client : public ::testing::TestWithParam<client_case> {};

TEST_P(Iperf2Client, AgainstStockServerBothEndsAgree) {
  const auto& c = GetParam();
  const stock_iperf2_servers servers;
  hil::session::client_options o;
  o.host = peer_address(c.ipv6);
  o.port = iperf2_port;
  o.spec.proto = c.proto;
  o.spec.duration = 2s;
  o.spec.bytes = c.bytes;
  o.spec.parallel = c.parallel;
  o.spec.reverse = c.direction == way::reverse;
  o.spec.bidirectional = c.direction == way::full_duplex;
  if (c.proto == protocol::udp) {
    o.spec.bitrate_bps = 50'000'000 / static_cast<std::uint64_t>(c.parallel);  // seed 002's -b 50M
    o.spec.bitrate_given = true;
    o.spec.block_len = c.datagram;
  }
  hil::measure::test_result r;
  try {
    r = hil::session::run_iperf2_client(o);
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\nstock TCP server:\n"
           << servers.tcp.output() << "\nstock UDP server:\n"
           << servers.udp.output();
  }
  const int per_connection = c.direction == way::full_duplex ? 2 : 1;
  ASSERT_EQ(r.streams.size(), static_cast<std::size_t>(c.parallel * per_connection));
  const std::uint64_t len = r.spec.effective_block_len();
  EXPECT_EQ(len, c.proto == protocol::tcp ? 128U << 10
                 : c.datagram != 0        ? c.datagram
                 : c.ipv6                 ? 1450U
                                          : 1470U)
      << "iperf 2's defaults";
  int sending = 0;
  for (const auto& s : r.streams) {
    SCOPED_TRACE("stream " + std::to_string(s.id));
    sending += s.local_sends ? 1 : 0;
    EXPECT_GT(s.sender.bytes, 0U);
    if (c.proto == protocol::tcp) {
      // Ours: the server closed after reading to our end of stream (full duplex: its TCP
      // acknowledged every byte). Its: we read to its close.
      EXPECT_EQ(s.receiver.bytes, s.sender.bytes);
      if (c.bytes != 0) {
        EXPECT_EQ(s.receiver.bytes, c.bytes) << "-n is exact";
      }
      continue;
    }
    // Forward: the report's highest sequence is the FIN's (sent + 1), taken out on both ends;
    // the receiver's bytes follow from its counts (a 2.1.8 server reads at most 1470 bytes of
    // each datagram, so its byte count is not the datagrams'). -R: the server's FIN says how
    // many it sent, and what did not arrive is lost, tail included.
    EXPECT_EQ(s.receiver.packets, s.sender.packets);
    EXPECT_EQ(s.sender.bytes, static_cast<std::uint64_t>(s.sender.packets) * len);
    // Both ends know the count sent (the FIN carries it), so lost is exact: what was sent and
    // did not arrive, tail included.
    EXPECT_EQ(s.receiver.bytes % len, 0U) << "received bytes are not whole datagrams";
    const auto received = static_cast<std::int64_t>(s.receiver.bytes / len);
    EXPECT_EQ(s.receiver.errors, s.sender.packets - received)
        << "lost is not sent - received (" << received << " received)";
    EXPECT_GT(received, 0) << "nothing was received";
    EXPECT_LT(s.receiver.jitter_s, 0.1) << "a jitter of clocks, not of datagrams";
  }
  EXPECT_FALSE(r.intervals.empty());
  EXPECT_EQ(sending, c.direction == way::reverse ? 0 : c.parallel) << "streams we sent";
}

INSTANTIATE_TEST_SUITE_P(
    Iperf2_1_8, Iperf2Client,
    ::testing::Values(client_case{"Tcp", protocol::tcp}, client_case{"Udp", protocol::udp},
                      client_case{"TcpParallel2", protocol::tcp, 2},
                      client_case{"UdpParallel2", protocol::udp, 2},
                      client_case{"TcpIpv6", protocol::tcp, 1, true},
                      client_case{"UdpIpv6", protocol::udp, 1, true},
                      // Longer than a stock server's 1470-byte default: the header says so.
                      client_case{"Udp2952", protocol::udp, 1, false, 2952},
                      client_case{"TcpReverse", protocol::tcp, 1, false, 0, way::reverse},
                      client_case{"TcpReverseBytes", protocol::tcp, 1, false, 0, way::reverse,
                                  10 << 20},
                      client_case{"TcpReverseParallel2", protocol::tcp, 2, false, 0, way::reverse},
                      client_case{"TcpFullDuplex", protocol::tcp, 1, false, 0, way::full_duplex},
                      client_case{"TcpFullDuplexIpv6", protocol::tcp, 1, true, 0, way::full_duplex},
                      client_case{"UdpReverse", protocol::udp, 1, false, 0, way::reverse},
                      client_case{"UdpReverseParallel2", protocol::udp, 2, false, 0, way::reverse},
                      client_case{"UdpReverseIpv6", protocol::udp, 1, true, 0, way::reverse}),
    [](const auto& param_info) { return param_info.param.name; });

// hilperf-peer in the peer namespace, its iperf 2 port on 5001.
std::unique_ptr<hil::sys::child_process> start_our_peer() {
  auto peer = std::make_unique<hil::sys::child_process>(
      in_peer({HILPERF_PEER_BINARY, "-s", "-p", std::to_string(iperf3_port), "--iperf2-port",
               std::to_string(iperf2_port)}));
  EXPECT_TRUE(peer->wait_for_output("listening on port", 10s)) << peer->output();
  return peer;
}

// The stock client's "Server Report" line: lost/total, and its "Sent N datagrams".
struct stock_udp_summary {
  long sent = -1, lost = -1, total = -1;
};
stock_udp_summary parse_stock_udp(const std::string& out) {
  stock_udp_summary s;
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(Sent (\d+) datagrams)"))) s.sent = std::stol(m[1]);
  if (std::regex_search(out, m, std::regex(R"(ms\s+(\d+)/\s*(\d+) \()"))) {
    s.lost = std::stol(m[1]);
    s.total = std::stol(m[2]);
  }
  return s;
}

TEST(Iperf2Peer, AStockUdpClientGetsItsServerReport) {
  const auto peer = start_our_peer();
  hil::sys::child_process client({"iperf", "-c", peer_address(false), "-p",
                                  std::to_string(iperf2_port), "-u", "-b", "50M", "-t", "2", "-i",
                                  "1", "-f", "m"});
  const auto status = client.wait(15s);
  ASSERT_EQ(status, 0) << client.output();
  EXPECT_THAT(client.output(), HasSubstr("Server Report:")) << client.output();
  EXPECT_THAT(client.output(), Not(HasSubstr("did not receive ack"))) << client.output();
  const auto s = parse_stock_udp(client.output());
  ASSERT_GT(s.sent, 0) << client.output();
  // As a stock server counts: the highest sequence, the FIN's, is one below the client's "Sent".
  EXPECT_EQ(s.total, s.sent - 1) << client.output();
  EXPECT_GE(s.lost, 0);
  EXPECT_LT(s.lost, s.total) << client.output();
  EXPECT_TRUE(peer->wait_for_output("iperf 2: UDP from", 5s)) << peer->output();
}

TEST(Iperf2Peer, AStockTcpClientEndsAsSoonAsItsTestDoes) {
  const auto peer = start_our_peer();
  const auto t0 = std::chrono::steady_clock::now();
  hil::sys::child_process client(
      {"iperf", "-c", peer_address(false), "-p", std::to_string(iperf2_port), "-t", "2"});
  const auto status = client.wait(15s);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_EQ(status, 0) << client.output();
  EXPECT_THAT(client.output(), HasSubstr("0.0000-2.0")) << "the stock client waited for our close";
  EXPECT_LT(took, 3500ms) << client.output();
  EXPECT_TRUE(peer->wait_for_output("iperf 2: TCP from", 5s)) << peer->output();
}

// A stock client turned round against our peer: its output in exact bytes (-f B), our peer's
// log line for the test.
struct turned_run {
  std::string client;  // the stock client's output
  std::string peer;    // our peer's log line
};
turned_run run_stock_turned(std::vector<std::string> flags) {
  const auto peer = start_our_peer();
  std::vector<std::string> argv{
      "iperf", "-c", peer_address(false), "-p", std::to_string(iperf2_port), "-t", "2", "-f", "B"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  hil::sys::child_process client(argv);
  const auto status = client.wait(20s);
  EXPECT_EQ(status, 0) << client.output();
  EXPECT_TRUE(peer->wait_for_output(flags.front() == "-R" ? ": -R, " : ": --full-duplex, ", 10s))
      << peer->output();
  std::smatch m;
  const std::string out = peer->output();
  turned_run r{client.output(), {}};
  if (std::regex_search(
          out, m, std::regex(R"(iperf 2: (TCP|UDP) from [^\n]*: (-R|--full-duplex), [^\n]*)"))) {
    r.peer = m[0];
  }
  return r;
}

long match_long(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

TEST(Iperf2Peer, AStockReverseTcpClientReadsExactlyWhatWeSent) {
  const auto r = run_stock_turned({"-R"});
  const long sent = match_long(r.peer, R"(sent (\d+) bytes)");
  ASSERT_GT(sent, 0) << r.peer;
  EXPECT_EQ(match_long(r.client, R"(\[ \*1\] [^\n]* (\d+) Bytes )"), sent) << r.client;
}

TEST(Iperf2Peer, AStockFullDuplexTcpClientAndWeAgreeBothWays) {
  const auto r = run_stock_turned({"--full-duplex"});
  const long sent = match_long(r.peer, R"(sent (\d+) bytes)");
  const long received = match_long(r.peer, R"(received (\d+) bytes)");
  ASSERT_GT(sent, 0) << r.peer;
  ASSERT_GT(received, 0) << r.peer;
  EXPECT_EQ(match_long(r.client, R"(\[ \*1\] [^\n]* (\d+) Bytes )"), sent) << r.client;
  // Its stream, header included, as iperf 2 counts it.
  EXPECT_EQ(match_long(r.client, R"(\[  1\] [^\n]* (\d+) Bytes )"), received) << r.client;
}

TEST(Iperf2Peer, AStockReverseUdpClientCountsOurDatagrams) {
  const auto r = run_stock_turned({"-R", "-u", "-b", "50M"});
  const long sent = match_long(r.peer, R"(in (\d+) datagrams)");
  ASSERT_GT(sent, 0) << r.peer;
  // A stock receiver counts to the highest sequence, our FIN's: one more than we sent.
  EXPECT_EQ(match_long(r.client, R"(ms\s+\d+/\s*(\d+) \()"), sent + 1) << r.client;
  EXPECT_EQ(r.client.find("-nan"), std::string::npos) << r.client;
}

TEST(Iperf2Peer, AStockFullDuplexUdpClientAndWeAgreeBothWays) {
  const auto r = run_stock_turned({"--full-duplex", "-u", "-b", "50M"});
  const long sent = match_long(r.peer, R"(in (\d+) datagrams)");
  const long received_of = match_long(r.peer, R"(\d+/(\d+) lost)");
  ASSERT_GT(sent, 0) << r.peer;
  EXPECT_EQ(match_long(r.client, R"(ms\s+\d+/\s*(\d+) \()"), sent + 1) << r.client;
  // Its FIN said how many it sent; a stock client prints "Sent" as two more.
  EXPECT_EQ(match_long(r.client, R"(\[  1\] Sent (\d+) datagrams)"), received_of + 2) << r.client;
}

// The iperf 2 server in this process (the DUT's side), its log kept.
struct our_iperf2_server {
  explicit our_iperf2_server(std::size_t max_turned) {
    hil::session::iperf2_server_options o;
    o.bind_address = dut_address();
    o.port = 0;
    o.max_turned_tests = max_turned;
    o.log = [this](const std::string& line) {
      const std::lock_guard lock(mutex);
      lines += line + "\n";
    };
    server = std::make_unique<hil::session::iperf2_server>(o);
    serving = std::async(std::launch::async, [this] { return server->run(); });
  }
  ~our_iperf2_server() {
    server->stop();
    serving.wait();
  }
  std::string log() {
    const std::lock_guard lock(mutex);
    return lines;
  }
  static std::string dut_address() { return hil::sys::without_prefix(bench().dut_ipv4); }
  std::mutex mutex;
  std::string lines;
  std::unique_ptr<hil::session::iperf2_server> server;
  std::future<int> serving;
};

TEST(Iperf2Server, TurnedTestsBeyondItsCapAreRefusedAndTheRunningOneFinishes) {
  our_iperf2_server ours(1);
  const std::string port = std::to_string(ours.server->port());
  hil::sys::child_process first(in_peer(
      {"iperf", "-c", our_iperf2_server::dut_address(), "-p", port, "-R", "-t", "3", "-f", "B"}));
  ASSERT_TRUE(hil::test::eventually(
      [&] { return ours.log().find(": -R started") != std::string::npos; }, 5s))
      << ours.log();
  hil::sys::child_process second(in_peer(
      {"iperf", "-c", our_iperf2_server::dut_address(), "-p", port, "-u", "-R", "-t", "1"}));
  (void)second.wait(10s);
  EXPECT_EQ(first.wait(15s), 0) << first.output();
  EXPECT_THAT(ours.log(), HasSubstr("-R/--full-duplex tests already run")) << ours.log();
  EXPECT_THAT(ours.log(), HasSubstr(": -R, sent ")) << ours.log();
  EXPECT_EQ(match_long(first.output(), R"(\[ \*1\] [^\n]* (\d+) Bytes )"),
            match_long(ours.log(), R"(sent (\d+) bytes)"))
      << first.output() << ours.log();
}

TEST(Iperf2Peer, AStockClientOnTheIperf3PortIsNamedInTheLog) {
  const auto peer = start_our_peer();
  hil::sys::child_process client(
      {"iperf", "-c", peer_address(false), "-p", std::to_string(iperf3_port), "-t", "1"});
  (void)client.wait(15s);
  EXPECT_TRUE(peer->wait_for_output("an iperf 2 header", 5s)) << peer->output();
}

// What a wrong-protocol server's first answer makes of our iperf 2 client's error.
std::string iperf2_error_against(std::uint16_t port) {
  hil::session::client_options o;
  o.host = peer_address(false);
  o.port = port;
  o.spec.duration = 1s;
  try {
    (void)hil::session::run_iperf2_client(o);
  } catch (const std::system_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "an iperf3 server must not pass for iperf 2";
  return {};
}

TEST(Iperf2Peer, OurIperf3ClientNamesAStockIperf2ServerAndTheSetting) {
  const stock_iperf2_servers servers;
  hil::session::client_options o;
  o.host = peer_address(false);
  o.port = iperf2_port;
  o.spec.duration = 1s;
  try {
    (void)hil::session::run_client(o);  // the iperf3 client; 2.1.8 stalls ~8 s on the cookie
    FAIL() << "an iperf 2 server must not pass for iperf3";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("an iperf 2 server"));
    EXPECT_THAT(e.what(), HasSubstr("set peer.server = \"iperf2\""));
  }
}

TEST(Iperf2Client, AStockIperf3ServerIsNamedAsSuch) {
  hil::sys::child_process iperf3(
      in_peer({"iperf3", "-s", "--forceflush", "-1", "-p", std::to_string(iperf3_port)}));
  ASSERT_TRUE(iperf3.wait_for_output("Server listening on", 10s)) << iperf3.output();
  EXPECT_THAT(iperf2_error_against(iperf3_port), HasSubstr("speaks iperf3, not iperf 2"));
}

TEST(Iperf2Client, OurIperf3PortClosingIsNamedAsIperf3s) {
  const auto peer = start_our_peer();
  const std::string e = iperf2_error_against(iperf3_port);
  EXPECT_THAT(e, HasSubstr("closed the connection on reading the iperf 2 header"));
  EXPECT_THAT(e, HasSubstr("peer.server = \"iperf3\""));
}

TEST(Iperf2Client, NoUdpServerIsNamedWithWhatToStart) {
  const auto peer = start_our_peer();  // iperf3 on 5201: nothing answers UDP there
  hil::session::client_options o;
  o.host = peer_address(false);
  o.port = iperf3_port;
  o.spec.proto = protocol::udp;
  o.spec.duration = 1s;
  try {
    (void)hil::session::run_iperf2_client(o);
    FAIL() << "a test without a UDP server must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("iperf -s -u"));
  }
}

TEST(Iperf2Client, NothingListeningIsNamedWithWhatToStart) {
  hil::session::client_options o;  // no server of any kind in the peer namespace
  o.host = peer_address(false);
  o.port = iperf2_port;
  o.spec.duration = 1s;
  try {
    (void)hil::session::run_iperf2_client(o);
    FAIL() << "a test without a server must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(fmt::format("nothing listens on {}:5001 — is `iperf -s -p "
                                                "5001` running there?",
                                                peer_address(false))));
  }
}

}  // namespace
