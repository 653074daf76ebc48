// firmware_run against a firmware played on the master side of a pseudo-terminal
// (hil/tests/fake_firmware.hpp): the case's side opens the slave as its serial device; the fake
// echoes what is typed (or not: a muted console, a wrong baud rate) and answers each line it runs
// with text given per command, written in chunks with pauses, so reads split anywhere.
#include "hil/firmware/firmware_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "hil/tests/fake_firmware.hpp"

namespace {

using hil::firmware::firmware_run;
using hil::firmware::iperf_protocol;
using hil::firmware::iperf_request;
using hil::firmware::iperf_role;
using hil::firmware::run_limits;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace std::chrono_literals;

const std::string st_prompt = "\x1b[36mw61/>\x1b[0m";

using hil::test::chunk;

// The ST67W6X shell's answer to anything it does not know here: its prompt.
std::vector<chunk> prompt_only(const std::string&) { return {{0ms, st_prompt}}; }

// The fake firmware of these tests: each line answered by a, echoed unless echo is false.
class fake_firmware : public hil::test::fake_firmware {
 public:
  explicit fake_firmware(hil::test::answers a, bool echo = true)
      : hil::test::fake_firmware(std::move(a), {echo, {}}) {}
};

// A case's side of the console: the port on the fake's slave, its terminal and log.
struct host {
  explicit host(const fake_firmware& f)
      : port({f.slave(), 921600, false}, hil::console::port::clock::now() + 2s),
        term(port, {"\n", true, 500ms, 0ms}, log) {}
  hil::console::port port;
  hil::console::transcript log;
  hil::console::terminal term;
};

const hil::firmware::dialect& st() { return hil::firmware::st67w6x(); }

iperf_request udp_client(std::chrono::seconds duration = 2s) {
  iperf_request r;
  r.peer_address = "198.18.0.1";
  r.bitrate_bps = 20'000'000;
  r.duration = duration;
  return r;
}

run_limits limits() {
  run_limits l;
  l.prompt_timeout = 400ms;
  l.end_slack = 300ms;
  l.reset_command = "reset";
  return l;
}

std::string unreachable_message(host& h) {
  try {
    hil::firmware::wake(h.term, st(), limits());
  } catch (const hil::firmware::console_unreachable& e) {
    return e.what();
  }
  ADD_FAILURE() << "a prompt came";
  return {};
}

// ST67W6X's UDP client run: the prompt at once, the run's lines later between another task's log
// lines, the end marker split across two writes, and no prompt after it.
std::vector<chunk> st_udp_client(const std::string& line) {
  if (!line.starts_with("iperf -c")) return prompt_only(line);
  return {
      {0ms, st_prompt},
      {20ms,
       "------------------------------------------------------------\n[UDP] Client "
       "connecting to 198.18.0.1, port 5001\nSending 1470 bytes datagrams\n"},
      {20ms,
       "ST67W6X Wi-Fi: station link up, RSSI -48 dBm\n[ERROR] [1500] [ST67W6XTask] "
       "(w61_at_common.c:375) sem_if_ready not received\n"},
      {20ms, "[ ID] Interval       Transfer        Bandwidth\n[  1]  0.0-2.0 sec   5.00 MBytes"},
      {20ms,
       "    20.9 Mbits/sec\n[ ID]  Jitter        Lost/Total Datagrams\n[  1] 0.000 ms "
       "   3/ 3556 (0%)\niperf ex"},
      {30ms, "it\n"}};
}

TEST(FirmwareRun, ReadsTheReportThroughAnEndMarkerSplitAcrossReadsAfterLogLines) {
  fake_firmware firmware(st_udp_client);
  host h(firmware);
  hil::firmware::wake(h.term, st(), limits());
  firmware_run run(h.term, st(), udp_client(), limits());
  const auto begun = std::chrono::steady_clock::now();
  const auto r = run.finish();
  EXPECT_LT(std::chrono::steady_clock::now() - begun, 400ms)
      << "the prompt came back before the run's lines: none is awaited after its end";
  ASSERT_TRUE(r.mbit_per_second) << h.log.text();
  EXPECT_DOUBLE_EQ(*r.mbit_per_second, 20.9);
  EXPECT_EQ(r.seconds, 2.0);
  EXPECT_EQ(r.lost, 3U);
  EXPECT_EQ(r.total, 3556U);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_THAT(r.log_errors, ElementsAre(HasSubstr("sem_if_ready not received")));
  EXPECT_THAT(run.text(), StartsWith("iperf -c 198.18.0.1 -u -b 20 -t 2"));
  EXPECT_THAT(run.text(), EndsWith("iperf exit"));
  EXPECT_THAT(h.log.text(), HasSubstr("waking the console"));
  EXPECT_THAT(h.log.text(), HasSubstr("starting a st67w6x iperf run"));
}

TEST(FirmwareRun, AServerRunStartsOnceItsReadyMarkerCame) {
  fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (!line.starts_with("iperf -s")) return prompt_only(line);
    return {{0ms, st_prompt},
            {100ms,
             "------------------------------------------------------------\n[UDP] Server "
             "listening on port 5001\n"},
            {100ms, "[  1]  0.0-2.0 sec  5.03 MBytes    21.0 Mbits/sec\niperf exit\n"}};
  });
  host h(firmware);
  hil::firmware::wake(h.term, st(), limits());
  auto request = udp_client();
  request.role = iperf_role::server;
  firmware_run run(h.term, st(), request, limits());
  EXPECT_THAT(run.text(), EndsWith("[UDP] Server listening on port 5001"));
  EXPECT_THAT(run.text(), Not(HasSubstr("21.0"))) << "returned as soon as the server listened";
  EXPECT_EQ(run.finish().mbit_per_second, 21.0);
}

