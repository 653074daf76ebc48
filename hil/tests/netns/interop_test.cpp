// The interop matrix on a veth pair in namespaces this run created (netns_main.cpp): our client
// against stock `iperf3 -s`, stock `iperf3 -c` against our peer, and ours against ours; TCP and
// UDP, -R, --bidir, -P 4, IPv4 and IPv6, -O, -n, --get-server-output, RSA authentication. Both
// ends' figures must agree. Plus the faults: a peer killed mid-test, a busy peer, garbage on the
// control port, a client vanishing mid-test, refused credentials.
//
// Port 5201 is fixed on purpose: the peer namespace belongs to this test process alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <array>
#include <asio.hpp>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>
#include <tuple>
#include <vector>

#include "hil/iperf3/params.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/session/iperf3_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/text_file.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
using hil::measure::protocol;

constexpr std::uint16_t port = 5201;

enum class side { ours, stock };

struct interop_case {
  std::string name;
  side client;
  side server;
  protocol proto;
  bool reverse = false;
  bool bidir = false;
  int parallel = 1;
  bool ipv6 = false;
  bool omit = false;             // -O 1 in a 3 s test
  bool server_output = false;    // --get-server-output
  bool auth = false;             // RSA authentication (hil/tests/data/auth)
  std::uint64_t bytes = 0;       // -n instead of -t
  std::string stock = "iperf3";  // the stock binary: Debian's, or one of HILPERF_IPERF3_BINARIES
};

// Debian's iperf3 is 3.12: its clients send PKCS#1 v1.5 tokens and its server reads only those.
bool before_317(const std::string& stock) { return stock == "iperf3"; }

std::string auth_file(const std::string& name) {
  return std::string(HIL_SOURCE_DIR) + "/hil/tests/data/auth/" + name;
}
constexpr const char* test_user = "alice";
constexpr const char* test_password = "hilperf-test-secret";  // users.csv's

// The server flags that require authentication; pkcs1 also accepts pre-3.17 clients (our peer).
std::vector<std::string> auth_server_flags(bool pkcs1) {
  std::vector<std::string> f{"--rsa-private-key-path", auth_file("private.pem"),
                             "--authorized-users-path", auth_file("users.csv")};
  if (pkcs1) f.emplace_back("--use-pkcs1-padding");
  return f;
}

hil::session::client_auth test_credentials(const std::string& password, bool pkcs1) {
  return {{test_user, password},
          hil::iperf3::rsa_key::public_from_pem(
              hil::sys::read_text_file(auth_file("public.pem"), 65536), "public.pem"),
          pkcs1 ? hil::iperf3::rsa_padding::pkcs1 : hil::iperf3::rsa_padding::oaep};
}

void PrintTo(const interop_case& c, std::ostream* os) { *os << c.name; }

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address(bool ipv6) {
  const std::string cidr = ipv6 ? bench().peer_ipv6 : bench().peer_ipv4;
  return hil::sys::without_prefix(cidr);
}

// Starts a server in the peer namespace and waits until it listens.
// extra: further server flags (authentication).
std::unique_ptr<hil::sys::child_process> start_server(side which, bool one_off,
                                                      const std::string& stock = "iperf3",
                                                      const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  if (which == side::ours) {
    argv.insert(argv.end(), {HILPERF_PEER_BINARY, "-s", "-p", std::to_string(port)});
  } else {
    // --forceflush: iperf3 buffers its "Server listening" line when stdout is a pipe.
    argv.insert(argv.end(), {stock, "-s", "--forceflush", "-p", std::to_string(port)});
  }
  if (one_off) argv.emplace_back("-1");
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto server = std::make_unique<hil::sys::child_process>(argv);
  const char* ready = which == side::ours ? "listening on port" : "Server listening on";
  EXPECT_TRUE(server->wait_for_output(ready, 10s)) << server->output();
  return server;
}

hil::iperf3::test_params spec_of(const interop_case& c) {
  hil::iperf3::test_params s;
  s.proto = c.proto;
  s.duration = c.omit ? 3s : 2s;
  s.bytes = c.bytes;
  s.omit = c.omit ? 1s : 0s;
  s.reverse = c.reverse;
  s.get_server_output = c.server_output;
  s.bidirectional = c.bidir;
  s.parallel = c.parallel;
  // 100 Mbit/s in total: the matrix tests interoperation, not whether a single-threaded stock
  // 3.12 receiver keeps up with four streams on two busy cores.
  if (c.proto == protocol::udp)
    s.bitrate_bps = 100'000'000 / static_cast<std::uint64_t>(c.parallel);
  return s;
}

