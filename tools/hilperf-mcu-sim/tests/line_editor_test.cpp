// The simulated shell's line input (line_editor.hpp) and the line faults (line_faults.hpp): what
// it echoes, which lines it runs, and how it takes the backspaces hil::console's terminal sends
// to erase a garbled line.
#include "line_editor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "line_faults.hpp"

namespace hil::mcu_sim {
namespace {

using ::testing::ElementsAre;

struct typed_result {
  std::string echo;
  std::vector<std::string> lines;
};

typed_result type(line_editor& e, const std::string& bytes) {
  typed_result r;
  for (const char c : bytes) {
    if (auto line = e.feed(c, r.echo)) r.lines.push_back(*line);
  }
  return r;
}

TEST(McuSimLineEditor, EchoesPrintableBytesAndRunsTheLineAtLf) {
  line_editor e;
  const auto r = type(e, "iperf -a\n");
  EXPECT_EQ(r.echo, "iperf -a\n");
  EXPECT_THAT(r.lines, ElementsAre("iperf -a"));
  EXPECT_TRUE(e.idle());
}

TEST(McuSimLineEditor, CrLfRunsTheLineAndThenAnEmptyOne) {
  line_editor e;
  const auto r = type(e, "help\r\n");
  EXPECT_THAT(r.lines, ElementsAre("help", ""));
  EXPECT_EQ(r.echo, "help\n\n");
}

TEST(McuSimLineEditor, ZephyrTakesCrLfAsOneLineEnd) {
  // The first of CR and LF ends the line; the other kind is ignored until another byte comes.
  line_editor e(256, true);
  EXPECT_THAT(type(e, "help\r\n").lines, ElementsAre("help"));
  EXPECT_THAT(type(e, "help\n\r").lines, ElementsAre("help"));
  EXPECT_THAT(type(e, "a\nb\n").lines, ElementsAre("a", "b"));
  EXPECT_THAT(type(e, "\r").lines, ElementsAre()) << "after a LF, a CR is the other kind";
  line_editor f(256, true);
  EXPECT_THAT(type(f, "\r\r").lines, ElementsAre("", "")) << "the same kind twice: two lines";
  EXPECT_EQ(e.line(), "");
  (void)type(e, "zp");
  EXPECT_EQ(e.line(), "zp") << "what a shell redraws after another thread's text";
}

TEST(McuSimLineEditor, BackspacesEraseWhatWasTypedAndNoMore) {
  // The terminal erases a garbled echo with one backspace per byte plus two, then types again.
  line_editor e;
  auto r = type(e, "iprf -a");
  EXPECT_FALSE(e.idle());
  r = type(e, std::string(9, '\b') + "iperf -a\n");
  EXPECT_EQ(r.echo, std::string() + "\b \b\b \b\b \b\b \b\b \b\b \b\b \b" + "iperf -a\n");
  EXPECT_THAT(r.lines, ElementsAre("iperf -a"));
  r = type(e, "ab\x7f\n");
  EXPECT_THAT(r.lines, ElementsAre("a")) << "DEL erases as BS does";
}

TEST(McuSimLineEditor, DropsControlBytesAndSwallowsTerminalKeys) {
  line_editor e;
  const auto r = type(e, "he\x01l\x1b[Ap\xc3\n");
  EXPECT_EQ(r.echo, "help\n");
  EXPECT_THAT(r.lines, ElementsAre("help"));
}

TEST(McuSimLineEditor, ALineLongerThanTheBufferIsDroppedWithoutAWord) {
  line_editor e(8);
  auto r = type(e, "123456789\n");
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(r.echo, "123456789\n");
  r = type(e, "12345678\n");
  EXPECT_THAT(r.lines, ElementsAre("12345678"));
}

TEST(McuSimLineFaults, DropsEveryNthByteUpToItsLimit) {
  byte_dropper d(3, 2);
  std::string kept;
  for (const char c : std::string("abcdefghijkl")) {
    if (!d.drop()) kept += c;
  }
  EXPECT_EQ(kept, "abdeghijkl");
  byte_dropper none(0, 0);
  EXPECT_FALSE(none.drop());
}

TEST(McuSimLineFaults, GarbledBytesHoldNoTextNoLineEndNoEscape) {
  const std::string g = garbled("\x1b[36mw61/>\x1b[0m\niperf exit\n");
  ASSERT_EQ(g.size(), 26U);
  for (const char c : g) EXPECT_GE(static_cast<unsigned char>(c), 0x80U);
  EXPECT_EQ(g, garbled("\x1b[36mw61/>\x1b[0m\niperf exit\n")) << "the same bytes, the same garbage";
}

}  // namespace
}  // namespace hil::mcu_sim
