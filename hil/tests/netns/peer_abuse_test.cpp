// hilperf-peer against what a lab PC's network can throw at it (label abuse), a real peer
// process in the peer namespace of this run's bench: each probe asserts the outcome a peer left
// running for months must show: out of descriptors, capped tests, garbage connections, strangers
// on the extension's data port.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <asio.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hil/session/workload_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address() { return hil::sys::without_prefix(bench().peer_ipv4); }

// hilperf-peer in the peer namespace, at most `files` descriptors open (0: no limit of ours),
// with `flags` added to its command line.
std::unique_ptr<hil::sys::child_process> start_peer(int files,
                                                    const std::vector<std::string>& flags = {}) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  if (files > 0) {
    argv.insert(argv.end(),
                {"prlimit", "--nofile=" + std::to_string(files) + ":" + std::to_string(files)});
  }
  argv.insert(argv.end(),
              {HILPERF_PEER_BINARY, "-s", "-p", std::to_string(port), "--iperf2-port", "0"});
  argv.insert(argv.end(), flags.begin(), flags.end());
  auto peer = std::make_unique<hil::sys::child_process>(argv);
  EXPECT_TRUE(peer->wait_for_output("listening on port", 10s)) << peer->output();
  return peer;
}

// The descriptor numbers the process has open.
std::set<int> open_descriptors(pid_t pid) {
  std::set<int> fds;
  for (const auto& e :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    fds.insert(std::stoi(e.path().filename().string()));
  }
  return fds;
}

// The descriptor limit that leaves exactly one number free for a process with `open` open: a new
// descriptor takes the lowest free number below the limit, so the limit is the second free one.
int limit_for_one_more(const std::set<int>& open) {
  int free_seen = 0;
  for (int n = 0;; ++n) {
    if (open.contains(n)) continue;
    if (++free_seen == 2) return n;
  }
}

// A stock iperf3 client (Debian's 3.12, from PATH) against the peer, from the DUT's namespace
// (this process's); its exit status and output.
struct stock_run {
  std::optional<int> status;
  std::string output;
  double seconds = 0;
};
stock_run stock_client(std::vector<std::string> flags) {
  std::vector<std::string> argv{"iperf3", "-c", peer_address(), "-p", std::to_string(port)};
  argv.insert(argv.end(), flags.begin(), flags.end());
  const auto t0 = std::chrono::steady_clock::now();
  hil::sys::child_process c(argv);
  stock_run r;
  r.status = c.wait(30s);
  r.output = c.output();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// The descriptors pid has open beyond `expected`, each with what it refers to, and those missing.
std::string describe_descriptors(pid_t pid, const std::set<int>& expected) {
  std::string out;
  const auto now = open_descriptors(pid);
  for (const int fd : now) {
    if (expected.contains(fd)) continue;
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(
        "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd), ec);
    out += " +" + std::to_string(fd) + " (" + (ec ? "gone" : target.string()) + ")";
  }
  for (const int fd : expected) {
    if (!now.contains(fd)) out += " -" + std::to_string(fd);
  }
  return out.empty() ? "(none now)" : out;
}

// A field of /proc/<pid>/status ("Threads", "VmRSS" in kB).
long status_field(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + ":", 0) == 0) return std::stol(line.substr(name.size() + 1));
  }
  return -1;
}

// A request/response workload against the peer from the DUT's namespace, running in the
// background while a test probes the peer beside it.
struct workload_run {
  workload_run(hil::measure::workload kind, std::chrono::seconds duration) {
    o.host = peer_address();
    o.port = port;
    o.spec.kind = kind;
    o.spec.duration = duration;
    o.on_transaction = [this](std::uint64_t n) {
      if (n == 100) started.set_value();
    };
    result = std::async(std::launch::async, [this] { return hil::session::run_workload(o); });
  }
  // True once 100 transactions have completed (within 10 s): the probe is then mid-test.
  bool flowing() { return started.get_future().wait_for(10s) == std::future_status::ready; }
  hil::session::workload_options o;
  std::promise<void> started;
  std::future<hil::measure::rr_result> result;
};