std::vector<std::string> stock_flags(const interop_case& c) {
  std::vector<std::string> f{"-J"};
  if (c.bytes > 0) {
    f.insert(f.end(), {"-n", std::to_string(c.bytes)});
  } else {
    f.insert(f.end(), {"-t", c.omit ? "3" : "2"});
  }
  if (c.auth) {
    f.insert(f.end(), {"--username", test_user, "--rsa-public-key-path", auth_file("public.pem")});
  }
  if (c.omit) f.insert(f.end(), {"-O", "1"});
  if (c.server_output) f.emplace_back("--get-server-output");
  if (c.proto == protocol::udp) {
    f.insert(f.end(), {"-u", "-b", std::to_string(100 / c.parallel) + "M"});
  }
  if (c.reverse) f.emplace_back("-R");
  if (c.bidir) f.emplace_back("--bidir");
  if (c.parallel > 1) f.insert(f.end(), {"-P", std::to_string(c.parallel)});
  return f;
}

// The two ends' totals of every stream agree where the protocol makes them exact: UDP bytes are
// datagrams times the datagram length at both ends, the receiver's highest sequence is at most what
// was sent, and what it counts as received plus lost is that highest sequence; TCP: the receiver
// got what was sent, minus at most what was in flight when TEST_END closed the sockets. Rates are
// not compared here (they follow this machine's load; hilperf-bench measures them), and neither
// is loss: a datagram dropped in a receiver's buffer during a host stall says nothing about
// interoperation, while a miscounted one does.
void expect_ends_agree(const hil::measure::test_result& r, const interop_case& c) {
  ASSERT_TRUE(r.error.empty()) << r.error;
  const std::size_t streams = static_cast<std::size_t>(c.parallel) * (c.bidir ? 2 : 1);
  ASSERT_EQ(r.streams.size(), streams);
  const std::uint64_t len = r.spec.effective_block_len();
  for (const auto& s : r.streams) {
    SCOPED_TRACE("stream " + std::to_string(s.id));
    EXPECT_GT(s.sender.bytes, 0U);
    EXPECT_GT(s.receiver.bytes, 0U);
    if (c.omit) {
      // Each end restarts its counts at its own omit end, a moment apart: after omit only each
      // end's own figures are exact; across the ends the counts since the start are (iperf3
      // exchanges them, and the omitted period's beside them).
      EXPECT_GT(s.sender.omitted_packets, 0) << "no datagram was counted in the omitted second";
      EXPECT_LE(s.receiver.packets + s.receiver.omitted_packets,
                s.sender.packets + s.sender.omitted_packets)
          << "highest sequence beyond what was sent since the start";
      // This end's own figures after omit are exact (a stock end's need not be: 3.12 sends no
      // omitted counts, and 3.16+'s stream threads may count a datagram at the omit-end moment
      // in one figure and not the other).
      if (s.local_sends) {
        EXPECT_EQ(s.sender.bytes, static_cast<std::uint64_t>(s.sender.packets) * len);
      } else {
        EXPECT_EQ(s.receiver.bytes,
                  static_cast<std::uint64_t>(s.receiver.packets - s.receiver.errors) * len)
            << "received bytes are not (highest sequence - lost) datagrams after omit";
      }
      continue;
    }
    EXPECT_LE(s.receiver.bytes, s.sender.bytes);
    if (c.proto == protocol::tcp) {
      // A TCP sender counts what it wrote into its socket; at TEST_END up to a send buffer
      // (tcp_wmem max 4 MiB) plus the tbf queue has not reached the receiver.
      EXPECT_LE(s.sender.bytes - s.receiver.bytes, 8U << 20) << "more than in flight went missing";
    } else if (!s.sender.omitted_known || !s.receiver.omitted_known) {
      // -O against an iperf3 before 3.14: its counts include the omitted period and it does not
      // say by how much, so this end's count at omit end stands in (as in iperf3 itself) and
      // only the order of the counts is exact.
      EXPECT_GT(s.sender.packets, 0);
      EXPECT_LE(s.receiver.packets, s.sender.packets) << "highest sequence beyond what was sent";
    } else {
      EXPECT_GT(s.sender.packets, 0);
      EXPECT_EQ(s.sender.bytes, static_cast<std::uint64_t>(s.sender.packets) * len);
      EXPECT_LE(s.receiver.packets, s.sender.packets) << "highest sequence beyond what was sent";
      EXPECT_GE(s.receiver.errors, 0);
      EXPECT_LT(s.receiver.errors, s.receiver.packets) << "nothing was received";
      EXPECT_EQ(s.receiver.bytes,
                static_cast<std::uint64_t>(s.receiver.packets - s.receiver.errors) * len)
          << "received bytes are not (highest sequence - lost) datagrams";
    }
  }
  if (c.bytes > 0) {
    // -n: the senders stop once the bytes are written, at most one block past them in all.
    std::uint64_t sent = 0;
    for (const auto& s : r.streams) sent += s.sender.bytes;
    EXPECT_GE(sent, c.bytes);
    EXPECT_LT(sent, c.bytes + static_cast<std::uint64_t>(c.parallel) * len);
  }
  EXPECT_FALSE(r.intervals.empty());
}

