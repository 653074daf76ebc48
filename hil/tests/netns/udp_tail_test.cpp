// The tail of a UDP test at TEST_END, against a stock `iperf3 -s`: the server stops reading its
// data sockets the moment TEST_END arrives (3.12 handles the control socket before the data in
// the same select() wake-up), so a datagram that has not reached it by then is never counted —
// sent, not received: a loss the port never had. Our client sends TEST_END only once its
// datagrams have left this host (SIOCOUTQ: the socket, qdisc and driver hold none) and had
// 20 ms to cross the link.
//
// The fault: the DUT's port is a slow queue that the control connection overtakes, as on a NIC
// with several transmit queues (here htb: TCP through an unshaped class, everything else 1 Mbit/s
// behind a 1,000-packet FIFO). A burst of 40 frames of 1518 bytes at ten times the port's rate
// all fits the FIFO, so nothing is lost, but its last frame leaves ~0.5 s after it was sent.
// With TEST_END 20 ms after the last send, as before, the server counted 20 of the 40.
//
// The same port on the peer's end, the other way (-R -k: the peer sends a burst of 40 frames):
// our client has no sender to reach the count, so it watches what arrives and ends when all 40
// did (or 1 s after the last arrival). It used to end at once, counting what had arrived by then:
// none of the burst that the slow port still held. Proven against a stock server and hilperf-peer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/bench/sim_bench.hpp"
#include "hil/measure/frames.hpp"
#include "hil/session/frame_trial.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using namespace std::chrono_literals;
constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

enum class end { dut, peer };

// One end's egress as a slow port that TCP bypasses, for this object's lifetime; the bench's own
// shaping is back on destruction.
class port_tcp_bypasses {
 public:
  port_tcp_bypasses(end which, int slow_mbit)
      : netns_(which == end::dut ? bench().dut_netns : bench().peer_netns),
        dev_(which == end::dut ? bench().dut_interface : bench().peer_interface) {
    const std::string& dev = dev_;
    tc({"qdisc", "replace", "dev", dev, "root", "handle", "1:", "htb", "default", "2"});
    tc({"class", "add", "dev", dev, "parent", "1:", "classid", "1:1", "htb", "rate", "1gbit"});
    const std::string slow = std::to_string(slow_mbit) + "mbit";
    tc({"class", "add", "dev", dev, "parent", "1:", "classid", "1:2", "htb", "rate", slow, "ceil",
        slow});
    tc({"qdisc", "add", "dev", dev, "parent", "1:2", "pfifo", "limit", "1000"});
    tc({"filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "prio", "1", "u32", "match",
        "ip", "protocol", "6", "0xff", "flowid", "1:1"});
  }
  ~port_tcp_bypasses() {
    try {
      hil::bench::shape(netns_, dev_, bench().shape_mbit);
    } catch (const std::exception& e) {
      std::cerr << "could not restore the bench's shaping: " << e.what() << '\n';
    }
  }
  port_tcp_bypasses(const port_tcp_bypasses&) = delete;
  port_tcp_bypasses& operator=(const port_tcp_bypasses&) = delete;

 private:
  void tc(std::vector<std::string> args) const {
    args.insert(args.begin(), {"tc", "-n", netns_});
    const auto r = hil::sys::run(args, 10s);
    if (r.exit_code != 0) {
      throw std::runtime_error("tc failed (" + std::to_string(r.exit_code) + "): " + r.output);
    }
  }

  std::string netns_;
  std::string dev_;
};

constexpr int slow_mbit = 1;
constexpr std::uint32_t frame = 1518;
constexpr std::uint64_t frames = 40;

hil::session::frame_trial_options burst_options() {
  hil::session::frame_trial_options o;
  o.base.host = hil::sys::without_prefix(bench().peer_ipv4);
  o.base.port = port;
  o.frame_bytes = frame;
  return o;
}

// Ten times what the slow port carries: the whole burst queues in its FIFO and its last frame
// leaves ~0.5 s after it was sent.
double burst_fps() { return 10 * hil::measure::media_max_fps(slow_mbit * 1'000'000ULL, frame); }

// A stock `iperf3 -s` in the peer's namespace, listening (the test fails if it does not start).
std::unique_ptr<hil::sys::child_process> start_stock_server() {
  auto server = std::make_unique<hil::sys::child_process>(
      std::vector<std::string>{"ip", "netns", "exec", bench().peer_netns, "iperf3", "-s",
                               "--forceflush", "-p", std::to_string(port)});
  EXPECT_TRUE(server->wait_for_output("Server listening on", 10s)) << server->output();
  return server;
}

// A -R burst from the peer through its slow port: every frame arrives, and our client counts all.
void expect_reverse_burst_counted_whole() {
  const port_tcp_bypasses port_shape(end::peer, slow_mbit);
  auto o = burst_options();
  o.base.spec.reverse = true;
  const auto r = hil::session::run_frame_burst(o, burst_fps(), frames);
  EXPECT_EQ(r.sent, frames);
  EXPECT_EQ(r.received, frames)
      << "the DUT's -R client ended with " << frames - r.received
      << " of the peer's frames still queued in the peer's port (it holds them all: a "
         "1,000-packet FIFO); a -k test the peer sends ends when all arrived";
}

TEST(UdpTail, AStockServerCountsEveryFrameStillQueuedInTheDutsPortAtTheEnd) {
  const auto server = start_stock_server();
  const port_tcp_bypasses port_shape(end::dut, slow_mbit);
  const auto r = hil::session::run_frame_burst(burst_options(), burst_fps(), frames);
  EXPECT_EQ(r.sent, frames);
  EXPECT_EQ(r.received, frames)
      << "the stock server stopped counting at TEST_END while " << frames - r.received
      << " frames were still queued in the DUT's port (it holds them all: a 1,000-packet FIFO); "
         "TEST_END went out before they left this host";
}

TEST(UdpTail, AReverseBurstFromAStockServerEndsWhenEveryFrameArrived) {
  const auto server = start_stock_server();
  expect_reverse_burst_counted_whole();
}

TEST(UdpTail, AReverseBurstFromHilperfPeerEndsWhenEveryFrameArrived) {
  hil::sys::child_process peer({"ip", "netns", "exec", bench().peer_netns, HILPERF_PEER_BINARY,
                                "-s", "-p", std::to_string(port), "--iperf2-port", "0"});
  ASSERT_TRUE(peer.wait_for_output("listening on port", 10s)) << peer.output();
  expect_reverse_burst_counted_whole();
}

}  // namespace
