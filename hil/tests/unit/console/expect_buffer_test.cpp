// The console's text as patterns see it: cleaned, with line ends as LF, read as cases expect it.
#include "hil/console/expect_buffer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using hil::console::expect_buffer;
using hil::console::pattern;
using ::testing::HasSubstr;

// An ST67W6X UDP client run as its console prints it (LF-only lines, coloured prompt), with a log
// line of the firmware's Wi-Fi task landing between the prompt and the results.
const std::string st67_udp_client =
    "iperf -c 192.168.8.1 -u -b 50 -t 10\n"
    "\x1b[36mw61/>\x1b[0m"
    "------------------------------------------------------------\n"
    "[UDP] Client connecting to 192.168.8.1, port 5001\n"
    "Sending 1470 bytes datagrams\n"
    "------------------------------------------------------------\n"
    "[ERROR] [4000] [ST67W6XTask] (w61_at_common.c:375) sem_if_ready not received\n"
    "[ ID] Interval       Transfer        Bandwidth\n"
    "[  1]  0.0-10.0 sec  32.42 MBytes    27.2 Mbits/sec\n"
    "iperf exit\n";

TEST(ExpectBuffer, APromptThenAResultLineAcrossALogLineAndAnyReadSplit) {
  for (std::size_t split = 1; split < st67_udp_client.size(); split += 7) {
    expect_buffer b;
    b.feed(std::string_view(st67_udp_client).substr(0, split));
    b.feed(std::string_view(st67_udp_client).substr(split));
    const std::vector<pattern> prompt{pattern::literal("w61/>")};
    const auto p = b.take(prompt);
    ASSERT_TRUE(p) << split;
    EXPECT_EQ(p->before, "iperf -c 192.168.8.1 -u -b 50 -t 10\n") << "the echo";
    const std::vector<pattern> result{pattern::regex(
        R"(\[\s*\d+\]\s+0\.0-\s*([\d.]+) sec\s+([\d.]+) MBytes\s+([\d.]+) Mbits/sec)")};
    const auto r = b.take(result);
    ASSERT_TRUE(r) << split;
    EXPECT_EQ(r->groups, (std::vector<std::string>{"10.0", "32.42", "27.2"})) << split;
    EXPECT_THAT(r->before, HasSubstr("sem_if_ready")) << "the log line was read past";
    const std::vector<pattern> end{pattern::literal("iperf exit")};
    EXPECT_TRUE(b.take(end)) << split;
    EXPECT_EQ(b.unread(), "\n");
  }
}

TEST(ExpectBuffer, TheEarliestMatchWinsAndOnlyItsTextIsRead) {
  expect_buffer b;
  b.feed("tcp client send error, error code: 104, reason: Connection reset\niperf exit\n");
  const std::vector<pattern> any{pattern::literal("iperf exit"),
                                 pattern::regex(R"((tcp|udp) \w+ \w+ error, error code: (\d+))")};
  const auto m = b.take(any);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->pattern, 1U) << "the error line comes first";
  EXPECT_EQ(m->groups, (std::vector<std::string>{"tcp", "104"}));
  const auto next = b.take(any);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->pattern, 0U);
}

TEST(ExpectBuffer, NothingMatchingReadsNothing) {
  expect_buffer b;
  b.feed("w61/");
  const std::vector<pattern> prompt{pattern::literal("w61/>")};
  EXPECT_FALSE(b.take(prompt));
  EXPECT_EQ(b.unread(), "w61/");
  b.feed(">");
  EXPECT_TRUE(b.take(prompt)) << "the rest of the prompt arrived";
}

TEST(ExpectBuffer, ALiteralIsNoRegexAndARegexIsNoLiteral) {
  expect_buffer b;
  b.feed("[ ID] Interval\n");
  const std::vector<pattern> literal{pattern::literal("[ ID]")};
  EXPECT_TRUE(b.take(literal)) << "brackets and a space, byte for byte";
  b.feed("[ATSS]:ATS\n");
  const std::vector<pattern> as_regex{pattern::regex("[ATSS]:ATS")};
  EXPECT_FALSE(b.take(as_regex)) << "a character class: the trap a literal avoids";
  EXPECT_THAT(pattern::literal("[ ID]").describe(), HasSubstr("literal"));
  EXPECT_THAT(pattern::regex("a+").describe(), HasSubstr("regex /a+/"));
}

TEST(ExpectBuffer, LineEndsBecomeOneLfWhereverTheyAreSplit) {
  expect_buffer b;
  b.feed("uart:~$ zperf udp upload\r");
  b.feed("\nUpload completed!\r\r\nEnd\rof session!");
  EXPECT_EQ(b.unread(), "uart:~$ zperf udp upload\nUpload completed!\n\nEnd\nof session!");
}

TEST(ExpectBuffer, TheLastLineIsWhatAMessageQuotes) {
  expect_buffer b;
  EXPECT_EQ(b.last_line(), "");
  b.feed("[  1]  0.0-10.0 sec  32.42 MBytes    27.2 Mbits/sec\n   \n");
  EXPECT_EQ(b.last_line(), "[  1]  0.0-10.0 sec  32.42 MBytes    27.2 Mbits/sec");
  b.feed("\x1b[36mw61/>\x1b[0m");
  EXPECT_EQ(b.last_line(), "w61/>") << "the line in progress has text";
  b.read_all();
  EXPECT_EQ(b.unread(), "");
  EXPECT_EQ(b.last_line(), "w61/>") << "reading does not forget what was said";
}

TEST(ExpectBuffer, AConsoleThatNeverStopsTalkingCostsItsWindow) {
  expect_buffer b(1024);
  for (int i = 0; i < 1000; ++i) b.feed("Log queue full, message dropped\n");
  EXPECT_LE(b.unread().size(), 1024U);
  EXPECT_EQ(b.last_line(), "Log queue full, message dropped");
  EXPECT_THROW(expect_buffer(0), std::invalid_argument);
}

TEST(ConsolePattern, EmptyAndBrokenPatternsAreRefusedNamingThem) {
  EXPECT_THROW((void)pattern::literal(""), std::invalid_argument);
  EXPECT_THROW((void)pattern::regex(""), std::invalid_argument);
  try {
    (void)pattern::regex("([0-9]+");
    FAIL() << "an unbalanced group compiled";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("/([0-9]+/"));
  }
}

}  // namespace
