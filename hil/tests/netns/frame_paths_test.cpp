// The frame paths on a real veth pair: namespaces named after this process (hilperf-f<pid>-dut and
// -peer, unshaped), the tests in the DUT's. Every frame a path sends is counted on the peer twice:
// by a packet socket on pc0 that checks each sequence number arrives exactly once, and by the
// interface's rx_packets; a UDP socket on the peer receives them too, which the kernel allows only
// for frames whose IP and UDP checksums are right. The bench is kept quiet so the counters see
// nothing else: IPv6 off until the IPv6 test, permanent neighbour entries (no ARP during a trial).
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <iostream>

#include "hil/bench/sim_bench.hpp"
#include "hil/frame/batch_pacer.hpp"
#include "hil/frame/path_chain.hpp"
#include "hil/link/neighbour.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/peer_tap.hpp"

namespace {

using namespace std::chrono_literals;
using hil::frame::tx_path;
using ::testing::HasSubstr;

const hil::bench::sim_layout& layout() {
  static const hil::bench::sim_layout l = hil::bench::private_layout("f", "dut0");
  return l;
}

std::string dut_ip() { return hil::sys::without_prefix(layout().dut_ipv4); }
std::string peer_ip() { return hil::sys::without_prefix(layout().peer_ipv4); }

void in_ns(const std::string& ns, const std::vector<std::string>& argv) {
  std::vector<std::string> full{"ip", "netns", "exec", ns};
  full.insert(full.end(), argv.begin(), argv.end());
  hil::sys::run_checked(full);
}

void set_ipv6(bool on) {
  const std::string v = on ? "0" : "1";
  for (const auto& [ns, ifname] : {std::pair{layout().dut_netns, layout().dut_interface},
                                   std::pair{layout().peer_netns, layout().peer_interface}}) {
    for (const std::string& k : {std::string("all"), std::string("default"), ifname}) {
      in_ns(ns, {"sysctl", "-qw", "net.ipv6.conf." + k + ".disable_ipv6=" + v});
    }
  }
}

hil::link::mac_address mac_in(const std::string& ns, const std::string& ifname) {
  hil::link::mac_address mac{};
  hil::sys::with_socket_namespace(ns, [&] {
    hil::link::link_control link;
    mac = hil::link::interface_mac(link, ifname);
  });
  return mac;
}

// Each end's entry for the other, permanent: no ARP or neighbour discovery during a trial.
void pin_neighbours(const std::string& dut_addr, const std::string& peer_addr) {
  const auto& l = layout();
  in_ns(l.dut_netns, {"ip", "neigh", "replace", peer_addr, "lladdr",
                      hil::link::mac_text(mac_in(l.peer_netns, l.peer_interface)), "nud",
                      "permanent", "dev", l.dut_interface});
  in_ns(l.peer_netns, {"ip", "neigh", "replace", dut_addr, "lladdr",
                       hil::link::mac_text(mac_in(l.dut_netns, l.dut_interface)), "nud",
                       "permanent", "dev", l.peer_interface});
}

class FramePaths : public ::testing::TestWithParam<tx_path> {
 protected:
  void SetUp() override { pin_neighbours(dut_ip(), peer_ip()); }

  // Opens param's path alone, or skips saying why it cannot run here.
  std::unique_ptr<hil::frame::frame_sender> open(const hil::frame::frame_template& t) {
    hil::frame::chain_request req;
    req.ifname = layout().dut_interface;
    try {
      return hil::frame::open_path(GetParam(), req, t);
    } catch (const hil::frame::path_unavailable& e) {
      if (e.kind() == hil::frame::refusal::not_built) return nullptr;
      throw;
    }
  }

