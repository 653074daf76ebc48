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
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/bench/sim_bench.hpp"
#include "hil/measure/frames.hpp"
#include "hil/session/frame_trial.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using namespace std::chrono_literals;
constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

// The DUT end's egress as a slow port that TCP bypasses, for this object's lifetime; the bench's
// own shaping is back on destruction.
class port_tcp_bypasses {
 public:
  explicit port_tcp_bypasses(int slow_mbit) {
    const std::string& dev = bench().dut_interface;
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
      hil::bench::shape(bench().dut_netns, bench().dut_interface, bench().shape_mbit);
    } catch (const std::exception& e) {
      std::cerr << "could not restore the bench's shaping: " << e.what() << '\n';
    }
  }
  port_tcp_bypasses(const port_tcp_bypasses&) = delete;
  port_tcp_bypasses& operator=(const port_tcp_bypasses&) = delete;

 private:
  static void tc(std::vector<std::string> args) {
    args.insert(args.begin(), {"tc", "-n", bench().dut_netns});
    const auto r = hil::sys::run(args, 10s);
    if (r.exit_code != 0) {
      throw std::runtime_error("tc failed (" + std::to_string(r.exit_code) + "): " + r.output);
    }
  }
};

TEST(UdpTail, AStockServerCountsEveryFrameStillQueuedInTheDutsPortAtTheEnd) {
  hil::sys::child_process server({"ip", "netns", "exec", bench().peer_netns, "iperf3", "-s",
                                  "--forceflush", "-p", std::to_string(port)});
  ASSERT_TRUE(server.wait_for_output("Server listening on", 10s)) << server.output();
  constexpr int slow_mbit = 1;
  constexpr std::uint32_t frame = 1518;
  constexpr std::uint64_t frames = 40;
  const port_tcp_bypasses port_shape(slow_mbit);
  hil::session::frame_trial_options o;
  o.base.host = bench().peer_ipv4.substr(0, bench().peer_ipv4.find('/'));
  o.base.port = port;
  o.frame_bytes = frame;
  const double port_fps = hil::measure::media_max_fps(slow_mbit * 1'000'000ULL, frame);
  const auto r = hil::session::run_frame_burst(o, 10 * port_fps, frames);
  EXPECT_EQ(r.sent, frames);
  EXPECT_EQ(r.received, frames)
      << "the stock server stopped counting at TEST_END while " << frames - r.received
      << " frames were still queued in the DUT's port (it holds them all: a 1,000-packet FIFO); "
         "TEST_END went out before they left this host";
}

}  // namespace
