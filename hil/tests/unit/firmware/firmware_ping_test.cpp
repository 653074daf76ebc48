// The ST67W6X's ping: its lines as its ping.c prints them (through the log queue, so after the
// prompt as often as before it), parsed; run_ping against a firmware played on a pty
// (hil/tests/fake_firmware.hpp); and the verdict.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hil/console/port.hpp"
#include "hil/console/terminal.hpp"
#include "hil/console/transcript.hpp"
#include "hil/firmware/ping.hpp"
#include "hil/measure/firmware_checks.hpp"
#include "hil/tests/fake_firmware.hpp"

namespace {

using hil::test::chunk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

const std::string st_prompt = "\x1b[36mw61/>\x1b[0m";

std::string info(const std::string& text) {
  return "[INFO] [5120] [Ping IPv4] (ping.c:282) " + text + "\n";
}

hil::firmware::ping_request four() {
  hil::firmware::ping_request r;
  r.peer_address = "198.18.0.195";
  return r;
}

TEST(St67Ping, TheCommandIsWhatTheShellParses) {
  EXPECT_EQ(hil::firmware::st67w6x_ping().command(four()), "ping 198.18.0.195 -c 4 -s 64");
  auto big = four();
  big.payload_bytes = 1471;
  EXPECT_THROW((void)hil::firmware::st67w6x_ping().command(big), std::invalid_argument);
  EXPECT_EQ(hil::firmware::ping_of("st67w6x"), &hil::firmware::st67w6x_ping());
  EXPECT_EQ(hil::firmware::ping_of("zperf"), nullptr);
}

TEST(St67Ping, RepliesAndTheSummaryAreReadWhereverTheyLand) {
  const std::string text = "ping 198.18.0.195 -c 4 -s 64\n" + st_prompt + info("Ping: 3 ms") +
                           "ST67W6X Wi-Fi: station link up, RSSI -48 dBm\n" + info("Ping: 1 ms") +
                           info("Ping: 2 ms") + info("Ping: 2 ms") +
                           info("4 packets transmitted, 4 received, 0% packet loss, time 2ms");
  const auto r = hil::firmware::st67w6x_ping().parse(text);
  EXPECT_THAT(r.rtt_ms, ElementsAre(3, 1, 2, 2));
  EXPECT_EQ(r.transmitted, 4U);
  EXPECT_EQ(r.received, 4U);
  EXPECT_TRUE(r.errors.empty());
}

TEST(St67Ping, AMissingReplyEndsItWithoutASummary) {
  const std::string text = "ping 198.18.0.195 -c 4 -s 64\n" + info("Ping: 1 ms") +
                           "[ERROR] [9120] [tcpip] (ping.c:152) Ping timeout\n"
                           "[ERROR] [9121] [Ping IPv4] (ping.c:250) recvfrom() failed: 9\n";
  const auto r = hil::firmware::st67w6x_ping().parse(text);
  EXPECT_THAT(r.rtt_ms, ElementsAre(1));
  EXPECT_FALSE(r.received.has_value());
  EXPECT_THAT(r.errors, ElementsAre("Ping timeout", "recvfrom() failed: 9"));
}

// A case's side of the console on the fake's slave.
struct host {
  explicit host(const hil::test::fake_firmware& f)
      : port({f.slave(), 921600, false}, hil::console::port::clock::now() + 2s),
        term(port, {"\n", true, 500ms, 0ms}, log) {}
  hil::console::port port;
  hil::console::transcript log;
  hil::console::terminal term;
};

TEST(FirmwarePingRun, RunsToItsSummaryThoughThePromptCameFirst) {
  hil::test::fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (!line.starts_with("ping")) return {{0ms, st_prompt}};
    return {{0ms, st_prompt},
            {30ms, info("Ping: 1 ms")},
            {30ms, info("Ping: 1 ms")},
            {30ms, info("Ping: 2 ms")},
            {30ms, info("Ping: 1 ms")},
            {10ms, info("4 packets transmitted, 4 received, 0% packet loss, time 1ms")}};
  });
  host h(firmware);
  const auto r = hil::firmware::run_ping(h.term, hil::firmware::st67w6x(),
                                         hil::firmware::st67w6x_ping(), four(), {});
  EXPECT_EQ(r.rtt_ms.size(), 4U) << h.log.text();
  EXPECT_EQ(r.received, 4U);
  EXPECT_THAT(firmware.ran(), ElementsAre("ping 198.18.0.195 -c 4 -s 64"));
}

TEST(FirmwarePingRun, APingWithoutEndTypesTheResetAndNamesTheLastLine) {
  hil::test::fake_firmware firmware([](const std::string& line) -> std::vector<chunk> {
    if (line == "reset") return {{0ms, "ST67W6X boot\n" + st_prompt}};
    if (line.starts_with("ping")) return {{0ms, info("Ping: 1 ms")}};  // then silence
    return {{0ms, st_prompt}};
  });
  host h(firmware);
  hil::firmware::run_limits limits;
  limits.prompt_timeout = 300ms;
  limits.reset_command = "reset";
  auto request = four();
  request.count = 1;  // the longest wait: 4.5 s, plus the prompt's
  try {
    (void)hil::firmware::run_ping(h.term, hil::firmware::st67w6x(), hil::firmware::st67w6x_ping(),
                                  request, limits);
    FAIL() << "no end came";
  } catch (const hil::firmware::run_stuck& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("the firmware's ping to 198.18.0.195 did not end within 4.8 s"));
    EXPECT_THAT(e.what(), HasSubstr("Ping: 1 ms"));
    EXPECT_THAT(e.what(), HasSubstr("the reset command was typed"));
  }
  EXPECT_THAT(firmware.ran(), ElementsAre("ping 198.18.0.195 -c 1 -s 64", "reset"));
}

TEST(FirmwarePingVerdict, EveryRequestMustBeAnswered) {
  hil::measure::firmware_ping ping{"198.18.0.195", 4, 4, 1.5, {}};
  auto v = hil::measure::check_firmware_ping(ping);
  EXPECT_TRUE(v.pass);
  EXPECT_EQ(v.observed, "4/4 echo replies from 198.18.0.195 (the firmware's ping, avg rtt 2 ms)");
  EXPECT_EQ(v.limit, "4/4 replies");

  ping.replies = 1;
  ping.errors = {"Ping timeout", "recvfrom() failed: 9"};
  v = hil::measure::check_firmware_ping(ping);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("stops at the first reply missing: 1 of 4 came before it (the "
                                 "firmware said \"Ping timeout\")"));

  ping.replies = 0;
  ping.avg_rtt_ms.reset();
  ping.errors = {"No ping received"};
  v = hil::measure::check_firmware_ping(ping);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("no reply from the PC (the firmware said \"No ping received\")"));
}

}  // namespace
