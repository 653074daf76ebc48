#include "hil/measure/units.hpp"

#include <gtest/gtest.h>

namespace {

using hil::measure::parse_rate;
using hil::measure::parse_size;

TEST(Units, RatesAreDecimal) {
  EXPECT_EQ(parse_rate("100M"), 100'000'000U);
  EXPECT_EQ(parse_rate("50m"), 50'000'000U);
  EXPECT_EQ(parse_rate("1.5G"), 1'500'000'000U);
  EXPECT_EQ(parse_rate("10k"), 10'000U);
  EXPECT_EQ(parse_rate("0"), 0U);
  EXPECT_EQ(parse_rate("1234"), 1234U);
}

TEST(Units, SizesAreBinary) {
  EXPECT_EQ(parse_size("128K"), 131'072U);
  EXPECT_EQ(parse_size("1M"), 1'048'576U);
  EXPECT_EQ(parse_size("1472"), 1472U);
}

TEST(Units, MalformedInputIsRejected) {
  EXPECT_FALSE(parse_rate(""));
  EXPECT_FALSE(parse_rate("M"));
  EXPECT_FALSE(parse_rate("100X"));
  EXPECT_FALSE(parse_rate("-5M"));
  EXPECT_FALSE(parse_size("12 K"));
  EXPECT_FALSE(parse_size("nan"));
}

}  // namespace