// A stock client's JSON, by the same rules as far as its sums over all streams allow.
void expect_stock_json_sane(const hil::report::iperf3_summary& j, const interop_case& c,
                            const std::string& stock_output) {
  ASSERT_TRUE(j.error.empty()) << j.error;
  EXPECT_EQ(j.proto, c.proto);
  EXPECT_GT(j.sent_bytes, 0U);
  EXPECT_GT(j.received_bytes, 0U);
  const auto doc = nlohmann::json::parse(stock_output.substr(stock_output.find('{')));
  const auto& end = doc.at("end");
  if (c.server_output) {
    const std::string text = doc.value("server_output_text", std::string());
    EXPECT_THAT(text, HasSubstr("Accepted connection from")) << "no server output in -J";
    EXPECT_THAT(text, HasSubstr(c.reverse ? "sender" : "receiver"));
  }
  if (c.proto == protocol::tcp) {
    // Each end names its congestion control in its results (congestion_used).
    for (const char* key : {"sender_tcp_congestion", "receiver_tcp_congestion"}) {
      EXPECT_FALSE(end.value(key, std::string()).empty()) << key << " missing from the -J end";
    }
  }
  if (c.omit) {
    // A stock client's JSON has only the counts after each end's own omit end, a moment apart
    // (and 3.16+'s sender thread can count a datagram at that moment before its bytes), so the
    // ends' datagram counts cannot agree exactly. They must agree far better than the omitted
    // period: a peer counting that period too (or nothing at all) is off by a whole second of
    // datagrams, a moment's offset by a few dozen; half the omitted second tells them apart.
    ASSERT_GT(j.packets, 0);
    const double len =
        std::round(static_cast<double>(j.sent_bytes) / static_cast<double>(j.packets));
    const double received = static_cast<double>(j.received_bytes) / len;
    const double half_omit = 100e6 / (8 * len) * 0.5;
    for (const auto& [line, count] :
         {std::pair{"sender", end.at("sum_sent").value("packets", std::int64_t{0})},
          std::pair{"receiver", end.at("sum_received").value("packets", std::int64_t{0})}}) {
      EXPECT_LT(std::fabs(received - static_cast<double>(count)), half_omit)
          << "the " << line << " line counts " << count << " datagrams after omit, " << received
          << " were received";
    }
    EXPECT_LT(j.lost_packets, j.packets / 2) << "loss counted over the omitted period";
    return;
  }
  // A 3.16+ stock end runs a thread per stream that counts a datagram before its write and adds
  // its bytes after it; a thread stopped at the end between the two leaves its counts one block
  // behind what went out (the block may have been sent and received). Debian's 3.12 has one
  // thread and no such gap. The allowance is that: one block per stream, nothing more.
  const auto len = doc.at("start").at("test_start").value("blksize", std::uint64_t{0});
  ASSERT_GT(len, 0U) << "no start.test_start.blksize";
  if (c.bytes > 0) {
    EXPECT_GE(j.sent_bytes, c.bytes) << "-n stopped short";
    EXPECT_LT(j.sent_bytes, c.bytes + static_cast<std::uint64_t>(c.parallel) * len)
        << "-n sent more than one block past the count";
  }
  const std::uint64_t lag = c.stock == "iperf3" ? 0 : static_cast<std::uint64_t>(c.parallel) * len;
  EXPECT_LE(j.received_bytes, j.sent_bytes + lag);
  EXPECT_GE(j.interval_count, c.bytes > 0 ? 1U : 2U);  // -n may end within the first second
  if (c.proto == protocol::tcp) {
    EXPECT_LE(j.sent_bytes - std::min(j.sent_bytes, j.received_bytes),
              static_cast<std::uint64_t>(c.parallel) * (8U << 20))
        << "more than in flight went missing";
  } else {
    ASSERT_GT(j.packets, 0);
    const auto counted = static_cast<std::uint64_t>(j.packets) * len;
    EXPECT_EQ(j.sent_bytes % len, 0U) << "sent bytes are not a whole number of datagrams";
    EXPECT_LE(j.sent_bytes, counted) << "more bytes sent than datagrams counted";
    EXPECT_LE(counted - std::min(counted, j.sent_bytes), lag)
        << "sent bytes lag the datagram count by more than one block per stream";
    EXPECT_GE(j.lost_packets, 0);
    EXPECT_LT(j.lost_packets, j.packets) << "nothing was received";
    // iperf3's JSON gives the sender's count, not the receiver's highest sequence: datagrams
    // after the last one received (in flight at TEST_END) are neither received nor lost there
    // (CI saw one), so received is whole datagrams and at most sent - lost.
    EXPECT_EQ(j.received_bytes % len, 0U) << "received bytes are not whole datagrams";
    EXPECT_LE(j.received_bytes, static_cast<std::uint64_t>(j.packets - j.lost_packets) * len)
        << "more received than sent - lost";
  }
}

