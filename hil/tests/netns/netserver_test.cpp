// netperf's six tests against a stock netserver (2.7) in the peer namespace of this run's bench
// (netns_main.cpp), from the DUT namespace: what the protocol makes exact is asserted — the bytes
// and transactions both ends counted — and no rate. netserver comes from $HILPERF_NETSERVER, else
// PATH; without one the tests that need it skip, saying how to get it. The faults (nothing
// listening, an iperf3 server where netserver belongs) need no netserver.
//
// Port 12865 is fixed on purpose: the peer namespace belongs to this test process alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "hil/session/netserver_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
using hil::measure::workload;

constexpr std::uint16_t port = 12865;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address(bool ipv6 = false) {
  const std::string cidr = ipv6 ? bench().peer_ipv6 : bench().peer_ipv4;
  return hil::sys::without_prefix(cidr);
}

bool executable(const std::filesystem::path& p) {
  return std::filesystem::is_regular_file(p) && ::access(p.c_str(), X_OK) == 0;
}

// netserver from $HILPERF_NETSERVER, else the first `netserver` on PATH; nullopt when neither.
std::optional<std::string> find_netserver() {
  if (const char* env = std::getenv("HILPERF_NETSERVER"); env && *env) {  // NOLINT
    return std::string(env);
  }
  const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && executable(std::filesystem::path(dir) / "netserver")) {
      return (std::filesystem::path(dir) / "netserver").string();
    }
  }
  return std::nullopt;
}

constexpr const char* no_netserver =
    "no netserver: set HILPERF_NETSERVER=<path> or put netperf's netserver on PATH (netperf is not "
    "in Debian main; build it from HewlettPackard/netperf)";

// A server in the peer namespace, listening when this returns.
std::unique_ptr<hil::sys::child_process> start_in_peer(std::vector<std::string> command,
                                                       const std::string& ready) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  argv.insert(argv.end(), command.begin(), command.end());
  auto server = std::make_unique<hil::sys::child_process>(argv);
  EXPECT_TRUE(server->wait_for_output(ready, 10s)) << server->output();
  return server;
}

hil::session::netserver_options options(workload kind, bool ipv6 = false) {
  hil::session::netserver_options o;
  o.host = peer_address(ipv6);
  o.port = port;
  o.kind = kind;
  o.duration = 2s;
  return o;
}

// One line per run, beside which a stock `netperf -t <TEST> -l 2` on the same bench compares.
void print(const hil::session::netserver_result& r) {
  std::cout << fmt::format(
      "{}: local {:.3f} s, sent {} B, received {} B, {} transactions; netserver {:.3f} s, "
      "received {} B in {} calls, sent {} B, {} transactions, cong '{}'; {:.2f} Mbit/s, {:.2f} "
      "transactions/s",
      hil::measure::workload_name(r.kind), r.seconds, r.local_bytes_sent, r.local_bytes_received,
      r.local_transactions, r.remote_seconds, r.remote_bytes_received, r.remote_recv_calls,
      r.remote_bytes_sent, r.remote_transactions, r.remote_congestion, r.throughput_mbps(),
      r.transactions_per_second());
  if (hil::measure::is_request_response(r.kind)) {
    const auto s = r.latency.summarize();
    std::cout << fmt::format("; latency p50 {:.1f} us, p99 {:.1f} us, lost {}", s.p50_us, s.p99_us,
                             r.local_lost);
  }
  std::cout << '\n' << std::flush;
}

// The error run_netserver_test(o) throws, printed for the log; empty when it throws none.
std::string error_of(const hil::session::netserver_options& o) {
  try {
    (void)hil::session::run_netserver_test(o);
  } catch (const std::system_error& e) {
    std::cout << "error: " << e.what() << '\n' << std::flush;
    return e.what();
  }
  ADD_FAILURE() << "the test ran";
  return {};
}

