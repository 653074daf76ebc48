// hilperf-peer counting a trial's frames in XDP (the hilperf extension's FRAME_COUNT,
// docs/hilperf-extension.md §11), on the XDP tests' veth pair (xdp_main.cpp runs these in the
// receiving namespace, where the real hilperf-peer runs too): frames from an AF_PACKET socket on
// tx0, the count requested over a control connection from tx0's namespace. The peer counts every
// frame sent, exactly, and the interface's rx_packets grew by those frames plus the control
// connection's few; a client of extension version 2 is refused naming both versions; a peer
// without CAP_NET_ADMIN and CAP_BPF counts on its socket and says why in its accept; behind the
// simulated port's program on the same interface the peer counts in XDP too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <iostream>
#include <memory>
#include <random>

#include "hil/iperf3/frame_count.hpp"
#include "hil/iperf3/wire.hpp"
#include "hil/session/frame_count_client.hpp"
#include "hil/session/workload_client.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/tests/netns/xdp_frames.hpp"
#include "hil/traffic/rr_io.hpp"
#include "hil/xdp/port_shaper.hpp"

namespace {

using hil::test::xdp_pair;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
namespace ip = hil::iperf3;

constexpr const char* peer_address = "198.18.1.2";
constexpr std::uint16_t xdp_peer_port = 5201;
constexpr std::uint16_t capless_peer_port = 5202;

// The real hilperf-peer in this (the receiving) namespace on port, behind prefix (a command that
// runs it, such as setpriv).
std::unique_ptr<hil::sys::child_process> start_peer(std::uint16_t port,
                                                    std::vector<std::string> prefix = {}) {
  prefix.insert(prefix.end(), {HILPERF_PEER_BINARY, "-s", "-B", peer_address, "-p",
                               std::to_string(port), "--iperf2-port", "0"});
  auto peer = std::make_unique<hil::sys::child_process>(prefix);
  EXPECT_TRUE(peer->wait_for_output("listening on port", 10s)) << peer->output();
  return peer;
}

// Asks the peer on port to count, sending count frames of size bytes from tx0 to the port it
// announces at fps in batches of 32 (a frame the veth's ring refused is sent again, so every frame
// accepted reached rx0); run from tx0's namespace. The frames accepted go to *sent.
hil::session::frame_count_outcome count_frames(std::uint16_t port, std::size_t size,
                                               std::uint64_t count, double fps,
                                               std::uint64_t* sent) {
  hil::test::raw_sender tx;
  const auto rx_mac = hil::test::mac_of(xdp_pair().rx_if);
  hil::session::frame_count_options o;
  o.host = peer_address;
  o.port = port;
  o.request.duration = 5s;
  hil::session::frame_count_outcome out;
  hil::sys::with_socket_namespace(xdp_pair().tx_netns, [&] {
    out = hil::session::run_frame_count(o, [&](const hil::session::frame_count_target& t) {
      hil::test::pacing paced;
      paced.fps = fps;
      paced.resend = true;
      *sent =
          tx.send({hil::test::udp_frame(rx_mac, t.accept.udp_port, size)}, count, paced).accepted;
    });
  });
  return out;
}

class XdpPeerCount : public ::testing::Test {
 protected:
  void SetUp() override { HIL_REQUIRE_XDP(); }
};

TEST_F(XdpPeerCount, ThePeerCountsEveryFrameSentInXdpAndRxPacketsWitnessesThem) {
  const auto peer = start_peer(xdp_peer_port);
  for (const std::size_t size : {64U, 1518U}) {
    std::uint64_t sent = 0;
    const auto out = count_frames(xdp_peer_port, size, 20'000, 50'000, &sent);
    ASSERT_EQ(out.accept.method, ip::count_method::xdp)
        << "the peer counted on its socket: " << out.accept.why << '\n'
        << peer->output();
    EXPECT_EQ(out.accept.attach_mode, "native") << out.accept.why;
    const auto& c = out.counted;
    std::cout << size << " B: sent " << sent << ", counted " << c.frames << " frames, " << c.bytes
              << " bytes in XDP (" << out.accept.attach_mode << "), other " << c.other_frames
              << ", rx_packets +" << c.rx_packets_delta.value_or(0) << '\n';
    EXPECT_EQ(sent, 20'000U) << "frames the AF_PACKET socket took";
    EXPECT_EQ(c.frames, sent) << size << "-byte frames: counted in XDP against sent";
    EXPECT_EQ(c.bytes, sent * (size - 4)) << "XDP counts a frame without its FCS";
    ASSERT_TRUE(c.rx_packets_delta.has_value());
    EXPECT_EQ(*c.rx_packets_delta, c.frames + c.other_frames)
        << "rx0's rx_packets against the flow's frames and the others the program saw";
    // The others: the control connection's segments from the client during the window (TEST_END,
    // an ACK); IPv6 is off and the neighbours permanent, so the kernel sends nothing of its own.
    EXPECT_GE(c.other_frames, 1U);
    EXPECT_LE(c.other_frames, 4U);
  }
  EXPECT_THAT(peer->output(), HasSubstr("counted in XDP (native)"));
}

TEST_F(XdpPeerCount, AClientOfExtensionVersion2IsRefusedNamingBothVersions) {
  const auto peer = start_peer(xdp_peer_port);
  std::string why;
  hil::sys::with_socket_namespace(xdp_pair().tx_netns, [&] {
    namespace tr = hil::traffic;
    const auto ctl =
        tr::connect_tcp(tr::socket_address::parse(peer_address, xdp_peer_port), "", 5s, 5s);
    const auto cookie = ip::make_cookie(std::random_device{}());
    tr::write_all(ctl.get(), cookie.data(), cookie.size());
    std::uint8_t state = 0;
    tr::read_exact(ctl.get(), &state, 1);
    ASSERT_EQ(state, ip::state_to_byte(ip::state::param_exchange));
    const auto params = ip::encode_frame(
        R"({"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":1,"len":131072,)"
        R"("client_version":"3.12","hilperf":{"version":2,"workload":"FRAME_COUNT",)"
        R"("duration_ms":1000,"count":"xdp"}})");
    tr::write_all(ctl.get(), params.data(), params.size());
    tr::read_exact(ctl.get(), &state, 1);
    ASSERT_EQ(state, ip::extension_refuse);
    std::array<std::uint8_t, 4> length{};
    tr::read_exact(ctl.get(), length.data(), length.size());
    std::string body((length[2] << 8) | length[3], '\0');
    tr::read_exact(ctl.get(), body.data(), body.size());
    why = ip::decode_refuse(body);
  });
  EXPECT_THAT(why, HasSubstr("hilperf extension version 2 is not supported"));
  EXPECT_THAT(why, HasSubstr("this peer speaks version 3"));
  EXPECT_THAT(why, HasSubstr("use the same hilperf release on both ends"));
}

TEST_F(XdpPeerCount, APeerWithoutTheCapabilitiesCountsOnItsSocketAndSaysWhy) {
  // setpriv takes CAP_NET_ADMIN, CAP_SYS_ADMIN and CAP_BPF out of the bounding set: hilperf-peer
  // runs as root without them.
  const auto peer = start_peer(
      capless_peer_port,
      {"setpriv", "--bounding-set", "-net_admin,-sys_admin,-bpf", "--inh-caps", "-all", "--"});
  std::uint64_t sent = 0;
  // Slow enough for a socket reader on a shared machine: 2,000 frames at 10,000 frames/s.
  const auto out = count_frames(capless_peer_port, 64, 2'000, 10'000, &sent);
  EXPECT_EQ(out.accept.method, ip::count_method::socket);
  EXPECT_THAT(out.accept.why, HasSubstr("XDP on rx0"));
  EXPECT_THAT(out.accept.why, HasSubstr("CAP_NET_ADMIN"));
  EXPECT_EQ(out.counted.method, ip::count_method::socket);
  EXPECT_EQ(out.counted.frames, sent) << "every datagram reached the socket";
  EXPECT_EQ(out.counted.bytes, sent * 60) << "payload + UDP, IPv4 and Ethernet headers";
  EXPECT_FALSE(out.counted.rx_packets_delta.has_value());
  EXPECT_THAT(peer->output(), HasSubstr("counted on the socket: XDP on rx0"));
}

TEST_F(XdpPeerCount, BehindTheSimulatedPortThePeerCountsInXdpToo) {
  // The port emulation on rx0 first, as on the simulated bench with sim.frame_port = "xdp", at
  // 1 Gbit/s: 2,000 frames at 10,000 frames/s all pass it.
  hil::xdp::port_shaper port(xdp_pair().rx_if,
                             {1'000'000'000, 512 * hil::xdp::wire_bytes_of_frame(64)});
  const auto peer = start_peer(xdp_peer_port);
  std::uint64_t sent = 0;
  const auto out = count_frames(xdp_peer_port, 64, 2'000, 10'000, &sent);
  EXPECT_EQ(port.read().dropped.frames, 0U);
  // Behind the port: after libxdp's dispatcher where it loads, else in the port's tail-call slot.
  EXPECT_EQ(out.accept.method, ip::count_method::xdp) << out.accept.why << '\n' << peer->output();
  ASSERT_TRUE(out.counted.rx_packets_delta.has_value());
  EXPECT_EQ(*out.counted.rx_packets_delta, out.counted.frames + out.counted.other_frames)
      << "the port dropped none: rx0 received the flow's frames and the control's";
  EXPECT_EQ(out.counted.frames, sent);
}

}  // namespace