class Interop : public ::testing::TestWithParam<interop_case> {};

TEST_P(Interop, BothEndsAgree) {
  const interop_case& c = GetParam();
  // Authentication: a pre-3.17 stock client needs our peer to accept PKCS#1 v1.5; against a
  // pre-3.17 stock server our client sends PKCS#1 v1.5.
  const bool legacy_stock_client = c.client == side::stock && before_317(c.stock);
  const auto server =
      start_server(c.server, true, c.stock,
                   c.auth ? auth_server_flags(legacy_stock_client) : std::vector<std::string>{});
  if (c.client == side::ours) {
    hil::session::client_options o;
    o.host = peer_address(c.ipv6);
    o.port = port;
    o.spec = spec_of(c);
    if (c.auth) {
      o.auth = test_credentials(test_password, c.server == side::stock && before_317(c.stock));
    }
    const auto r = hil::session::run_client(o);
    expect_ends_agree(r, c);
    if (c.server_output) {
      // The server's own text of the test: who connected, its intervals and its summary.
      EXPECT_THAT(r.server_output_text, HasSubstr("Accepted connection from"));
      // Its summary line is the server's role: receiver, or sender with -R.
      EXPECT_THAT(r.server_output_text, HasSubstr(c.reverse ? "sender" : "receiver"));
    } else {
      EXPECT_TRUE(r.server_output_text.empty() && r.server_output_json.empty());
    }
  } else {
    std::vector<std::string> argv{"env",
                                  std::string("IPERF3_PASSWORD=") + test_password,
                                  c.stock,
                                  "-c",
                                  peer_address(c.ipv6),
                                  "-p",
                                  std::to_string(port)};
    const auto flags = stock_flags(c);
    argv.insert(argv.end(), flags.begin(), flags.end());
    hil::sys::child_process client(argv);
    const auto status = client.wait(30s);
    ASSERT_TRUE(status.has_value()) << "stock iperf3 did not finish";
    if (c.auth && *status != 0 && server->output().find("esnet/iperf#1951") != std::string::npos) {
      // Our peer logged the empty token: this build cannot authenticate to any server, its own
      // included (3.17–3.19 with some OpenSSL 3 releases), so there is nothing to qualify.
      GTEST_SKIP() << c.stock << " sent an empty authtoken (esnet/iperf#1951): it cannot "
                   << "authenticate to any server. Peer log: " << server->output();
    }
    ASSERT_EQ(*status, 0) << client.output();
    hil::report::iperf3_summary summary;
    ASSERT_NO_THROW(summary = hil::report::parse_iperf3_json(client.output())) << client.output();
    expect_stock_json_sane(summary, c, client.output());
  }
  EXPECT_EQ(server->wait(10s), 0) << "the -1 server must end cleanly: " << server->output();
}