// The tests that need netserver: one running in the peer namespace for each.
class NetserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto binary = find_netserver();
    if (!binary) GTEST_SKIP() << no_netserver;
    ASSERT_TRUE(executable(*binary)) << "HILPERF_NETSERVER=" << *binary << " is no executable";
    // -D: in the foreground, so it is ours to stop; -N: no /tmp/netserver.debug_<pid> files.
    server_ = start_in_peer({*binary, "-D", "-N", "-p", std::to_string(port)},
                            "Starting netserver with host");
  }

  std::unique_ptr<hil::sys::child_process> server_;
};

TEST_F(NetserverTest, TcpStreamBytesSentAreNetserversBytesReceived) {
  const auto r = hil::session::run_netserver_test(options(workload::tcp_stream));
  print(r);
  EXPECT_GT(r.local_bytes_sent, 0U);
  // Our half-close comes after the last byte, and netserver ends on it: it read every byte.
  EXPECT_EQ(r.remote_bytes_received, r.local_bytes_sent);
  EXPECT_EQ(r.remote_bytes_sent, 0U);
  ASSERT_GT(r.send_size, 0U) << "netperf's default: the socket's SO_SNDBUF";
  EXPECT_EQ(r.local_bytes_sent % r.send_size, 0U) << "whole blocks";
  EXPECT_GT(r.remote_seconds, 0);
}

TEST_F(NetserverTest, TcpMaertsBytesReceivedAreNetserversBytesSent) {
  const auto r = hil::session::run_netserver_test(options(workload::tcp_maerts));
  print(r);
  EXPECT_GT(r.local_bytes_received, 0U);
  // netserver stops on its timer and closes; we read to its FIN, after its last byte. The send()
  // its timer interrupts has handed the kernel part of a block, which reaches us, but netserver
  // counts only whole sends (nettest_omni.c send_data): we may see up to one block more.
  ASSERT_GT(r.send_size, 0U) << "netserver's send size, from its response";
  EXPECT_GE(r.local_bytes_received, r.remote_bytes_sent);
  EXPECT_LT(r.local_bytes_received - r.remote_bytes_sent, r.send_size);
  EXPECT_EQ(r.remote_bytes_sent % r.send_size, 0U) << "netserver counts whole sends";
  EXPECT_EQ(r.remote_bytes_received, 0U);
  EXPECT_EQ(r.local_bytes_sent, 0U);
}

TEST_F(NetserverTest, UdpStreamNetserverCountsWholeDatagrams) {
  auto o = options(workload::udp_stream);
  o.send_size = 1472;  // as NetperfSuite: one datagram per 1500-byte frame
  const auto r = hil::session::run_netserver_test(o);
  print(r);
  EXPECT_EQ(r.send_size, 1472U);
  EXPECT_GT(r.remote_recv_calls, 0U);
  EXPECT_EQ(r.remote_bytes_received, r.remote_recv_calls * 1472)
      << "one recv() per datagram; the empty end markers are not counted";
  EXPECT_LE(r.remote_bytes_received, r.local_bytes_sent) << "UDP may lose, never invent";
  EXPECT_EQ(r.local_bytes_sent % 1472, 0U);
}

// True once a TCP connection other than the control connection is established in this (the DUT)
// namespace: the data phase has begun.
bool data_connection_up() {
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // the column names
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state;
      fields >> slot >> local >> remote >> state;
      const auto remote_port = std::stoul(remote.substr(remote.find(':') + 1), nullptr, 16);
      if (state == "01" && remote_port != port) return true;  // 01: ESTABLISHED
    }
  }
  return false;
}