TEST(FirmwareRun, ABlockingCommandsPromptIsAwaitedAfterItsEnd) {
  const auto& z = hil::firmware::zperf();
  fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (!line.starts_with("zperf")) return {{0ms, "uart:~$ "}};
    return {{20ms, "Remote port is 5001\nConnecting to 198.18.0.1\nStarting...\n"},
            {20ms,
             "-\nUpload completed!\nStatistics:\t\tserver\t(client)\nDuration:\t\t2.00 s\t"
             "(2.00 s)\nNum packets:\t\t4882\t(4882)\nNum packets out order:\t0\nNum packets "
             "lost:\t0\nJitter:\t\t\t63 us\nRate:\t\t\t19.98 Mbps\t(20.00 Mbps)\n"},
            {100ms, "uart:~$ "}};
  });
  host h(firmware);
  auto l = limits();
  hil::firmware::wake(h.term, z, l);
  firmware_run run(h.term, z, udp_client(), l);
  const auto r = run.finish();
  EXPECT_EQ(r.mbit_per_second, 19.98);
  EXPECT_EQ(r.total, 4882U);
  EXPECT_THAT(std::string(h.term.buffer().unread()), Not(HasSubstr("uart:~$")))
      << "the prompt after the upload's statistics was read";
}

TEST(FirmwareRun, AConsoleThatSaysNothingIsUnreachableNamingThePort) {
  fake_firmware firmware([](const std::string&) { return std::vector<chunk>{}; }, false);
  host h(firmware);
  const std::string message = unreachable_message(h);
  EXPECT_THAT(message, HasSubstr(firmware.slave() + " at 921600 baud"));
  EXPECT_THAT(message, HasSubstr("literal \"w61/>\""));
  EXPECT_THAT(message, HasSubstr("nothing came"));
  EXPECT_THAT(h.log.text(), HasSubstr(">] \\n")) << "a bare line ending was typed";
}

TEST(FirmwareRun, GarbageInsteadOfAPromptIsQuotedEscaped) {
  fake_firmware firmware(
      [](const std::string&) {
        return std::vector<chunk>{{0ms, "\xe3\x9c\xa1\xf0\x81\x0b"}};
      },
      false);
  host h(firmware);
  const std::string message = unreachable_message(h);
  EXPECT_THAT(message, HasSubstr("text came but no prompt"));
  EXPECT_THAT(message, HasSubstr("\"\\xe3\\x9c\\xa1\\xf0\\x81\\x0b\""));
  EXPECT_THAT(message, HasSubstr("wrong baud rate"));
}

// A run that never ends: the prompt, the header, then nothing; `iperf -a` changes nothing.
std::vector<chunk> st_stuck(const std::string& line) {
  if (line.starts_with("iperf -c")) {
    return {{0ms, st_prompt}, {20ms, "[ ID] Interval       Transfer        Bandwidth\n"}};
  }
  if (line == "iperf -a") return {{0ms, "iperf aborting ...\n" + st_prompt}};
  if (line == "reset") return {{50ms, "\n#### ST67W6X CLI ####\n"}, {50ms, st_prompt}};
  return prompt_only(line);
}

TEST(FirmwareRun, NoEndTypesTheAbortThenTheResetAndNamesTheLastLine) {
  fake_firmware firmware(st_stuck);
  host h(firmware);
  hil::firmware::wake(h.term, st(), limits());
  firmware_run run(h.term, st(), udp_client(1s), limits());
  try {
    (void)run.finish();
    FAIL() << "a run without its end finished";
  } catch (const hil::firmware::run_stuck& e) {
    const std::string m = e.what();
    EXPECT_THAT(m, HasSubstr("no end of the run (literal \"iperf exit\") within 1.3 s"));
    EXPECT_THAT(m, HasSubstr("\"iperf -a\" typed: no end within 0.4 s"));
    EXPECT_THAT(m, HasSubstr("then \"reset\" typed: the prompt came back"));
    EXPECT_THAT(m, HasSubstr("last line before the abort: \"w61/>[ ID] Interval       Transfer"))
        << "the prompt came back at once, the run's lines after it on its line";
  }
  EXPECT_THAT(firmware.ran(),
              ElementsAre("", "iperf -c 198.18.0.1 -u -b 20 -t 1", "iperf -a", "reset"));
  EXPECT_THAT(h.log.text(), HasSubstr("aborting it"));
  EXPECT_THAT(h.log.text(), HasSubstr("\"reset\" typed: the prompt came back"));
}