#ifdef HIL_INTEROP_QUALIFY
// The stock iperf3 binaries to qualify besides Debian's: HILPERF_IPERF3_BINARIES, a colon-separated
// list of paths, each named in the test names by its version ("iperf 3.21 (cJSON …)" → 3_21).
// Read only by hil_interop_qualify (HIL_INTEROP_QUALIFY): CTest lists the ordinary binary's
// tests once and keeps the list until the binary changes, so cases that came and went with an
// environment variable would run as stale names that match nothing, and pass.
std::vector<std::pair<std::string, std::string>> extra_stock_binaries() {
  std::vector<std::pair<std::string, std::string>> out;
  const char* env = std::getenv("HILPERF_IPERF3_BINARIES");  // NOLINT(concurrency-mt-unsafe)
  std::string list = env != nullptr ? env : "";
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t end = std::min(list.find(':', at), list.size());
    const std::string path = list.substr(at, end - at);
    at = end + 1;
    if (path.empty()) continue;
    const auto version = hil::sys::run_checked({path, "--version"});
    std::string name = version.substr(0, version.find(' ', 6));  // "iperf 3.21"
    name = name.substr(name.find(' ') + 1);
    for (char& ch : name) {
      if (std::isalnum(static_cast<unsigned char>(ch)) == 0) ch = '_';
    }
    out.emplace_back("Iperf3_" + name, path);
  }
  return out;
}
#endif

std::vector<interop_case> matrix() {
  std::vector<interop_case> out;
  std::vector<std::tuple<std::string, std::pair<side, side>, std::string>> pairs;
#ifdef HIL_INTEROP_QUALIFY
  for (const auto& [name, path] : extra_stock_binaries()) {
    pairs.push_back({"OursTo" + name, {side::ours, side::stock}, path});
    pairs.push_back({name + "ToOurs", {side::stock, side::ours}, path});
  }
#else
  pairs = {{"OursToStock", {side::ours, side::stock}, "iperf3"},
           {"StockToOurs", {side::stock, side::ours}, "iperf3"},
           {"OursToOurs", {side::ours, side::ours}, "iperf3"}};
#endif
  for (const auto& [prefix, ends, stock] : pairs) {
    const auto [client, server] = ends;
    const auto at = out.size();
    out.push_back({prefix + "Tcp", client, server, protocol::tcp});
    out.push_back({prefix + "Udp", client, server, protocol::udp});
    out.push_back({prefix + "TcpReverse", client, server, protocol::tcp, true});
    out.push_back({prefix + "UdpReverse", client, server, protocol::udp, true});
    out.push_back({prefix + "TcpBidir", client, server, protocol::tcp, false, true});
    out.push_back({prefix + "TcpParallel4", client, server, protocol::tcp, false, false, 4});
    out.push_back({prefix + "UdpParallel4", client, server, protocol::udp, false, false, 4});
    out.push_back({prefix + "TcpIpv6", client, server, protocol::tcp, false, false, 1, true});
    out.push_back({prefix + "UdpIpv6", client, server, protocol::udp, false, false, 1, true});
    // -O: iperf3 exchanges counts since the start and the omitted period's beside them.
    out.push_back(
        {prefix + "UdpOmit", client, server, protocol::udp, false, false, 1, false, true});
    out.push_back(
        {prefix + "UdpReverseOmit", client, server, protocol::udp, true, false, 1, false, true});
    out.push_back({prefix + "TcpServerOutput", client, server, protocol::tcp});
    out.back().server_output = true;
    out.push_back({prefix + "UdpReverseServerOutput", client, server, protocol::udp, true});
    out.back().server_output = true;
    out.push_back({prefix + "TcpBytes", client, server, protocol::tcp});
    out.back().bytes = std::uint64_t{24} << 20;  // -n 24M
    out.push_back({prefix + "TcpAuth", client, server, protocol::tcp});
    out.back().auth = true;
    out.push_back({prefix + "UdpReverseAuth", client, server, protocol::udp, true});
    out.back().auth = true;
    for (auto i = at; i < out.size(); ++i) out[i].stock = stock;
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Matrix, Interop, ::testing::ValuesIn(matrix()),
                         [](const auto& param_info) { return param_info.param.name; });

#ifdef HIL_INTEROP_QUALIFY
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Interop);