// CPU time (user + system) the process has used, in seconds.
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
  std::string f;
  long utime = 0, stime = 0;
  for (int i = 3; fields >> f; ++i) {
    if (i == 14) utime = std::stol(f);
    if (i == 15) {
      stime = std::stol(f);
      break;
    }
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

TEST(PeerAbuse, OutOfDescriptorsTheAcceptLoopWaitsAndSaysSoOnce) {
  // The peer's descriptors when idle, then a peer allowed exactly one more: the first client takes
  // it, the second waits in the backlog and every accept for it fails with EMFILE.
  std::set<int> idle;
  {
    const auto probe = start_peer(0);
    idle = open_descriptors(probe->pid());
  }
  const auto peer = start_peer(limit_for_one_more(idle));
  ASSERT_EQ(open_descriptors(peer->pid()), idle);
  asio::io_context io;
  const asio::ip::tcp::endpoint to(asio::ip::make_address(peer_address()), port);
  asio::ip::tcp::socket first(io), second(io);
  first.connect(to);
  second.connect(to);  // completes in the kernel's backlog; the peer cannot accept it
  ASSERT_TRUE(hil::test::eventually(
      [&] { return peer->output().find("cannot accept connections") != std::string::npos; }, 5s))
      << peer->output();
  const double before = cpu_seconds(peer->pid());
  std::this_thread::sleep_for(2s);
  const double busy = cpu_seconds(peer->pid()) - before;
  std::cout << "peer CPU while out of descriptors: " << busy << " s in 2 s\n";
  // A spinning loop burns the whole 2 s (about 1 s on a loaded core); waiting 100 ms between
  // tries costs a few ms.
  EXPECT_LT(busy, 0.2) << "the accept loop spins: " << busy << " s of CPU in 2 s";
  const std::string out = peer->output();
  std::size_t lines = 0;
  for (auto at = out.find("cannot accept connections"); at != std::string::npos;
       at = out.find("cannot accept connections", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 1U) << out;
}

TEST(PeerAbuse, CapsRefuseStockClientsUpFrontInIperf3sWordsAndTheNextIsServed) {
  const auto peer = start_peer(
      0, {"--server-max-duration", "5", "--max-streams", "4", "--server-bitrate-limit", "50M"});
  struct probe {
    std::vector<std::string> flags;
    std::string client_says;  // Debian's iperf3 3.12's words for the error code
    std::string peer_says;
  };
  const std::vector<probe> probes{
      // 3.12 has no text for IEMAXSERVERTESTDURATIONEXCEEDED (37); 3.17+ print "client's requested
      // duration exceeds the server's maximum permitted limit".
      {{"-t", "10"}, "int_errno=37", "10 s (-t + -O) asked, more than --server-max-duration 5 s"},
      {{"-n", "1M"}, "int_errno=37", "an untimed test (-n/-k) under --server-max-duration 5 s"},
      {{"-t", "1", "-P", "3", "--bidir"},
       "number of parallel streams too large",
       "6 streams asked, more than --max-streams 4"},
      {{"-t", "1", "-u", "-b", "60M"},
       "total required bandwidth is larger than server limit",
       "60000000 bit/s asked (-b × -P), more than --server-bitrate-limit 50000000 bit/s"},
  };
  for (const auto& p : probes) {
    const auto r = stock_client(p.flags);
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_THAT(r.output, HasSubstr(p.client_says));
    EXPECT_LT(r.seconds, 3.0) << "refused only after " << r.seconds << " s: " << r.output;
    EXPECT_TRUE(peer->wait_for_output(p.peer_says, 2s)) << peer->output();
  }
  const auto honest = stock_client({"-t", "1", "-u", "-b", "10M"});
  EXPECT_EQ(honest.status, 0) << honest.output << peer->output();
}

TEST(PeerAbuse, AClientFasterThanTheBitrateLimitIsEndedWithIperf3sWords) {
  // Unlimited TCP on the bench's gigabit link: about 950 Mbit/s against a 100 Mbit/s limit
  // averaged over 1 s.
  const auto peer = start_peer(0, {"--server-bitrate-limit", "100M/1"});
  const auto r = stock_client({"-t", "5"});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("total required bandwidth is larger than server limit"));
  EXPECT_LT(r.seconds, 3.5) << "ended only after " << r.seconds << " s";
  EXPECT_TRUE(peer->wait_for_output("averaged over 1 s, more than --server-bitrate-limit", 2s))
      << peer->output();
  const auto slow = stock_client({"-t", "2", "-b", "50M"});
  EXPECT_EQ(slow.status, 0) << slow.output << peer->output();
}

TEST(PeerAbuse, GarbageConnectionsLeaveNoTraceAndTheNextClientIsServed) {
  const auto peer = start_peer(0);
  ASSERT_EQ(stock_client({"-t", "1"}).status, 0);  // warm: the first test's allocations are done
  // Its session has closed its sockets once it logs the test (the client may finish first).
  ASSERT_TRUE(peer->wait_for_output("test 1 from", 5s)) << peer->output();
  const auto fds = open_descriptors(peer->pid());
  const long rss = status_field(peer->pid(), "VmRSS");
  asio::io_context io;
  const asio::ip::tcp::endpoint to(asio::ip::make_address(peer_address()), port);
  std::string garbage(4096, '\0');
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(i * 131 + 7);
  constexpr int connections = 3000;
  for (int i = 0; i < connections; ++i) {
    asio::ip::tcp::socket s(io);
    s.connect(to);
    asio::error_code ignored;
    asio::write(s, asio::buffer(garbage.data(), 1 + static_cast<std::size_t>(i) % garbage.size()),
                ignored);
  }
  // The last of them may still hold the server (a stock client would hear "busy", as from
  // iperf3): the peer has dealt with all once its log stops growing, within a bound.
  bool settled = false;
  const auto give_up = std::chrono::steady_clock::now() + 5s;
  for (std::size_t logged = 0; !settled && std::chrono::steady_clock::now() < give_up;) {
    std::this_thread::sleep_for(300ms);
    const std::size_t now = peer->output().size();
    settled = now == logged;
    logged = now;
  }
  ASSERT_TRUE(settled) << "still busy with garbage 5 s after the last connection";
  const auto next = stock_client({"-t", "1"});
  EXPECT_EQ(next.status, 0) << next.output << peer->output();
  ASSERT_TRUE(hil::test::eventually([&] { return open_descriptors(peer->pid()) == fds; }, 5s))
      << "descriptors left open after " << connections
      << " garbage connections: " << describe_descriptors(peer->pid(), fds) << "\n"
      << peer->output().substr(peer->output().size() > 2000 ? peer->output().size() - 2000 : 0);
  const long grown = status_field(peer->pid(), "VmRSS") - rss;
  std::cout << connections << " garbage connections: RSS " << rss << " kB, grown by " << grown
            << " kB; threads " << status_field(peer->pid(), "Threads") << "\n";
  EXPECT_LT(grown, 4096) << "RSS grew by " << grown << " kB";
}

TEST(PeerAbuse, TheExtensionsDataPortServesOnlyItsTestsClientWithItsToken) {
  const auto peer = start_peer(0, {"--data-port", "5302"});
  const long idle_threads = status_field(peer->pid(), "Threads");
  workload_run run(hil::measure::workload::tcp_rr, 3s);
  ASSERT_TRUE(run.flowing()) << "no 100 transactions within 10 s";
  const long test_threads = status_field(peer->pid(), "Threads");
  // Mid-test: connections to the data port without the test's token (each used to get a thread
  // of its own), and datagrams from a socket of no test (each used to get a 65,507-byte answer).
  asio::io_context io;
  const asio::ip::address at = asio::ip::make_address(peer_address());
  std::vector<asio::ip::tcp::socket> intruders;
  for (int i = 0; i < 200; ++i) {
    intruders.emplace_back(io).connect({at, 5302});
    const std::array<std::uint8_t, 4> old_hello{'H', 'X', 1, 'R'};  // version 1's, no token
    asio::write(intruders.back(), asio::buffer(old_hello));
  }
  asio::ip::udp::socket stranger(io, asio::ip::udp::v4());
  stranger.non_blocking(true);
  for (const std::size_t size : {1, 12, 64, 1472}) {
    stranger.send_to(asio::buffer(std::string(size, 'x')), {at, 5302});
  }
  const long busy_threads = status_field(peer->pid(), "Threads");
  std::this_thread::sleep_for(300ms);
  std::array<std::uint8_t, 65536> reply{};
  asio::error_code ec;
  (void)stranger.receive(asio::buffer(reply), 0, ec);
  EXPECT_EQ(ec, asio::error::would_block) << "the data port answered a socket of no test";
  const auto r = run.result.get();
  EXPECT_GT(r.transactions, 1000U) << "the test's own client was held up";
  std::cout << "peer threads: idle " << idle_threads << ", in TCP_RR " << test_threads
            << ", with 200 intruders as well " << busy_threads << "\n";
  EXPECT_EQ(busy_threads, test_threads) << "intruders got threads";
  EXPECT_TRUE(peer->wait_for_output("turned away", 5s)) << peer->output();
}

TEST(PeerAbuse, SilentConnectionsOnTheDataPortHoldUpNoTransaction) {
  const auto peer = start_peer(0, {"--data-port", "5302"});
  workload_run run(hil::measure::workload::tcp_crr, 2s);
  ASSERT_TRUE(run.flowing()) << "no 100 transactions within 10 s";
  // From the client's own host, connected and silent: each used to stop the peer's acceptor for
  // its 200 ms receive timeout, one after the other (20 of them: 4 s without a transaction).
  asio::io_context io;
  std::vector<asio::ip::tcp::socket> silent;
  for (int i = 0; i < 20; ++i) {
    silent.emplace_back(io).connect({asio::ip::make_address(peer_address()), 5302});
  }
  const auto r = run.result.get();
  const auto s = r.latency.summarize();
  std::cout << "TCP_CRR beside 20 silent connections: " << r.transactions << " transactions, max "
            << s.max_us << " us\n";
  EXPECT_LT(s.max_us, 1e6) << "a transaction waited behind the silent connections";
}

}  // namespace