TEST(FirmwareRun, AnAbortThatEndsTheRunNeedsNoReset) {
  fake_firmware firmware([](const std::string& line) {
    if (line == "iperf -a") {
      return std::vector<chunk>{{0ms, "iperf aborting ...\n" + st_prompt}, {50ms, "iperf exit\n"}};
    }
    return st_stuck(line);
  });
  host h(firmware);
  hil::firmware::wake(h.term, st(), limits());
  firmware_run run(h.term, st(), udp_client(1s), limits());
  try {
    (void)run.finish();
    FAIL() << "an aborted run finished";
  } catch (const hil::firmware::run_stuck& e) {
    EXPECT_THAT(e.what(), HasSubstr("\"iperf -a\" typed: the run ended and the prompt came back"));
    EXPECT_THAT(e.what(), Not(HasSubstr("reset")));
  }
  EXPECT_THAT(firmware.ran(), Not(Contains("reset")));
  EXPECT_EQ(firmware.ran().back(), "") << "a line ending confirmed the prompt";
}

TEST(FirmwareRun, NoResetCommandLeavesTheRunNamedAsPossiblyRunning) {
  fake_firmware firmware(st_stuck);
  host h(firmware);
  auto l = limits();
  l.reset_command.clear();
  hil::firmware::wake(h.term, st(), l);
  firmware_run run(h.term, st(), udp_client(1s), l);
  EXPECT_THROW(
      {
        try {
          (void)run.finish();
        } catch (const hil::firmware::run_stuck& e) {
          EXPECT_THAT(e.what(), HasSubstr("no reset command to type"));
          EXPECT_THAT(e.what(), HasSubstr("the firmware may still be running it"));
          throw;
        }
      },
      hil::firmware::run_stuck);
}

TEST(FirmwareRun, TheDestructorOfAnUnfinishedRunTypesTheAbort) {
  fake_firmware firmware(st_stuck);
  host h(firmware);
  hil::firmware::wake(h.term, st(), limits());
  { firmware_run run(h.term, st(), udp_client(), limits()); }
  EXPECT_THAT(firmware.ran(), Contains("iperf -a"));
  EXPECT_THAT(h.log.text(), HasSubstr("left unfinished"));
}

TEST(FirmwareRun, ARequestTheFirmwareCannotExpressTypesNothing) {
  fake_firmware firmware(prompt_only);
  host h(firmware);
  auto request = udp_client();
  request.bitrate_bps = 20'500'000;
  EXPECT_THROW(firmware_run(h.term, st(), request, limits()), std::invalid_argument);
  std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(firmware.ran().empty());
}

TEST(FirmwareRunSetUp, EachCommandsReplyThenThePrompt) {
  fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (line.starts_with("wifi connect")) return {{50ms, "Connected to ap\n"}, {0ms, st_prompt}};
    return prompt_only(line);
  });
  host h(firmware);
  hil::firmware::set_up(h.term, st(), {"wifi connect ap pass", "wifi scan"}, {"Connected"}, 1s,
                        limits());
  EXPECT_THAT(firmware.ran(), ElementsAre("wifi connect ap pass", "wifi scan"));
  try {
    hil::firmware::set_up(h.term, st(), {"wifi connect ap wrong"}, {"Associated"}, 300ms, limits());
    FAIL() << "a reply out of nothing";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("set-up command \"wifi connect ap wrong\""));
    EXPECT_THAT(e.what(), HasSubstr("its reply \"Associated\" did not come within 0.3 s"));
    EXPECT_THAT(e.what(), HasSubstr("what came after it: \"\\nConnected to ap\\nw61/>\""));
  }
  EXPECT_THROW(hil::firmware::set_up(h.term, st(), {}, {"x"}, 1s, limits()), std::invalid_argument);
}

TEST(FirmwareRunSetUp, AReplyLoggedAfterThePromptNeedsNoSecondPrompt) {
  // The command returns at once (its prompt first); its task logs the reply later, and no prompt
  // follows it.
  fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (line.starts_with("wifi_sta_connect")) {
      return {{0ms, st_prompt}, {50ms, "Connection success\n"}};
    }
    return prompt_only(line);
  });
  host h(firmware);
  auto l = limits();
  l.prompt_timeout = 300ms;
  hil::firmware::set_up(h.term, st(), {"wifi_sta_connect ap pass", "wifi_sta_state"},
                        {"Connection success"}, 1s, l);
  EXPECT_THAT(firmware.ran(), ElementsAre("wifi_sta_connect ap pass", "wifi_sta_state"));
}

TEST(FirmwareRunPrompt, TheProfilesPromptReplacesTheDialects) {
  fake_firmware firmware([](const std::string&) { return std::vector<chunk>{{0ms, "nucleo> "}}; });
  host h(firmware);
  auto l = limits();
  l.prompt = hil::console::pattern::literal("nucleo>");
  hil::firmware::wake(h.term, st(), l);
  EXPECT_THROW(hil::firmware::wake(h.term, st(), limits()), hil::firmware::console_unreachable);
}

}  // namespace
