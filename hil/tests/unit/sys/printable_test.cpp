// Text from outside printed on one line (hil/sys/printable.hpp): no forged log lines, no terminal
// control, no invalid UTF-8; readable text unchanged.
#include <gtest/gtest.h>

#include "hil/sys/printable.hpp"

namespace {

using hil::sys::printable;

TEST(Printable, ReadableTextIsUnchanged) {
  EXPECT_EQ(printable("test 3 from 198.18.0.10: 941.2 Mbit/s"),
            "test 3 from 198.18.0.10: 941.2 Mbit/s");
  EXPECT_EQ(printable("Größe — 5 µs, 日本"), "Größe — 5 µs, 日本");
  EXPECT_EQ(printable(R"(a\b)"), R"(a\b)");
}

TEST(Printable, AForgedLogLineStaysOnItsLine) {
  EXPECT_EQ(printable("unknown workload \"X\nT hilperf-peer: authenticated as root\""),
            "unknown workload \"X\\x0aT hilperf-peer: authenticated as root\"");
  EXPECT_EQ(printable("\r\t\x1b[2J\x7f"), "\\x0d\\x09\\x1b[2J\\x7f");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
}

TEST(Printable, InvalidUtf8AndC1ControlsAreEscaped) {
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc0\x80"), "\\xc0\\x80") << "overlong NUL";
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "a UTF-16 surrogate";
  EXPECT_EQ(printable("\xc2\x85"), "\\xc2\\x85") << "NEL, a C1 control";
  EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82") << "cut short";
}

}  // namespace