// A netserver frozen mid-test (SIGSTOP reaches its process group, the test's child included): the
// run fails within the data plane's bound (5 s) plus slack, naming the cause, instead of hanging.
TEST_F(NetserverTest, AFrozenNetserverFailsTheTestWithinBoundedTime) {
  auto o = options(workload::tcp_rr);
  o.duration = 30s;
  auto run = std::async(std::launch::async, [&] { return error_of(o); });
  ASSERT_TRUE(hil::test::eventually(data_connection_up, 5s)) << "no data connection within 5 s";
  const auto t0 = std::chrono::steady_clock::now();
  server_->signal(SIGSTOP);
  ASSERT_EQ(run.wait_for(10s), std::future_status::ready) << "the run did not end";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 7s);
  EXPECT_THAT(run.get(), HasSubstr("netserver stopped answering"));
  server_->signal(SIGCONT);
}

// A netserver that accepts but never answers the request (frozen before it): bounded too.
TEST_F(NetserverTest, AFrozenNetserverFailsTheRequestWithinBoundedTime) {
  server_->signal(SIGSTOP);  // the kernel still completes the connect, from its backlog
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THAT(error_of(options(workload::tcp_stream)),
              HasSubstr("within 10 s to the TCP_STREAM request"));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 12s);
  server_->signal(SIGCONT);
}

struct rr_case {
  std::string name;
  workload kind;
  bool ipv6 = false;
};
void PrintTo(const rr_case& c, std::ostream* os) { *os << c.name; }

class NetserverRr : public NetserverTest, public ::testing::WithParamInterface<rr_case> {};

TEST_P(NetserverRr, TransactionsAreNetserversCount) {
  const auto& c = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = hil::session::run_netserver_test(options(c.kind, c.ipv6));
  const auto took = std::chrono::steady_clock::now() - t0;
  print(r);
  EXPECT_GT(r.local_transactions, 0U);
  EXPECT_EQ(r.latency.count(), r.local_transactions) << "one latency sample per transaction";
  if (c.kind == workload::udp_rr) {
    // netserver answers every request it receives: a lost request is counted by neither end, a
    // lost response by netserver only (we resend after 1 s without one).
    EXPECT_GE(r.remote_transactions, r.local_transactions);
    EXPECT_LE(r.remote_transactions, r.local_transactions + r.local_lost);
  } else {
    // TCP loses nothing, and every transaction we start we finish before looking at the clock.
    EXPECT_EQ(r.remote_transactions, r.local_transactions);
  }
  EXPECT_EQ(r.remote_bytes_received, r.remote_transactions) << "1-byte requests";
  EXPECT_EQ(r.remote_bytes_sent, r.remote_transactions) << "1-byte responses";
  if (c.kind == workload::tcp_crr) {
    // No end marker: netserver sends its results on its timer, 4 s after the test length.
    EXPECT_GT(took, 5s);
  }
}

INSTANTIATE_TEST_SUITE_P(Rr, NetserverRr,
                         ::testing::Values(rr_case{"TcpRr", workload::tcp_rr},
                                           rr_case{"TcpCrr", workload::tcp_crr},
                                           rr_case{"UdpRr", workload::udp_rr},
                                           rr_case{"TcpRrIpv6", workload::tcp_rr, true}),
                         [](const auto& param_info) { return param_info.param.name; });

// ---- faults: no netserver needed
// -----------------------------------------------------------------

TEST(NetserverFault, NothingListeningFailsFastNamingNetserver) {
  auto o = options(workload::tcp_stream);
  o.port = port + 1;  // nothing listens there
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THAT(error_of(o),
              HasSubstr(fmt::format("nothing listens on {}:{} — is `netserver` running there?",
                                    o.host, o.port)));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s) << "a refused connect is not retried";
}

TEST(NetserverFault, AnIperf3ServerIsNamedAsSuch) {
  // Stock iperf3 reads the request's first 37 bytes as its cookie, answers with one byte and
  // waits for its parameters: the client must not wait for 655 more.
  const auto iperf3 = start_in_peer({"iperf3", "-s", "--forceflush", "-p", std::to_string(port)},
                                    "Server listening on");
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THAT(error_of(options(workload::tcp_rr)),
              HasSubstr("it is an iperf3 server, not netperf's netserver"));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

}  // namespace
