// netperf's request/response workloads through the hilperf extension, on a veth pair in namespaces
// this run created (netns_main.cpp): each workload against our peer, IPv4 and IPv6, large
// messages, RRUL load; a stock iperf3 peer declines visibly and stays usable; a peer that stops
// answering or dies mid-run fails the run within a bounded time.
//
// Port 5201 is fixed on purpose: the peer namespace belongs to this test process alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <future>

#include "hil/bench/sim_bench.hpp"
#include "hil/session/iperf3_client.hpp"
#include "hil/session/workload_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
using hil::measure::workload;

constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

std::string peer_address(bool ipv6 = false) {
  const std::string cidr = ipv6 ? bench().peer_ipv6 : bench().peer_ipv4;
  return hil::sys::without_prefix(cidr);
}

// A server in the peer namespace, listening when this returns.
std::unique_ptr<hil::sys::child_process> start_peer(bool stock = false,
                                                    const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{"ip", "netns", "exec", bench().peer_netns};
  if (stock) {
    argv.insert(argv.end(), {"iperf3", "-s", "--forceflush", "-p", std::to_string(port)});
  } else {
    argv.insert(argv.end(), {HILPERF_PEER_BINARY, "-s", "-p", std::to_string(port)});
  }
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto peer = std::make_unique<hil::sys::child_process>(argv);
  EXPECT_TRUE(peer->wait_for_output(stock ? "Server listening on" : "listening on port", 10s))
      << peer->output();
  return peer;
}

hil::session::workload_options options(workload kind, bool ipv6 = false) {
  hil::session::workload_options o;
  o.host = peer_address(ipv6);
  o.port = port;
  o.spec.kind = kind;
  o.spec.duration = 1s;
  o.control_timeout = 5s;
  return o;
}

// What every completed RR run must show, whatever the workload.
void expect_sane(const hil::measure::rr_result& r) {
  const auto s = r.latency.summarize();
  EXPECT_GT(r.transactions, 100U) << "a veth round trip takes well under 10 ms";
  EXPECT_EQ(s.count, r.transactions) << "one latency sample per transaction";
  EXPECT_NEAR(r.seconds, 1.0, 0.2);
  EXPECT_GT(s.min_us, 0);
  EXPECT_LE(s.min_us, s.p50_us);
  EXPECT_LE(s.p50_us, s.p99_us);
  EXPECT_LE(s.p99_us, s.max_us);
  EXPECT_NEAR(r.transactions_per_second() * s.mean_us / 1e6, 1.0, 0.2)
      << "one at a time: rate × mean latency ≈ 1";
  // The peer counted every answer it sent; UDP answers may be lost, TCP ones never.
  EXPECT_GE(r.peer_transactions, r.transactions);
  EXPECT_LE(r.peer_transactions, r.transactions + r.lost + 1);
}

struct rr_case {
  std::string name;
  workload kind;
  bool ipv6 = false;
  std::uint32_t request = 1;
  std::uint32_t response = 1;
};
void PrintTo(const rr_case& c, std::ostream* os) { *os << c.name; }

class Workload : public ::testing::TestWithParam<rr_case> {};

TEST_P(Workload, AgainstOurPeer) {
  const auto& c = GetParam();
  const auto peer = start_peer();
  auto o = options(c.kind, c.ipv6);
  o.spec.request_size = c.request;
  o.spec.response_size = c.response;
  const auto r = hil::session::run_workload(o);
  expect_sane(r);
  EXPECT_EQ(r.lost, 0U) << "an unshaped-in-practice veth loses no datagram at one in flight";
}

INSTANTIATE_TEST_SUITE_P(
    Rr, Workload,
    ::testing::Values(rr_case{"TcpRr", workload::tcp_rr}, rr_case{"TcpCrr", workload::tcp_crr},
                      rr_case{"UdpRr", workload::udp_rr},
                      rr_case{"TcpRrIpv6", workload::tcp_rr, true},
                      rr_case{"UdpRrIpv6", workload::udp_rr, true},
                      rr_case{"TcpRrLarge", workload::tcp_rr, false, 1000, 65536},
                      rr_case{"TcpCrrLarge", workload::tcp_crr, false, 200, 20000},
                      rr_case{"UdpRrLarge", workload::udp_rr, false, 1200, 1472}),
    [](const auto& param_info) { return param_info.param.name; });

// The run's bench re-shaped to mbit for a test's lifetime, then put back (bench_up re-applies a
// layout's settings in place).
class reshaped_link {
 public:
  explicit reshaped_link(int mbit) {
    auto slower = bench();
    slower.shape_mbit = mbit;
    hil::bench::bench_up(slower);
  }
  reshaped_link(const reshaped_link&) = delete;
  reshaped_link& operator=(const reshaped_link&) = delete;
  ~reshaped_link() {
    try {
      hil::bench::bench_up(bench());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "could not restore the bench's shaping: " << e.what();
    }
  }
};