// Skipped, saying how, when no further iperf3 is named; the matrix above runs when one is.
TEST(Qualify, Iperf3BinariesNamed) {
  if (extra_stock_binaries().empty()) {
    GTEST_SKIP() << "set HILPERF_IPERF3_BINARIES=<path>:<path> to run the interop matrix "
                    "against those iperf3 builds";
  }
  EXPECT_FALSE(matrix().empty());
}
#else

// ---- faults ---------------------------------------------------------------------------------

hil::session::client_options quick_client(std::chrono::seconds t) {
  hil::session::client_options o;
  o.host = peer_address(false);
  o.port = port;
  o.spec.duration = t;
  return o;
}

class InteropFault : public ::testing::TestWithParam<side> {};

TEST_P(InteropFault, APeerKilledMidTestFailsTheClientPromptly) {
  const auto server = start_server(GetParam(), true);
  auto o = quick_client(10s);
  std::atomic<int> intervals{0};
  o.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto run = std::async(std::launch::async, [&] { return hil::session::run_client(o); });
  // Mid-test: the first interval of the 10 s test is over.
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  server->signal(SIGKILL);
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready) << "the client must notice within 5 s";
  try {
    run.get();
    FAIL() << "a killed peer must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed the control connection"));
  }
}

TEST_P(InteropFault, ABusyPeerIsReportedAsBusy) {
  const auto server = start_server(GetParam(), false);
  auto first = quick_client(3s);
  std::atomic<int> intervals{0};
  first.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto running = std::async(std::launch::async, [&] { return hil::session::run_client(first); });
  // The first test is running: its first interval is over (2 s of it are left).
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  try {
    hil::session::run_client(quick_client(1s));
    FAIL() << "a second client must be refused while a test runs";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("is busy running a test"));
  }
  EXPECT_NO_THROW(running.get());
}

INSTANTIATE_TEST_SUITE_P(Peer, InteropFault, ::testing::Values(side::ours, side::stock),
                         [](const auto& param_info) {
                           return std::string(param_info.param == side::ours ? "Ours" : "Stock");
                         });

TEST(OurPeer, GarbageOnTheControlPortIsRejectedAndTheNextClientServed) {
  const auto server = start_server(side::ours, false);
  {
    asio::io_context io;
    asio::ip::tcp::socket raw(io);
    raw.connect({asio::ip::make_address(peer_address(false)), port});
    const std::string garbage = "GET / HTTP/1.1\r\nHost: peer\r\nUser-Agent: curl/7.88\r\n\r\n";
    asio::write(raw, asio::buffer(garbage));
    std::array<char, 16> reply{};
    asio::error_code ec;
    raw.read_some(asio::buffer(reply), ec);  // the peer closes on us
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  }
  EXPECT_TRUE(server->wait_for_output("not an iperf3 client", 5s)) << server->output();
  const auto r = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(r.error.empty());
  EXPECT_GT(r.streams.at(0).receiver.bytes, 0U);
}

TEST(OurPeer, AClientVanishingMidTestLeavesThePeerReadyForTheNext) {
  const auto server = start_server(side::ours, false);
  {
    hil::sys::child_process stock({"iperf3", "--forceflush", "-c", peer_address(false), "-p",
                                   std::to_string(port), "-t", "10"});
    // Mid-test: the stock client has printed its first interval ("0.00-1.00", or "0.00-1.01"
    // when its timer fires late: the end is iperf3's clock, not a constant).
    ASSERT_TRUE(stock.wait_for_output("0.00-", 5s)) << stock.output();
    stock.signal(SIGKILL);
    stock.wait(5s);
  }
  EXPECT_TRUE(server->wait_for_output("ended early", 10s)) << server->output();
  const auto r = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(r.error.empty());
  EXPECT_GT(r.streams.at(0).receiver.bytes, 0U);
}

