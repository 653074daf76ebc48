// UDP datagrams larger than the path MTU, unpaced (-b 0): they go out in IP fragments, as
// iperf3's do (seed 000's "-l" above the MTU). Our unpaced sender batches with UDP GSO, which
// cannot cut a segment beyond the MTU: the kernel refused every send with EMSGSIZE and the test
// failed at once ("Message too long … don't-fragment is set", which it was not). GSO is now used
// only for datagrams that fit the path MTU.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "hil/session/iperf3_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using namespace std::chrono_literals;
constexpr std::uint16_t port = 5201;

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }

TEST(UdpFragments, UnpacedDatagramsLargerThanTheMtuGoOutInFragmentsAsIperf3s) {
  hil::sys::child_process server({"ip", "netns", "exec", bench().peer_netns, "iperf3", "-s",
                                  "--forceflush", "-p", std::to_string(port)});
  ASSERT_TRUE(server.wait_for_output("Server listening on", 10s)) << server.output();
  hil::session::client_options o;
  o.host = hil::sys::without_prefix(bench().peer_ipv4);
  o.port = port;
  o.spec.proto = hil::measure::protocol::udp;
  o.spec.block_len = 2972;  // two fragments on the DUT's port (MTU 1500)
  o.spec.bitrate_bps = 0;
  o.spec.bitrate_given = true;
  o.spec.duration = 1s;
  const auto r = hil::session::run_client(o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_FALSE(r.streams.empty());
  EXPECT_GT(r.streams.front().sender.packets, 0);
  EXPECT_GT(r.streams.front().receiver.packets, 0)
      << "the stock server received none of our 2972-byte datagrams";
}

}  // namespace
