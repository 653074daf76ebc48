// Control sequences out of a console's stream, however the reads split it.
#include "hil/console/ansi_filter.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

using hil::console::ansi_filter;

// The whole of text fed one byte at a time: every split a serial read can make.
std::string byte_by_byte(std::string_view text) {
  ansi_filter f;
  std::string out;
  for (const char c : text) out += f.feed(std::string_view(&c, 1));
  return out;
}

TEST(AnsiFilter, AColouredPromptIsItsText) {
  const std::string_view prompt = "\x1b[36mw61/>\x1b[0m";  // ST67W6X's shell, SHELL_USING_COLOR
  EXPECT_EQ(ansi_filter().feed(prompt), "w61/>");
  EXPECT_EQ(byte_by_byte(prompt), "w61/>");
}

TEST(AnsiFilter, EditingRedrawsAndTerminalQueriesLeaveNoTrace) {
  // A history recall (erase line, carriage return), a cursor move, a backspace, a title (OSC ended
  // by BEL and by ESC \) and a two-byte save-cursor.
  const std::string_view text =
      "\x1b[2K\riperf -a\x1b[3Dx\b\x1b]0;w61\x07ok\x1b]2;t\x1b\\!\x1b"
      "7.";
  EXPECT_EQ(ansi_filter().feed(text), "\riperf -axok!.");
  EXPECT_EQ(byte_by_byte(text), "\riperf -axok!.");
}

TEST(AnsiFilter, ASequenceLongerThanAnyTerminalsIsDroppedAndTextResumes) {
  ansi_filter f;
  // An ESC [ whose final byte was lost: digits up to the limit, then the next byte is text again.
  const std::string lost = "\x1b[" + std::string(ansi_filter::max_sequence - 2, '1');
  EXPECT_EQ(f.feed(lost), "");
  EXPECT_EQ(f.feed("iperf exit\n"), "iperf exit\n");
}

TEST(AnsiFilter, NulAndBellAreDropped) {
  EXPECT_EQ(ansi_filter().feed(std::string_view("a\0b\x07"
                                                "c",
                                                5)),
            "abc");
}

}  // namespace
