// An address in CIDR notation split into its address and its prefix.
#include "hil/sys/cidr.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Cidr, WithoutPrefixKeepsTheAddress) {
  EXPECT_EQ(hil::sys::without_prefix("198.18.0.10/24"), "198.18.0.10");
  EXPECT_EQ(hil::sys::without_prefix("2001:2::10/64"), "2001:2::10");
  EXPECT_EQ(hil::sys::without_prefix("198.18.0.195"), "198.18.0.195");
  EXPECT_EQ(hil::sys::without_prefix(""), "");
}

TEST(Cidr, PrefixOfKeepsTheSlashAndLength) {
  EXPECT_EQ(hil::sys::prefix_of("198.18.0.10/24"), "/24");
  EXPECT_EQ(hil::sys::prefix_of("2001:2::10/64"), "/64");
  EXPECT_EQ(hil::sys::prefix_of("198.18.0.195"), "");
}

}  // namespace