  // Sends n frames of size bytes on this path paced at rate, and checks both witnesses.
  void send_and_count(const std::string& src, const std::string& dst, std::uint32_t size,
                      std::uint64_t n, double rate) {
    hil::link::link_control link;
    const auto spec =
        hil::frame::flow_frame(link, layout().dut_interface, src, dst, 40000, 45000, size);
    const hil::frame::frame_template t(spec);
    const auto sender = open(t);
    if (!sender) GTEST_SKIP() << path_name(GetParam()) << " is not built (no libxdp)";
    hil::test::peer_tap tap(layout().peer_netns, layout().peer_interface, t, dst, 45000);
    const auto peer_before = tap.interface_counters();
    const auto tap_before = tap.tally();
    hil::frame::pace_plan plan;
    plan.frames_per_second = rate;
    plan.batch = 32;
    plan.duration = 30s;
    plan.frame_limit = n;
    const auto r = hil::frame::run_paced(*sender, link, plan);
    ASSERT_TRUE(r.drained) << r.path << ": not every frame completed";
    const auto seen = tap.wait_for(tap_before.ours + n, 5s);
    const auto peer_after = tap.interface_counters();
    SCOPED_TRACE(r.path + " (" + r.mode + ")");
    EXPECT_EQ(r.completed, n);
    EXPECT_EQ(r.refused, 0U);
    EXPECT_EQ(r.tx_packets, n) << "the DUT's tx_packets";
    EXPECT_EQ(r.tx_dropped, 0U);
    EXPECT_EQ(seen.ours - tap_before.ours, n) << "frames of the flow on the peer's packet socket";
    EXPECT_EQ(seen.duplicates, 0U) << "a sequence number arrived twice";
    EXPECT_EQ(seen.highest_seq, n - 1) << "with n frames and no duplicate: 0 … n−1, each once";
    EXPECT_EQ(seen.others - tap_before.others, 0U) << "the bench was not quiet";
    EXPECT_EQ(seen.drops, 0U) << "the peer's packet socket dropped frames: the count is not exact";
    EXPECT_EQ(peer_after.rx_packets - peer_before.rx_packets, n) << "the peer's rx_packets";
    EXPECT_EQ(seen.delivered - tap_before.delivered, n)
        << "datagrams the peer's UDP socket received (checksums the kernel accepted)";
  }
};

TEST_P(FramePaths, EveryFrameSentIsCountedOnceOnThePeer) {
  send_and_count(dut_ip(), peer_ip(), 64, 20000, 100000);
}

TEST_P(FramePaths, LargeFramesToo) { send_and_count(dut_ip(), peer_ip(), 1518, 5000, 50000); }

INSTANTIATE_TEST_SUITE_P(Path, FramePaths,
                         ::testing::Values(tx_path::af_xdp, tx_path::af_packet_ring,
                                           tx_path::udp_socket),
                         [](const auto& p) { return std::string(path_name(p.param)); });

TEST(FramePathChain, TakesAfXdpWhenBuiltElseSaysWhyAndTakesTheRing) {
  hil::link::link_control link;
  pin_neighbours(dut_ip(), peer_ip());
  const hil::frame::frame_template t(
      hil::frame::flow_frame(link, layout().dut_interface, dut_ip(), peer_ip(), 40000, 45000, 64));
  hil::frame::chain_request req;
  req.ifname = layout().dut_interface;
  const auto opened = hil::frame::open_frame_path(req, t);
  if (hil::frame::af_xdp_built()) {
    EXPECT_EQ(opened.sender->path(), tx_path::af_xdp) << opened.summary();
    EXPECT_THAT(opened.sender->mode(), HasSubstr("copy")) << "veth has no zero-copy";
    EXPECT_TRUE(opened.skipped.empty());
  } else {
    EXPECT_EQ(opened.sender->path(), tx_path::af_packet_ring);
    EXPECT_THAT(opened.summary(), HasSubstr("af_xdp skipped: not built with libxdp"));
  }
}

// Drops every capability this process has (a real EPERM, not a mock).
bool drop_all_capabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, 2> data{};
  return ::syscall(SYS_capset, &header, data.data()) == 0;
}

