// An RFC 2217 console (hil::console::port on rfc2217://host:port, libgensio's telnet client)
// against Debian's ser2net with a telnet(rfc2217) accepter in front of the simulated MCU's pty, as
// a lab's console server serves a board: the ST67W6X prompt through it, the baud rate asked
// applied to the device (the pty's termios read back), and the failures named — nothing
// listening, no route, a raw accepter, a server that hangs up. The tests run in this
// run's DUT namespace (netns_main.cpp), whose loopback is this process's alone: fixed ports are
// safe there.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <termios.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <system_error>

#include "hil/bench/ser2net.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/tests/temp_dir.hpp"
#include "mcu_sim_fixture.hpp"

namespace {

using ::testing::HasSubstr;
using namespace hil::mcu_sim::test;
using hil::bench::console_protocol;
using clock_type = hil::console::port::clock;

constexpr const char* console_address = "rfc2217://127.0.0.1:3001";

// The emulator on a pty linked in a directory of the test's own, and ser2net serving that link on
// 127.0.0.1:3001 (at 921600 8N1 until a client sets the line).
struct served_mcu {
  explicit served_mcu(console_protocol protocol = console_protocol::rfc2217)
      : dir("hilperf-rfc2217"), sim({"--link", link().string()}) {
    server.emplace(bench().dut_netns, "127.0.0.1", 3001, link(), protocol,
                   dir.path() / "ser2net.yaml");
  }
  [[nodiscard]] std::filesystem::path link() const { return dir.path() / "mcu"; }

  hil::test::temp_dir dir;
  mcu_sim sim;
  std::optional<hil::bench::ser2net_server> server;
};

// The output speed the pty's line is set to now (the device's side, as ser2net left it).
speed_t line_speed(const std::filesystem::path& tty) {
  const hil::sys::unique_fd fd(::open(tty.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  termios t{};
  if (!fd || ::tcgetattr(fd.get(), &t) != 0) return B0;
  return ::cfgetospeed(&t);
}

// The error opening spec throws (a failure when it opens).
std::system_error open_error(const hil::console::port_spec& spec, std::chrono::seconds timeout) {
  try {
    const hil::console::port port(spec, clock_type::now() + timeout);
    ADD_FAILURE() << spec.where << " opened as " << port.name();
  } catch (const std::system_error& e) {
    return e;
  }
  return std::system_error(std::error_code{}, "opened");
}

TEST(Rfc2217, TheSt67PromptThroughSer2netAtTheRateAsked) {
  served_mcu mcu;
  host_console host(console_address, 2s, 115200);
  EXPECT_EQ(host.port.name(), std::string(console_address) + " at 115200 baud");
  EXPECT_EQ(line_speed(mcu.link()), B115200) << "ser2net set the device to the rate asked";
  host.wait_for_prompt();
  host.term.type("iperff -s");
  (void)host.expect(pattern::literal("iperff: command not found."), 2s);
  host.wait_for_prompt();
}

TEST(Rfc2217, EachConnectionSetsTheRateItAsks) {
  served_mcu mcu;
  for (const auto& [baud, speed] : std::array{std::pair{230400, B230400}, std::pair{9600, B9600}}) {
    host_console host(console_address, 2s, baud);
    EXPECT_EQ(line_speed(mcu.link()), speed) << baud;
    host.wait_for_prompt();
  }
}

TEST(Rfc2217, NothingListeningFailsNamingTheAddress) {
  const auto e = open_error({"rfc2217://127.0.0.1:3009", 115200}, 10s);
  EXPECT_EQ(e.code(), std::errc::connection_refused) << e.what();
  EXPECT_THAT(e.what(), HasSubstr("rfc2217://127.0.0.1:3009"));
  EXPECT_THAT(e.what(), HasSubstr("nothing listens there"));
}

TEST(Rfc2217, AnAddressWithoutARouteFailsNamingIt) {
  // TEST-NET-3 (RFC 5737): the DUT namespace has no route to it.
  const auto e = open_error({"rfc2217://203.0.113.7:3001", 115200}, 10s);
  EXPECT_THAT(e.what(), HasSubstr("rfc2217://203.0.113.7:3001"));
  EXPECT_THAT(e.what(), HasSubstr("cannot be reached"));
}

TEST(Rfc2217, ARawTcpAccepterIsNamedAsNoRfc2217Server) {
  served_mcu mcu(console_protocol::raw);
  const auto e = open_error({console_address, 115200}, 10s);
  EXPECT_EQ(e.code(), std::errc::not_supported) << e.what();
  EXPECT_THAT(e.what(), HasSubstr(console_address));
  EXPECT_THAT(e.what(), HasSubstr("not an RFC 2217 server"));
  EXPECT_THAT(e.what(), HasSubstr("tcp://host:port"));
}

// What the process's signal set-up is: the thread's mask and the handlers of the signals libgensio
// would take over (its process set-up) and of those the tools handle themselves.
struct signal_state {
  sigset_t mask{};
  std::array<struct sigaction, 6> actions{};
  static constexpr std::array<int, 6> signals{SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGUSR1, SIGHUP};
  signal_state() {
    ::pthread_sigmask(SIG_SETMASK, nullptr, &mask);
    for (std::size_t i = 0; i < signals.size(); ++i) ::sigaction(signals[i], nullptr, &actions[i]);
  }
  void expect_same_as(const signal_state& before) const {
    for (int sig = 1; sig < SIGRTMIN; ++sig) {
      EXPECT_EQ(::sigismember(&mask, sig), ::sigismember(&before.mask, sig)) << "signal " << sig;
    }
    for (std::size_t i = 0; i < signals.size(); ++i) {
      EXPECT_EQ(actions[i].sa_handler, before.actions[i].sa_handler) << "signal " << signals[i];
    }
  }
};

TEST(Rfc2217, AServerThatHangsUpFailsTheWriteAndLeavesTheSignalsAsTheyWere) {
  // SIGPIPE at its default, which ends the process: a write libgensio let raise it would kill
  // this test.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  struct sigaction old_pipe {};
  ::sigaction(SIGPIPE, &dfl, &old_pipe);
  const signal_state before;
  {
    served_mcu mcu;
    host_console host(console_address, 2s, 115200);
    host.wait_for_prompt();
    mcu.server.reset();  // the server goes away under the open console
    std::string message;
    const auto until = clock_type::now() + 5s;
    while (message.empty() && clock_type::now() < until) {
      try {
        host.port.write("help\n", clock_type::now() + 1s);
        (void)host.port.read_some(clock_type::now() + 100ms);
      } catch (const std::system_error& e) {
        message = e.what();
      }
    }
    EXPECT_THAT(message, HasSubstr(console_address));
    EXPECT_THAT(message, HasSubstr("closed the connection"));
  }
  signal_state().expect_same_as(before);
  sigset_t pending;
  ::sigpending(&pending);
  EXPECT_FALSE(::sigismember(&pending, SIGPIPE)) << "a SIGPIPE was left pending";
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
}

}  // namespace
