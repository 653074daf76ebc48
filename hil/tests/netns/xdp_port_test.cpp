// The Ethernet port emulated in XDP on a real veth pair (xdp_main.cpp runs these in the receiving
// namespace): offered more than its line rate, it passes what the rate allows at 64 and 1518
// bytes and drops the rest, its books balance to the unit, and every frame sent is accounted for;
// offered less, it drops nothing; behind it, the frame counter counts what it passed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>

#include <fmt/format.h>

#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/xdp_frames.hpp"
#include "hil/xdp/frame_counter.hpp"
#include "hil/xdp/port_shaper.hpp"
#include "hil/xdp/wire.hpp"

namespace {

using hil::test::xdp_pair;
using hil::xdp::port_shaper;

struct port_case {
  std::uint64_t frame;     // bytes with the FCS
  std::uint64_t line_bps;  // the emulated port's rate
};

// The port's reading once it has seen n frames (the veth's ring may still hold some when the
// sender returns), or after 5 s.
hil::xdp::port_reading settled(port_shaper& port, std::uint64_t n) {
  hil::xdp::port_reading r;
  (void)hil::test::eventually(
      [&] {
        r = port.read();
        return r.passed.frames + r.dropped.frames >= n;
      },
      std::chrono::seconds(5));
  return r;
}

std::string case_name(const ::testing::TestParamInfo<port_case>& info) {
  return fmt::format("frame{}at{}mbit", info.param.frame, info.param.line_bps / 1'000'000);
}

class XdpPortBelowRate : public ::testing::Test {
 protected:
  void SetUp() override { HIL_REQUIRE_XDP(); }
  const std::array<unsigned char, 6> rx_mac_ = hil::test::mac_of(xdp_pair().rx_if);
};

class XdpPort : public XdpPortBelowRate, public ::testing::WithParamInterface<port_case> {};

// The sender offers twice the port's media maximum for one second, in batches of 32. The program
// sees frames when rx0's poll takes them from the veth's ring, which holds 256: up to 256 arrive
// together after the poll was held up, so the bucket holds 256 frames. The bucket's books (checked
// to the unit against the per-CPU counters) bound the frames passed exactly: over the time the
// port had frames to carry — the window less the refill thrown away while the bucket was full,
// when the sender or the poll was held up — it passes what the line rate allows, within one
// bucket: between (rate · busy) / charge and (bucket + rate · busy) / charge. So the frames/s over
// the busy time lie within −1 and +256 frames of the media maximum; and the sender must have kept
// the port busy for a quarter of the second at least for the figure to mean anything.
TEST_P(XdpPort, PassesWhatTheLineRateAllowsAndDropsTheRest) {
  const auto [frame, line_bps] = GetParam();
  const std::uint64_t wire = hil::xdp::wire_bytes_of_frame(frame);
  const std::uint64_t media_max = hil::xdp::media_max_fps(line_bps, frame);
  port_shaper port(xdp_pair().rx_if, {line_bps, 256 * wire});
  std::cout << "port emulation in " << hil::xdp::to_string(port.attachment().mode()) << " XDP\n";
  hil::test::raw_sender tx;
  hil::test::pacing twice;
  twice.fps = 2.0 * static_cast<double>(media_max);
  const auto before = port.read();
  const auto sent = tx.send({hil::test::udp_frame(rx_mac_, 5001, frame)}, 2 * media_max, twice);
  const auto r = settled(port, sent.accepted);

  // Every frame the socket handed to the veth reached the port, and the port passed or dropped
  // it; the interface counted each once.
  EXPECT_EQ(r.passed.frames + r.dropped.frames, sent.accepted);
  EXPECT_EQ(hil::link::delta(before.interface, r.interface).growth.rx_packets, sent.accepted);
  EXPECT_EQ(r.passed.wire_bytes, r.passed.frames * wire);
  EXPECT_EQ(r.dropped.wire_bytes, r.dropped.frames * wire);
  EXPECT_TRUE(hil::xdp::bucket_balances(port.config(), r.bucket, r.passed.wire_bytes));

  const auto bounds = hil::xdp::bounds_of(port.config(), r.bucket, frame - 4);
  EXPECT_GE(r.passed.frames, bounds.min_frames);
  EXPECT_LE(r.passed.frames, bounds.max_frames);
  const double window_s = static_cast<double>(r.bucket.window_ns()) / 1e9;
  const auto thrown = static_cast<double>(hil::xdp::thrown_away_bits(port.config(), r.bucket));
  const double busy_s = window_s - thrown / static_cast<double>(line_bps);
  // The bound holds for any busy time; a quarter second keeps it within 1,024 frames/s.
  ASSERT_GT(busy_s, 0.25) << "the sender left the port idle most of the second";
  const double passed_fps = static_cast<double>(r.passed.frames) / busy_s;
  const double allowed_fps = static_cast<double>(line_bps) / (8.0 * static_cast<double>(wire));
  EXPECT_GE(passed_fps, (allowed_fps - 1 / busy_s) * (1 - 1e-9));  // 1e-9: double rounding
  EXPECT_LE(passed_fps, (allowed_fps + 256 / busy_s) * (1 + 1e-9));
  std::cout << fmt::format(
      "{} B at {} bit/s: sent {} (veth refused {}), passed {} dropped {}; window {:.6f} s, busy "
      "{:.6f} s: {:.1f} frames/s of {:.1f} allowed ({:+.3f} %)\n",
      frame, line_bps, sent.accepted, sent.refused, r.passed.frames, r.dropped.frames, window_s,
      busy_s, passed_fps, allowed_fps, 100.0 * (passed_fps / allowed_fps - 1));
  ::testing::Test::RecordProperty("passed_fps", fmt::format("{:.1f}", passed_fps));
}

INSTANTIATE_TEST_SUITE_P(Rates, XdpPort,
                         ::testing::Values(port_case{64, 20'000'000}, port_case{1518, 100'000'000},
                                           port_case{1518, 1'000'000'000}),
                         case_name);

// Offered half its line rate in batches of 32, never two at once, the port drops nothing. Its
// bucket holds 512 frames: the veth's ring toward rx0 holds 256, which arrive together after the
// receiving poll was held up (on a loaded machine, for milliseconds), and about as many again
// arrive while the poll drains them.
TEST_F(XdpPortBelowRate, DropsNothingBelowItsLineRate) {
  constexpr std::uint64_t line_bps = 100'000'000;
  const std::uint64_t media_max = hil::xdp::media_max_fps(line_bps, 64);
  port_shaper port(xdp_pair().rx_if, {line_bps, 512 * hil::xdp::wire_bytes_of_frame(64)});
  hil::test::raw_sender tx;
  hil::test::pacing half;
  half.fps = 0.5 * static_cast<double>(media_max);
  half.catch_up = false;
  const auto sent = tx.send({hil::test::udp_frame(rx_mac_, 5001, 64)}, media_max / 4, half);
  const auto r = settled(port, sent.accepted);
  EXPECT_EQ(r.passed.frames, sent.accepted);
  EXPECT_EQ(r.dropped.frames, 0u);
}

// Both programs on one interface, the port first, then the counter, which counts exactly the
// frames the port passed: behind libxdp's dispatcher where it loads, else in the port's tail-call
// slot (port_next).
TEST_F(XdpPortBelowRate, TheCounterBehindThePortCountsWhatItPassed) {
  constexpr std::uint64_t line_bps = 20'000'000;
  const std::uint64_t media_max = hil::xdp::media_max_fps(line_bps, 64);
  port_shaper port(xdp_pair().rx_if, {line_bps, 64 * hil::xdp::wire_bytes_of_frame(64)});
  hil::xdp::frame_counter counter(xdp_pair().rx_if, {5001}, hil::xdp::on_match::drop);
  EXPECT_EQ(counter.attachment().dispatched(), port.attachment().dispatched());
  EXPECT_NE(counter.attachment().behind_port(), port.attachment().dispatched())
      << "behind the dispatcher or in the port's slot, one of the two";
  EXPECT_EQ(counter.attachment().mode(), port.attachment().mode());
  hil::test::raw_sender tx;
  hil::test::pacing twice;
  twice.fps = 2.0 * static_cast<double>(media_max);
  const auto sent = tx.send({hil::test::udp_frame(rx_mac_, 5001, 64)}, media_max, twice);
  const auto r = settled(port, sent.accepted);
  const auto c = counter.read();
  EXPECT_GT(r.dropped.frames, 0u);
  EXPECT_EQ(r.passed.frames + r.dropped.frames, sent.accepted);
  EXPECT_EQ(c.flows.at(0).frames, r.passed.frames);
  EXPECT_EQ(c.other.frames, 0u);
}

TEST_F(XdpPortBelowRate, RefusesASettingItCannotHold) {
  EXPECT_THROW(port_shaper(xdp_pair().rx_if, {0, 84}), std::invalid_argument);
}

}  // namespace
