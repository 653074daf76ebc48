// The terminal against a firmware played on the other side of a pseudo-terminal
// (hil/tests/fake_firmware.hpp): the case's side opens the pty's slave as its serial device (raw,
// 921600 baud), the test's firmware holds the master, echoes what it is typed (dropping bytes when
// told to), runs a line at LF and prints a run's report after its prompt.
#include "hil/console/terminal.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hil/tests/fake_firmware.hpp"

namespace {

using hil::console::pattern;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

const std::string prompt = "\x1b[36mw61/>\x1b[0m";

// The firmware of these tests: a line starting with "iperf" prints a run after its prompt, with
// another task's error line in between; anything else, the prompt.
std::vector<hil::test::chunk> st_answers(const std::string& line) {
  if (line.starts_with("iperf")) {
    return {{0ms, prompt + "[  1]  0.0-10.0 sec  33.03 MBytes    27.7 Mbits/sec\n"},
            {0ms, "[ERROR] [4000] [ST67W6XTask] (w61_at_common.c:375) sem_if_ready not received\n"},
            {0ms, "iperf exit\n" + prompt}};
  }
  return {{0ms, prompt}};
}

// A firmware that loses the typed bytes at positions drop.
class fake_firmware : public hil::test::fake_firmware {
 public:
  explicit fake_firmware(std::vector<std::size_t> drop = {})
      : hil::test::fake_firmware(st_answers, {true, std::move(drop)}) {}
};

hil::console::port open(const fake_firmware& f) {
  return hil::console::port({f.slave(), 921600, false}, hil::console::port::clock::now() + 2s);
}

TEST(ConsoleTerminal, TypesACommandAndReadsItsRunToTheEndMarker) {
  fake_firmware firmware;
  auto port = open(firmware);
  hil::console::transcript log;
  hil::console::terminal t(port, {}, log);
  firmware.say(prompt);
  const std::vector<pattern> ready{pattern::literal("w61/>")};
  (void)t.expect(ready, 2s);
  t.type("iperf -s -u -t 10");
  const std::vector<pattern> end{pattern::literal("iperf exit")};
  const auto run = t.expect(end, 2s);
  EXPECT_THAT(run.before, HasSubstr("27.7 Mbits/sec"));
  EXPECT_EQ(firmware.ran(), std::vector<std::string>{"iperf -s -u -t 10"});
  EXPECT_THAT(log.text(), HasSubstr(">] iperf -s -u -t 10"));
  EXPECT_THAT(log.text(), HasSubstr("<] "));
  EXPECT_THAT(log.text(), HasSubstr("\\e[36mw61/>\\e[0m")) << "the raw bytes, escaped";
}

TEST(ConsoleTerminal, ADroppedByteIsErasedAndTypedAgainNeverRunGarbled) {
  fake_firmware firmware({2});  // the third byte of the first try never arrives
  auto port = open(firmware);
  hil::console::transcript log;
  hil::console::terminal t(port, {"\n", true, 1s, 0ms}, log);
  t.type("iperf -a");
  const std::vector<pattern> ready{pattern::literal("w61/>")};
  (void)t.expect(ready, 2s);
  EXPECT_EQ(firmware.ran(), std::vector<std::string>{"iperf -a"}) << "only the whole command ran";
  EXPECT_THAT(log.text(), HasSubstr("did not come; erasing and typing it again"));
}

TEST(ConsoleTerminal, ACommandGarbledTwiceIsRefusedAndNotRun) {
  fake_firmware firmware({2, 20});  // a byte of each try (8 typed, 10 backspaces, then 8)
  auto port = open(firmware);
  hil::console::transcript log;
  hil::console::terminal t(port, {"\n", true, 1s, 0ms}, log);
  try {
    t.type("iperf -a");
    FAIL() << "a garbled command was typed";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("garbled a command twice: typed \"iperf -a\""));
    EXPECT_THAT(e.what(), HasSubstr(firmware.slave()));
  }
  std::this_thread::sleep_for(50ms);  // what the firmware would run has arrived by now
  EXPECT_TRUE(firmware.ran().empty()) << "no line ending was sent";
}

TEST(ConsoleTerminal, ASilentConsoleTimesOutNamingThePortAndWhatWasAwaited) {
  fake_firmware firmware;
  auto port = open(firmware);
  hil::console::transcript log;
  hil::console::terminal t(port, {}, log);
  const std::vector<pattern> ready{pattern::literal("w61/>")};
  try {
    (void)t.expect(ready, 200ms);
    FAIL() << "a prompt out of silence";
  } catch (const hil::console::console_timeout& e) {
    EXPECT_THAT(e.what(), HasSubstr(firmware.slave() + " at 921600 baud"));
    EXPECT_THAT(e.what(), HasSubstr("literal \"w61/>\""));
    EXPECT_THAT(e.what(), HasSubstr("nothing at all: wrong port or baud rate?"));
  }
  firmware.say("Booting...\n");
  try {
    (void)t.expect(ready, 200ms);
    FAIL() << "a prompt out of a boot banner";
  } catch (const hil::console::console_timeout& e) {
    EXPECT_THAT(e.what(), HasSubstr("its last line: \"Booting...\""));
  }
}

TEST(ConsolePort, AMissingDeviceAndABaudRateWithoutAConstantAreNamed) {
  try {
    hil::console::port p({"/dev/hilperf-no-such-tty", 115200, false},
                         hil::console::port::clock::now() + 1s);
    FAIL() << "opened a device that does not exist";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("/dev/hilperf-no-such-tty at 115200 baud"));
    EXPECT_THAT(e.what(), HasSubstr("is the board plugged in?"));
  }
  fake_firmware firmware;
  EXPECT_THROW(
      hil::console::port({firmware.slave(), 12345, false}, hil::console::port::clock::now() + 1s),
      std::invalid_argument);
}

}  // namespace
