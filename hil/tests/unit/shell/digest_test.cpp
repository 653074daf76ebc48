#include "hil/shell/digest.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace hil::shell;

TEST(ShellDigest, Sha256IsWhatSha256sumPrints) {
  // `printf abc | sha256sum` and `: | sha256sum`
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(ShellDigest, Base64LinesAreWhatBase64Writes) {
  // `printf 'hilperf\0\377' | base64`: aGlscGVyZgD/
  EXPECT_EQ(base64_lines(std::string("hilperf\0\xff", 9)), "aGlscGVyZgD/\n");
  const std::string long_text(100, 'x');  // 57 bytes a 76-character line, then 43
  const std::string lines = base64_lines(long_text);
  EXPECT_EQ(lines.find('\n'), 76U);
  EXPECT_EQ(lines.size(), 76U + 1 + 60 + 1);
  EXPECT_THROW((void)base64_lines("x", 75), std::invalid_argument);
}

TEST(ShellDigest, WhatIsEncodedDecodesToTheSameBytes) {
  std::string bytes;
  for (int i = 0; i < 1000; ++i) bytes += static_cast<char>(i * 7 % 256);
  for (const std::size_t size : {0U, 1U, 2U, 3U, 57U, 58U, 1000U}) {
    const std::string part = bytes.substr(0, size);
    std::string text = base64_lines(part);
    std::erase(text, '\n');
    EXPECT_EQ(from_base64(text), part) << size;
  }
}

TEST(ShellDigest, TextThatIsNotBase64IsRefused) {
  EXPECT_FALSE(from_base64("abc"));   // not a multiple of 4
  EXPECT_FALSE(from_base64("ab=c"));  // padding in the middle
  EXPECT_FALSE(from_base64("ab c"));  // outside the alphabet
  EXPECT_FALSE(from_base64("a==="));  // three padding characters
  EXPECT_EQ(from_base64("YQ=="), "a");
}

TEST(ShellDigest, AKernelMessageSplicedIntoALineIsTakenOut) {
  EXPECT_EQ(base64_fragment("aGls[   12.345678] eth0: Link is Down"), "aGls");
  EXPECT_EQ(base64_fragment("[ 3.1] fec 30be0000.ethernet eth0: Link is Up - 1Gbps/Full"), "");
  EXPECT_EQ(base64_fragment("aGlscGVyZgD/"), "aGlscGVyZgD/");
  // A message without a timestamp cannot be told from data: the whole line is left out and the
  // file's checksum catches what went missing.
  EXPECT_EQ(base64_fragment("aGls eth0: Link is Down"), "");
}

}  // namespace
