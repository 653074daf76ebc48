// The XDP frame counter on a real veth pair (xdp_main.cpp runs these in the receiving namespace):
// exact per-flow counts, drop or pass, the interface's counters as a second witness, the fallback
// to generic XDP, detaching, and what an unprivileged process is told.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <iostream>
#include <thread>

#include "hil/link/link_control.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/xdp_frames.hpp"
#include "hil/xdp/frame_counter.hpp"

namespace {

using hil::test::xdp_pair;
using hil::xdp::frame_counter;
using hil::xdp::on_match;
using ::testing::HasSubstr;

std::uint64_t total(const hil::xdp::frame_count& c) {
  std::uint64_t n = c.other.frames;
  for (const auto& f : c.flows) n += f.frames;
  return n;
}

// Sends count frames of frames in bursts of 128, each once the counter has seen the last whole:
// no burst overflows the veth's 256-frame ring toward rx0, so every frame sent arrives.
std::uint64_t send_counted(hil::test::raw_sender& tx, frame_counter& counter,
                           const std::vector<hil::test::frame_bytes>& frames, std::uint64_t count) {
  const std::uint64_t before = total(counter.read());
  std::uint64_t sent = 0;
  while (sent < count) {
    const std::uint64_t n = std::min<std::uint64_t>(128, count - sent);
    std::vector<hil::test::frame_bytes> burst;
    for (std::uint64_t i = 0; i < n; ++i) burst.push_back(frames[(sent + i) % frames.size()]);
    hil::test::pacing unpaced;
    unpaced.resend = true;
    sent += tx.send(burst, n, unpaced).accepted;
    const bool seen = hil::test::eventually([&] { return total(counter.read()) - before >= sent; },
                                            std::chrono::seconds(5));
    if (!seen) break;
  }
  return sent;
}

class XdpCounter : public ::testing::Test {
 protected:
  void SetUp() override { HIL_REQUIRE_XDP(); }
  const std::string rx_ = xdp_pair().rx_if;
  const std::array<unsigned char, 6> rx_mac_ = hil::test::mac_of(xdp_pair().rx_if);
};

TEST_F(XdpCounter, CountsEveryFrameOfEachFlowExactlyAndDropsThem) {
  frame_counter counter(rx_, {5001, 5002, 5003}, on_match::drop);
  EXPECT_EQ(counter.attachment().mode(), hil::xdp::attach_mode::native)
      << counter.attachment().native_refused();
  ::testing::Test::RecordProperty("xdp_mode",
                                  std::string(hil::xdp::to_string(counter.attachment().mode())));
  // Six frames a round: 5001 three times (64 bytes), 5002 twice (1518), 5003 once (512), plus
  // one frame a round to port 6000, which no flow declares (passed, counted as other).
  using hil::test::udp_frame;
  const std::vector<hil::test::frame_bytes> round{
      udp_frame(rx_mac_, 5001, 64),  udp_frame(rx_mac_, 5002, 1518), udp_frame(rx_mac_, 5001, 64),
      udp_frame(rx_mac_, 5003, 512), udp_frame(rx_mac_, 5002, 1518), udp_frame(rx_mac_, 5001, 64),
      udp_frame(rx_mac_, 6000, 128)};
  const auto before = counter.read();
  hil::test::raw_sender tx;
  constexpr std::uint64_t rounds = 3000;
  ASSERT_EQ(send_counted(tx, counter, round, rounds * round.size()), rounds * round.size());
  const auto after = counter.read();

  ASSERT_EQ(after.flows.size(), 3u);
  EXPECT_EQ(after.flows[0].udp_port, 5001);
  EXPECT_EQ(after.flows[0].frames, 3 * rounds);
  EXPECT_EQ(after.flows[0].bytes, 3 * rounds * 60);
  EXPECT_EQ(after.flows[1].frames, 2 * rounds);
  EXPECT_EQ(after.flows[1].bytes, 2 * rounds * 1514);
  EXPECT_EQ(after.flows[2].frames, rounds);
  EXPECT_EQ(after.flows[2].bytes, rounds * 508);
  EXPECT_EQ(after.other.frames - before.other.frames, rounds);
  // The second witness: the interface received exactly the frames sent, no more, none dropped.
  const auto d = hil::link::delta(before.interface, after.interface);
  EXPECT_EQ(d.growth.rx_packets, rounds * round.size());
  EXPECT_TRUE(d.clean()) << d.error_summary();
}

TEST_F(XdpCounter, PassedFramesReachTheSocketAndAreCountedOnce) {
  const hil::sys::unique_fd rx(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(rx);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  ASSERT_EQ(::bind(rx.get(), reinterpret_cast<const sockaddr*>(&at), sizeof(at)), 0);
  socklen_t len = sizeof(at);
  ASSERT_EQ(::getsockname(rx.get(), reinterpret_cast<sockaddr*>(&at), &len), 0);
  const std::uint16_t port = ntohs(at.sin_port);
  const int buffer = 8 << 20;
  ::setsockopt(rx.get(), SOL_SOCKET, SO_RCVBUFFORCE, &buffer, sizeof(buffer));

  frame_counter counter(rx_, {port}, on_match::pass);
  hil::test::raw_sender tx;
  constexpr std::uint64_t frames = 2000;
  ASSERT_EQ(send_counted(tx, counter, {hil::test::udp_frame(rx_mac_, port, 256)}, frames), frames);
  EXPECT_EQ(counter.read().flows.at(0).frames, frames);
  std::uint64_t received = 0;
  std::array<char, 2048> buf{};
  while (::recv(rx.get(), buf.data(), buf.size(), MSG_DONTWAIT) > 0) ++received;
  EXPECT_EQ(received, frames);
}

TEST_F(XdpCounter, ZeroStartsEveryCountAgain) {
  frame_counter counter(rx_, {5001}, on_match::drop);
  hil::test::raw_sender tx;
  ASSERT_EQ(send_counted(tx, counter, {hil::test::udp_frame(rx_mac_, 5001, 64)}, 100), 100u);
  EXPECT_EQ(counter.read().flows.at(0).frames, 100u);
  counter.zero();
  const auto zeroed = counter.read();
  EXPECT_EQ(zeroed.flows.at(0).frames, 0u);
  EXPECT_EQ(zeroed.flows.at(0).bytes, 0u);
  EXPECT_EQ(zeroed.other.frames, 0u);
}

// Native XDP on a veth needs its peer's MTU to fit one page; at 9000 the kernel refuses and the
// counter runs in generic mode, counting as exactly.
TEST_F(XdpCounter, FallsBackToGenericXdpAndSaysWhy) {
  const auto& n = xdp_pair();
  hil::sys::run_checked({"ip", "-n", n.tx_netns, "link", "set", n.tx_if, "mtu", "9000"});
  hil::sys::run_checked({"ip", "link", "set", n.rx_if, "mtu", "9000"});
  struct restore {
    ~restore() {
      (void)hil::sys::run({"ip", "-n", xdp_pair().tx_netns, "link", "set", "tx0", "mtu", "1500"});
      (void)hil::sys::run({"ip", "link", "set", "rx0", "mtu", "1500"});
    }
  } restore_mtu;
  frame_counter counter(rx_, {5001}, on_match::drop);
  EXPECT_EQ(counter.attachment().mode(), hil::xdp::attach_mode::generic);
  EXPECT_FALSE(counter.attachment().native_refused().empty());
  std::cout << "native XDP refused: " << counter.attachment().native_refused() << '\n';
  hil::test::raw_sender tx;
  ASSERT_EQ(send_counted(tx, counter, {hil::test::udp_frame(rx_mac_, 5001, 1518)}, 1000), 1000u);
  EXPECT_EQ(counter.read().flows.at(0).frames, 1000u);
}

TEST_F(XdpCounter, GenericOnlyIsHonoured) {
  frame_counter counter(rx_, {5001}, on_match::drop, hil::xdp::attach_preference::generic_only);
  EXPECT_EQ(counter.attachment().mode(), hil::xdp::attach_mode::generic);
  EXPECT_TRUE(counter.attachment().native_refused().empty());
}

TEST_F(XdpCounter, IsDetachedWhenItGoesOutOfScope) {
  const auto shown = [&] { return hil::sys::run_checked({"ip", "link", "show", rx_}); };
  {
    frame_counter counter(rx_, {5001}, on_match::drop);
    EXPECT_THAT(shown(), HasSubstr("prog/xdp"));  // prog/xdp, prog/xdpgeneric: attached
  }
  EXPECT_THAT(shown(), ::testing::Not(HasSubstr("prog/xdp")));
}

TEST_F(XdpCounter, RefusesFlowsItCannotCount) {
  EXPECT_THROW(frame_counter(rx_, {5001, 5001}, on_match::drop), std::invalid_argument);
  EXPECT_THROW(frame_counter(rx_, {0}, on_match::drop), std::invalid_argument);
  std::vector<std::uint16_t> many(65);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::uint16_t>(1000 + i);
  EXPECT_THROW(frame_counter(rx_, many, on_match::drop), std::invalid_argument);
  try {
    frame_counter counter("nosuch0", {5001}, on_match::drop);
    FAIL() << "attached to an interface that does not exist";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no interface 'nosuch0'"));
  }
}

// capset() changes the calling thread only: a thread of its own gives up the capabilities.
TEST_F(XdpCounter, WithoutThePrivilegesItSaysWhatIsNeeded) {
  std::string reason;
  std::string error;
  std::thread([&] {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    std::array<__user_cap_data_struct, 2> data{};
    if (::syscall(SYS_capget, &header, data.data()) != 0) return;
    for (const int cap : {CAP_NET_ADMIN, CAP_SYS_ADMIN, 39 /* CAP_BPF */}) {
      data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
    }
    if (::syscall(SYS_capset, &header, data.data()) != 0) return;
    reason = hil::xdp::xdp_support().reason;
    try {
      frame_counter counter(xdp_pair().rx_if, {5001}, on_match::drop);
    } catch (const std::system_error& e) {
      error = e.code() == std::errc::not_supported ? e.what() : "other error";
    }
  }).join();
  EXPECT_THAT(reason, HasSubstr("CAP_NET_ADMIN and CAP_BPF"));
  EXPECT_THAT(error, HasSubstr("XDP frame counter on rx0"));
  EXPECT_THAT(error, HasSubstr("CAP_NET_ADMIN and CAP_BPF"));
}

}  // namespace