TEST(OurPeer, RefusedCredentialsGetIperf3sRefusalAndTheNextClientIsServed) {
  const auto server = start_server(side::ours, false, "iperf3", auth_server_flags(true));
  const auto stock_client = [&](const std::string& password) {
    auto c = std::make_unique<hil::sys::child_process>(std::vector<std::string>{
        "env", "IPERF3_PASSWORD=" + password, "iperf3", "-c", peer_address(false), "-p",
        std::to_string(port), "-t", "1", "--username", test_user, "--rsa-public-key-path",
        auth_file("public.pem")});
    const auto status = c->wait(15s);
    return std::make_pair(status, c->output());
  };
  const auto [refused, refused_output] = stock_client("not-the-password");
  EXPECT_EQ(refused, 1) << refused_output;
  EXPECT_THAT(refused_output, HasSubstr("test authorization failed"));
  EXPECT_TRUE(server->wait_for_output("not in the authorized users file", 5s)) << server->output();
  const auto [served, served_output] = stock_client(test_password);
  EXPECT_EQ(served, 0) << served_output << server->output();
  EXPECT_THAT(server->output(), HasSubstr("authenticated as \"alice\""));
  // Without credentials: refused too, never served unauthenticated.
  try {
    (void)hil::session::run_client(quick_client(1s));
    FAIL() << "a client without credentials must be refused";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("test authorization failed — the server requires iperf3 "
                                    "authentication"));
  }
}

TEST(OurClient, AStockServersRefusalNamesTheServersWordsAndWhatToCheck) {
  const auto server = start_server(side::stock, true, "iperf3", auth_server_flags(false));
  auto o = quick_client(1s);
  o.auth = test_credentials("not-the-password", true);
  try {
    (void)hil::session::run_client(o);
    FAIL() << "wrong credentials must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("test authorization failed — it refused user \"alice\""));
    EXPECT_THAT(e.what(), HasSubstr("IPERF3_PASSWORD"));
  }
}

// A scripted server on loopback for one client: reads its cookie, writes reply, closes.
class cookie_then_reply {
 public:
  explicit cookie_then_reply(std::vector<std::uint8_t> reply)
      : listener_(io_, {asio::ip::make_address("127.0.0.1"), 0}),
        thread_([this, reply = std::move(reply)] {
          auto sock = listener_.accept();
          std::array<std::uint8_t, 37> cookie{};
          asio::read(sock, asio::buffer(cookie));
          if (!reply.empty()) asio::write(sock, asio::buffer(reply));
        }) {}
  ~cookie_then_reply() { thread_.join(); }
  cookie_then_reply(const cookie_then_reply&) = delete;
  cookie_then_reply& operator=(const cookie_then_reply&) = delete;

  [[nodiscard]] std::uint16_t port() const { return listener_.local_endpoint().port(); }

 private:
  asio::io_context io_;
  asio::ip::tcp::acceptor listener_;
  std::thread thread_;
};

TEST(OurClient, AServerErrorReachesTheUserInTheServersWords) {
  // A server that refuses the test with SERVER_ERROR, as a 3.21 server with
  // --server-max-duration refuses a longer -t: i_errno 37, no errno.
  const cookie_then_reply server({0xFE, 0, 0, 0, 37, 0, 0, 0, 0});
  const auto at = server.port();
  auto o = quick_client(5s);
  o.host = "127.0.0.1";
  o.port = at;
  try {
    (void)hil::session::run_client(o);
    FAIL() << "a refused test must throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "server error from 127.0.0.1:" + std::to_string(at) +
                  ": client's requested duration exceeds the server's maximum permitted limit");
  }
}

TEST(OurClient, AServerThatNeverAnswersAsIperf3IsNamedAsSuch) {
  // What iperf 2's `iperf -s` does with an iperf3 client: reads the cookie as its own header,
  // finds it wrong and closes, before any iperf3 state.
  const cookie_then_reply server({});
  auto o = quick_client(5s);
  o.host = "127.0.0.1";
  o.port = server.port();
  o.busy_retry = 0ms;  // one attempt: a close before any state is not retried as "finishing"
  try {
    (void)hil::session::run_client(o);
    FAIL() << "a server that never answers must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed the control connection"));
    EXPECT_THAT(e.what(), HasSubstr("no iperf3 state came on this connection: is the peer an "
                                    "iperf3 server? an iperf 2 server, `iperf -s`"));
  }
}

