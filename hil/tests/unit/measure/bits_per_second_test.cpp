// Bits per second from bytes and seconds, the one definition every figure uses.
#include <gtest/gtest.h>

#include <cstdint>

#include "hil/measure/units.hpp"

namespace {

using hil::measure::bits_per_second;

TEST(BitsPerSecond, IsEightBitsPerByteOverTheSeconds) {
  EXPECT_DOUBLE_EQ(bits_per_second(std::uint64_t{125'000'000}, 1.0), 1e9);
  EXPECT_DOUBLE_EQ(bits_per_second(std::int64_t{1500}, 2.0), 6000);
  EXPECT_DOUBLE_EQ(bits_per_second(1.5, 0.5), 24);
}

TEST(BitsPerSecond, IsZeroWithoutElapsedTime) {
  EXPECT_EQ(bits_per_second(std::uint64_t{1000}, 0.0), 0);
  EXPECT_EQ(bits_per_second(std::uint64_t{1000}, -1.0), 0);
}

static_assert(bits_per_second(1, 1.0) == 8.0);

}  // namespace
