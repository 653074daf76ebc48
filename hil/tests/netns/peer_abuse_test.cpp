// hilperf-peer against what a lab PC's network can throw at it (issue 13's probes), a real peer
// process in the peer namespace of this run's bench: each probe asserts the outcome a peer left
// running for months must show.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <asio.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hil/sys/child_process.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address() { return bench().peer_ipv4.substr(0, bench().peer_ipv4.find('/')); }

// hilperf-peer in the peer namespace, at most `files` descriptors open (0: no limit of ours).
std::unique_ptr<hil::sys::child_process> start_peer(int files) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  if (files > 0) {
    argv.insert(argv.end(),
                {"prlimit", "--nofile=" + std::to_string(files) + ":" + std::to_string(files)});
  }
  argv.insert(argv.end(),
              {HILPERF_PEER_BINARY, "-s", "-p", std::to_string(port), "--iperf2-port", "0"});
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

}  // namespace
