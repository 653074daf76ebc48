// The port emulation's arithmetic (hil/xdp/wire.hpp): wire sizes, charges, media maxima, settings
// and the bucket's books, on values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "hil/measure/frames.hpp"
#include "hil/xdp/wire.hpp"

namespace {

using hil::xdp::bucket_state;
using hil::xdp::port_config;
using hil::xdp::port_setting;
using ::testing::HasSubstr;

constexpr std::uint64_t gbit = 1'000'000'000;
__extension__ typedef unsigned __int128 u128;

TEST(XdpWire, AFrameIsChargedWithPreambleSfdGapAndFcsBeyondWhatXdpSees) {
  static_assert(hil::xdp::charged_overhead_bytes == 7 + 1 + 12 + 4);
  EXPECT_EQ(hil::xdp::wire_bytes_of_xdp_frame(60), 84u);      // 64 with the FCS
  EXPECT_EQ(hil::xdp::wire_bytes_of_xdp_frame(1514), 1538u);  // 1518 with the FCS
  EXPECT_EQ(hil::xdp::wire_bytes_of_frame(64), 84u);
  EXPECT_EQ(hil::xdp::wire_bytes_of_frame(1518), 1538u);
  EXPECT_EQ(hil::xdp::wire_bytes_of_frame(9018), 9038u);
}

TEST(XdpWire, AShortFrameIsPaddedTo64BytesOnTheWire) {
  EXPECT_EQ(hil::xdp::wire_bytes_of_xdp_frame(42), 84u);  // an ARP request as XDP sees it
  EXPECT_EQ(hil::xdp::wire_bytes_of_xdp_frame(0), 84u);
  EXPECT_EQ(hil::xdp::wire_bytes_of_xdp_frame(61), 85u);
}

TEST(XdpWire, TheChargeIsTheWireBitsInTheBucketsUnits) {
  // 672 bits: 672 ns of a 1 Gbit/s port, which refills 10⁹ units per ns.
  EXPECT_EQ(hil::xdp::charge_units(60), 672ull * 1'000'000'000ull);
  EXPECT_EQ(hil::xdp::charge_units(60) / gbit, 672u);
  EXPECT_EQ(hil::xdp::charge_units(1514) / gbit, 12'304u);
  EXPECT_EQ(hil::xdp::charge_units(1514) % gbit, 0u);
}

TEST(XdpWire, MediaMaximaOnGigabitEthernet) {
  EXPECT_EQ(hil::xdp::media_max_fps(gbit, 64), 1'488'095u);
  EXPECT_EQ(hil::xdp::media_max_fps(gbit, 128), 844'594u);
  EXPECT_EQ(hil::xdp::media_max_fps(gbit, 512), 234'962u);
  EXPECT_EQ(hil::xdp::media_max_fps(gbit, 1518), 81'274u);
  EXPECT_EQ(hil::xdp::media_max_fps(100'000'000, 64), 148'809u);
  EXPECT_EQ(hil::xdp::media_max_fps(10'000'000, 1518), 812u);
}

TEST(XdpWire, MediaMaximaAgreeWithTheMeasureLayer) {
  for (const std::uint32_t frame : {64u, 128u, 256u, 512u, 1024u, 1280u, 1518u, 9018u}) {
    for (const std::uint64_t bps : {gbit / 100, gbit / 10, gbit, 10 * gbit}) {
      EXPECT_EQ(hil::xdp::media_max_fps(bps, frame),
                static_cast<std::uint64_t>(hil::measure::media_max_fps(bps, frame)))
          << frame << " bytes at " << bps << " bit/s";
    }
  }
}

TEST(XdpWire, ASettingBecomesTheMapsConfiguration) {
  const port_config c = hil::xdp::config_of(port_setting{gbit, 3076});
  EXPECT_EQ(c.rate_bps, gbit);
  EXPECT_EQ(c.bucket_bits, 3076u * 8);
  EXPECT_EQ(c.overhead_bytes, 24u);
  EXPECT_EQ(c.min_frame_bytes, 60u);
}

TEST(XdpWire, EveryProblemOfASettingIsListed) {
  EXPECT_TRUE(hil::xdp::problems(port_setting{gbit, 84}).empty());
  const auto found = hil::xdp::problems(port_setting{999, 83});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_THAT(found[0], HasSubstr("line rate 999 bit/s"));
  EXPECT_THAT(found[1], HasSubstr("cannot pass one 64-byte frame"));
  EXPECT_THAT(hil::xdp::problems(port_setting{2'000'000'000'000, 125'000'001}),
              ::testing::ElementsAre(HasSubstr("line rate"), HasSubstr("above the")));
  try {
    (void)hil::xdp::config_of(port_setting{0, 0});
    FAIL() << "a port of 0 bit/s was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("XDP port emulation: line rate 0"));
  }
}

TEST(XdpWire, TheLargestSettingKeepsTheBucketInside64Bits) {
  // The program computes capacity + rate · (time to fill) in 64 bits: at most 2·10¹⁸ here.
  const port_config c =
      hil::xdp::config_of(port_setting{hil::xdp::max_line_bps, hil::xdp::max_bucket_bytes});
  const u128 worst = u128{c.bucket_bits} * hil::xdp::ns_per_s * 2 + c.rate_bps;
  EXPECT_LT(worst, u128{UINT64_MAX});
}

TEST(XdpWire, TheDefaultBucketHoldsFourMillisecondsOrABatchOfLargeFrames) {
  EXPECT_EQ(hil::xdp::default_bucket_bytes(gbit), 500'000u);  // 4 ms at 1 Gbit/s
  EXPECT_EQ(hil::xdp::default_bucket_bytes(10'000'000), 64u * 1538);
  EXPECT_EQ(hil::xdp::default_bucket_bytes(hil::xdp::max_line_bps), hil::xdp::max_bucket_bytes);
}

// A bucket that ran for one second at 1 Gbit/s, passed frames and threw some refill away.
TEST(XdpWire, TheBooksBalanceOnlyWhenEveryUnitIsAccountedFor) {
  const port_config c = hil::xdp::config_of(port_setting{gbit, 84 * 64});
  bucket_state b;
  b.first_ns = 5'000;
  b.last_ns = b.first_ns + 1'000'000'000;  // 10⁹ · 10⁹ units refilled
  b.full_ns = 2'000;                       // 2·10¹² units thrown away while full
  b.overflow_units = 7;
  // Passed: 1,488,095 frames of 84 bytes; what is left is in the bucket.
  const std::uint64_t passed_wire = 1'488'095ull * 84;
  const u128 had = u128{c.bucket_bits} * 1'000'000'000 + u128{gbit} * 1'000'000'000;
  const u128 went = u128{passed_wire} * 8 * 1'000'000'000 + u128{gbit} * 2'000 + 7;
  b.tokens = static_cast<std::uint64_t>(had - went);
  EXPECT_TRUE(hil::xdp::bucket_balances(c, b, passed_wire));
  EXPECT_FALSE(hil::xdp::bucket_balances(c, b, passed_wire + 84));
  b.tokens += 1;
  EXPECT_FALSE(hil::xdp::bucket_balances(c, b, passed_wire));
  EXPECT_EQ(hil::xdp::thrown_away_bits(c, b), 2'000u);
}

TEST(XdpWire, ThePassedFramesOfAWindowLieBetweenItsRefillAndItsRefillPlusTheBucket) {
  const port_config c = hil::xdp::config_of(port_setting{gbit, 84 * 64});
  bucket_state b;
  b.first_ns = 0;
  b.last_ns = 1'000'000'000;
  auto bounds = hil::xdp::bounds_of(c, b, 60);
  EXPECT_EQ(bounds.min_frames, 1'488'095u);       // ⌊10⁹ / 672⌋
  EXPECT_EQ(bounds.max_frames, 1'488'095u + 64);  // ⌊(10⁹ + 64 · 672) / 672⌋
  b.full_ns = 672'000;                            // 1,000 frames' worth thrown away
  bounds = hil::xdp::bounds_of(c, b, 60);
  EXPECT_EQ(bounds.min_frames, 1'487'095u);
  EXPECT_EQ(bounds.max_frames, 1'487'159u);
  b.full_ns = 2'000'000'000;  // more thrown than refilled and held: nothing passed
  EXPECT_EQ(hil::xdp::bounds_of(c, b, 60).min_frames, 0u);
  EXPECT_EQ(hil::xdp::bounds_of(c, b, 60).max_frames, 0u);
  const auto large = hil::xdp::bounds_of(c, bucket_state{0, 0, 1'000'000'000, 0, 0}, 1514);
  EXPECT_EQ(large.min_frames, 81'274u);
  EXPECT_EQ(large.max_frames, 81'274u + 84 * 64 * 8 / 12'304);
}

}  // namespace
