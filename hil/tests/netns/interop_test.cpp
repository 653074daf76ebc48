// The interop matrix on a veth pair in namespaces this run created (netns_main.cpp): our client
// against stock `iperf3 -s`, stock `iperf3 -c` against our peer, and ours against ours; TCP and
// UDP, -R, --bidir, -P 4, IPv4 and IPv6, -O, -n, --get-server-output, RSA authentication. Both
// ends' figures must agree. The faults are in interop_fault_test.cpp; hil_interop_qualify runs
// this matrix against the iperf3 builds named in HILPERF_IPERF3_BINARIES.
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
#include "hil/sys/process.hpp"
#include "hil/sys/text_file.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"
#include "interop.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
using namespace hil::test::interop;
using hil::measure::protocol;

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

void PrintTo(const interop_case& c, std::ostream* os) { *os << c.name; }

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
      // Every datagram is len bytes at both ends, so the receiver's bytes count what it received,
      // and what it counts as lost is exactly the gaps below its highest sequence (a veth
      // neither duplicates nor reorders here; loss itself may happen, see above).
      EXPECT_EQ(s.receiver.bytes % len, 0U) << "received bytes are not whole datagrams";
      const auto received = static_cast<std::int64_t>(s.receiver.bytes / len);
      EXPECT_EQ(s.receiver.errors, s.receiver.packets - received)
          << "lost is not highest sequence - datagrams received (" << received << ")";
      EXPECT_GT(received, 0) << "nothing was received";
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
#endif  // HIL_INTEROP_QUALIFY

}  // namespace