TEST(WorkloadLoad, LatencyGrowsUnderRrulLoadOnAShapedLink) {
  // 100 Mbit/s, so the load is limited by the link and not by two busy vCPUs: the tbf queue
  // (20 ms each way) fills whatever else the machine does.
  const reshaped_link link(100);
  const auto peer = start_peer();
  auto o = options(workload::tcp_rr);
  const auto idle = hil::session::run_workload(o);
  o.spec.load_streams = 2;
  o.spec.duration = 2s;
  const auto loaded = hil::session::run_workload(o);
  EXPECT_GT(loaded.load_up_bps, 60e6);
  EXPECT_GT(loaded.load_down_bps, 60e6);
  EXPECT_LT(loaded.load_up_bps, 101e6);
  // Against the idle median: one scheduler hiccup in the idle run moves its p99, not its p50.
  const auto idle_p50 = idle.latency.summarize().p50_us;
  const auto loaded_p50 = loaded.latency.summarize().p50_us;
  EXPECT_GT(loaded_p50, 1000.0) << "a filled 20 ms queue delays most transactions by > 1 ms";
  EXPECT_GT(loaded_p50, 10 * idle_p50)
      << "idle p50 " << idle_p50 << " us, loaded p50 " << loaded_p50 << " us";
}

TEST(WorkloadDataPort, AFixedDataPortServesEveryWorkload) {
  // For a PC behind a firewall: one known port (TCP and UDP) besides the control port.
  const auto peer = start_peer(false, {"--data-port", "5301"});
  for (const auto kind : {workload::tcp_rr, workload::udp_rr, workload::tcp_crr}) {
    expect_sane(hil::session::run_workload(options(kind)));
  }
  EXPECT_TRUE(peer->wait_for_output("TCP_CRR (1 B/1 B) on data port 5301", 5s)) << peer->output();
}

TEST(WorkloadFault, AStockPeerDeclinesAndStaysUsable) {
  const auto peer = start_peer(true);
  EXPECT_THAT([] { (void)hil::session::run_workload(options(workload::tcp_rr)); },
              ::testing::ThrowsMessage<hil::session::extension_unsupported>(
                  HasSubstr("is a stock iperf3 server: TCP_RR needs the hilperf extension")));
  // CLIENT_TERMINATE released it: an ordinary test runs at once.
  hil::session::client_options o;
  o.host = peer_address();
  o.port = port;
  o.spec.duration = 1s;
  const auto r = hil::session::run_client(o);
  EXPECT_GT(r.streams.at(0).receiver.bytes, 0U);
}

// A peer frozen (SIGSTOP) or killed mid-run: the run fails within the response timeout plus
// slack, naming the cause, instead of hanging.
class WorkloadPeerGone : public ::testing::TestWithParam<std::pair<workload, int>> {};

TEST_P(WorkloadPeerGone, FailsWithinBoundedTime) {
  const auto [kind, sig] = GetParam();
  const auto peer = start_peer();
  auto o = options(kind);
  o.spec.duration = 30s;
  o.spec.response_timeout = 500ms;
  std::promise<void> flowing;  // the fault is mid-run: after the 100th transaction
  o.on_transaction = [&flowing](std::uint64_t n) {
    if (n == 100) flowing.set_value();
  };
  auto run = std::async(std::launch::async, [&] { return hil::session::run_workload(o); });
  ASSERT_EQ(flowing.get_future().wait_for(10s), std::future_status::ready)
      << "no 100 transactions within 10 s on a healthy peer";
  const auto t0 = std::chrono::steady_clock::now();
  peer->signal(sig);
  ASSERT_EQ(run.wait_for(10s), std::future_status::ready) << "the run did not end";
  const auto took = std::chrono::steady_clock::now() - t0;
  try {
    (void)run.get();
    FAIL() << "a run whose peer vanished must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), AnyOf(HasSubstr("stopped answering"), HasSubstr("closed the connection"),
                                HasSubstr("reset"), HasSubstr("refused")))
        << e.what();
  }
  EXPECT_LT(took, 3s);
  peer->signal(SIGCONT);
}

INSTANTIATE_TEST_SUITE_P(Faults, WorkloadPeerGone,
                         ::testing::Values(std::pair{workload::tcp_rr, SIGSTOP},
                                           std::pair{workload::udp_rr, SIGSTOP},
                                           std::pair{workload::tcp_crr, SIGSTOP},
                                           std::pair{workload::tcp_rr, SIGKILL},
                                           std::pair{workload::tcp_crr, SIGKILL}),
                         [](const auto& param_info) {
                           return std::string(hil::measure::workload_name(param_info.param.first)) +
                                  (param_info.param.second == SIGKILL ? "Killed" : "Frozen");
                         });

}  // namespace