TEST(FramePathChain, WithoutPrivilegeEachSkippedPathSaysWhyAndTheSocketRemains) {
  hil::link::link_control link;
  pin_neighbours(dut_ip(), peer_ip());
  const hil::frame::frame_template t(
      hil::frame::flow_frame(link, layout().dut_interface, dut_ip(), peer_ip(), 40000, 45000, 64));
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    std::string summary = "no summary";
    try {
      if (!drop_all_capabilities()) ::_exit(2);
      hil::frame::chain_request req;
      req.ifname = layout().dut_interface;
      summary = hil::frame::open_frame_path(req, t).summary();
    } catch (const std::exception& e) {
      summary = std::string("threw: ") + e.what();
    }
    (void)!::write(fds[1], summary.data(), summary.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string summary(2048, '\0');
  const ssize_t got = ::read(fds[0], summary.data(), summary.size());
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "could not drop capabilities";
  summary.resize(static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
  EXPECT_THAT(summary, HasSubstr("udp_socket (sendmmsg)"));
  EXPECT_THAT(summary, HasSubstr("af_packet_ring skipped: no privilege"));
  EXPECT_THAT(summary, HasSubstr(hil::frame::af_xdp_built() ? "af_xdp skipped: no privilege"
                                                            : "af_xdp skipped: not built"));
}

TEST(NeighbourTable, AnAbsentNeighbourIsResolvedAndMatchesThePeersMac) {
  in_ns(layout().dut_netns, {"ip", "neigh", "flush", "dev", layout().dut_interface});
  hil::link::link_control link;
  const auto mac = hil::link::neighbour_mac(link, layout().dut_interface, peer_ip());
  EXPECT_EQ(hil::link::mac_text(mac),
            hil::link::mac_text(mac_in(layout().peer_netns, layout().peer_interface)));
  try {
    (void)hil::link::neighbour_mac(link, layout().dut_interface, "198.18.0.77", 300ms);
    FAIL() << "nobody has 198.18.0.77";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::host_unreachable);
    EXPECT_THAT(e.what(), HasSubstr("did not resolve 198.18.0.77"));
  }
}

// IPv6 on for one test's life (off again drops its addresses too).
struct ipv6_on {
  ipv6_on() { set_ipv6(true); }
  ~ipv6_on() {
    try {
      set_ipv6(false);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot turn IPv6 off again: " << e.what();
    }
  }
  ipv6_on(const ipv6_on&) = delete;
  ipv6_on& operator=(const ipv6_on&) = delete;
};

// IPv6 on makes the bench chatty (neighbour discovery, MLD), so only the flow is counted here.
TEST(FramePathsIpv6, FramesArriveWithValidChecksumsOnEveryPath) {
  const ipv6_on v6;
  const auto& l = layout();
  in_ns(l.dut_netns, {"ip", "addr", "add", "2001:2::10/64", "dev", l.dut_interface, "nodad"});
  in_ns(l.peer_netns, {"ip", "addr", "add", "2001:2::195/64", "dev", l.peer_interface, "nodad"});
  pin_neighbours("2001:2::10", "2001:2::195");
  hil::link::link_control link;
  const hil::frame::frame_template t(hil::frame::flow_frame(link, l.dut_interface, "2001:2::10",
                                                            "2001:2::195", 40000, 45000, 128));
  for (const tx_path p : {tx_path::af_xdp, tx_path::af_packet_ring, tx_path::udp_socket}) {
    if (p == tx_path::af_xdp && !hil::frame::af_xdp_built()) continue;
    SCOPED_TRACE(path_name(p));
    hil::frame::chain_request req;
    req.ifname = l.dut_interface;
    const auto sender = hil::frame::open_path(p, req, t);
    hil::test::peer_tap tap(l.peer_netns, l.peer_interface, t, "2001:2::195", 45000);
    hil::frame::pace_plan plan;
    plan.frames_per_second = 50000;
    plan.duration = 30s;
    plan.frame_limit = 5000;
    const auto r = hil::frame::run_paced(*sender, link, plan);
    ASSERT_TRUE(r.drained);
    const auto seen = tap.wait_for(5000, 5s);
    EXPECT_EQ(seen.ours, 5000U);
    EXPECT_EQ(seen.duplicates + seen.drops, 0U);
    EXPECT_EQ(seen.highest_seq, 4999U);
    EXPECT_EQ(seen.delivered, 5000U) << "datagrams the peer's kernel accepted";
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  try {
    const hil::bench::bench_session bench(layout());
    set_ipv6(false);
    return hil::sys::run_in_netns(layout().dut_netns, [] { return RUN_ALL_TESTS(); });
  } catch (const std::exception& e) {
    std::cerr << "cannot build the test bench: " << e.what() << '\n';
    return 1;
  }
}