TEST(OurClient, NothingListeningSaysWhatToStart) {
  auto o = quick_client(1s);
  o.refused_retry = 200ms;
  try {
    hil::session::run_client(o);
    FAIL() << "no server: must throw";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("nothing listens on " + peer_address(false) + ":5201"));
    EXPECT_THAT(e.what(), HasSubstr("iperf3 -s -p 5201"));
  }
}

TEST(OurClient, AnUnansweredAddressTimesOutWithTheLikelyCauses) {
  auto o = quick_client(1s);
  o.host = "198.18.0.77";  // in the bench subnet, but nobody has it: ARP goes unanswered
  o.connect_timeout = 1500ms;
  const auto start = std::chrono::steady_clock::now();
  try {
    hil::session::run_client(o);
    FAIL() << "an absent host must not connect";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), ::testing::AnyOf(HasSubstr("no answer from 198.18.0.77:5201"),
                                           HasSubstr("no route to 198.18.0.77")));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "the wait must be bounded";
}

TEST(OurClient, AnOversizeDatagramWithDontFragmentFailsLoudly) {
  const auto server = start_server(side::ours, true);
  auto o = quick_client(2s);
  o.spec.proto = protocol::udp;
  o.spec.block_len = 2000;  // the DUT end's MTU is 1500: 2000 + 28 does not fit
  o.spec.dont_fragment = true;
  o.spec.bitrate_bps = 10'000'000;
  try {
    hil::session::run_client(o);
    FAIL() << "an oversize datagram with DF set must fail the test";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Message too long"));
    EXPECT_THAT(e.what(), HasSubstr("a 2000-byte datagram does not fit the path MTU"));
  }
}

TEST(OurClient, AnAbortSendsClientTerminateSoAStockServerIsFreeAtOnce) {
  const auto server = start_server(side::stock, false);
  std::atomic<bool> abort{false};
  auto o = quick_client(30s);
  o.abort = &abort;
  std::atomic<int> intervals{0};
  o.on_interval = [&](const hil::measure::interval_sample&) { ++intervals; };
  auto run = std::async(std::launch::async, [&] { return hil::session::run_client(o); });
  ASSERT_TRUE(hil::test::eventually([&] { return intervals > 0; }, 5s)) << server->output();
  abort = true;
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready);
  EXPECT_THROW(run.get(), std::system_error);
  EXPECT_TRUE(server->wait_for_output("the client has terminated", 5s)) << server->output();
  const auto next = hil::session::run_client(quick_client(1s));
  EXPECT_TRUE(next.error.empty());
  EXPECT_GT(next.streams.at(0).receiver.bytes, 0U);
}

TEST(OurClient, BindToDeviceSendsThroughThatInterfaceOnly) {
  const auto server = start_server(side::ours, false);
  auto through_dut = quick_client(1s);
  through_dut.spec.bind_device = bench().dut_interface;
  EXPECT_GT(hil::session::run_client(through_dut).streams.at(0).receiver.bytes, 0U);
  auto through_lo = quick_client(1s);
  through_lo.spec.bind_device = "lo";  // as `ping -I lo`: the peer is not reachable that way
  through_lo.connect_timeout = 1s;
  through_lo.refused_retry = 0s;
  EXPECT_THROW(hil::session::run_client(through_lo), std::system_error);
}

TEST(OurPeer, APortInUseNamesTheProcessHoldingIt) {
  const auto holder = start_server(side::stock, false);
  hil::sys::child_process second({"ip", "netns", "exec", bench().peer_netns, HILPERF_PEER_BINARY,
                                  "-s", "-p", std::to_string(port)});
  EXPECT_EQ(second.wait(10s), 1);
  EXPECT_THAT(second.output(), HasSubstr("port 5201 is already in use by iperf3 (pid"));
}

#endif  // HIL_INTEROP_QUALIFY

}  // namespace
