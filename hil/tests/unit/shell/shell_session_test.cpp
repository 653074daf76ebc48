// A real shell (Debian's sh, dash) at a console: hil_board_shell runs `sh -i` on a
// pseudo-terminal of its own and relays it to a device path, as a board's UART and a USB-serial
// bridge would; the session opens that path as it would /dev/ttyUSB0. No network.
#include "hil/shell/shell_session.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "hil/console/port.hpp"
#include "hil/console/transcript.hpp"
#include "hil/shell/file_transfer.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/tests/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using hil::shell::clock;
using ::testing::HasSubstr;

// A board's console with `sh -i` behind it, for as long as the object lives.
class board_console {
 public:
  explicit board_console(std::vector<std::string> shell = {"sh", "-i"}) : process_(argv(shell)) {
    if (!process_.wait_for_output("console ", 10s)) {
      throw std::runtime_error("hil_board_shell did not start: " + process_.output());
    }
    const std::string out = process_.output();
    const auto at = out.find("console ") + 8;
    device_ = out.substr(at, out.find('\n', at) - at);
  }
  [[nodiscard]] const std::string& device() const { return device_; }

 private:
  static std::vector<std::string> argv(std::vector<std::string> shell) {
    shell.insert(shell.begin(), HIL_BOARD_SHELL_BINARY);
    return shell;
  }
  hil::sys::child_process process_;
  std::string device_;
};

// How many times what stands in text.
std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// What put_file types to ask the board for the tools it needs (file_transfer.cpp).
constexpr const char* asked_for_tools = "command -v $t >/dev/null";

class ShellSession : public ::testing::Test {
 protected:
  hil::console::port open_port() {
    return hil::console::port({console_.device(), 115200, false}, clock::now() + 5s);
  }
  board_console console_;
  hil::console::transcript log_;
  const hil::shell::shell_options options_{"root", "", 5000ms};
};

TEST_F(ShellSession, RunsACommandAndReadsItsOutputAndExitStatus) {
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  const auto r = shell.capture("echo hello; echo world; false", clock::now() + 10s);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.output, "hello\nworld\n") << log_.text();
  EXPECT_EQ(
      shell.capture("exit_status_7() { return 7; }; exit_status_7", clock::now() + 10s).status, 7);
}

TEST_F(ShellSession, OutputWithoutALineEndStillEndsTheCommand) {
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  const auto r = shell.capture("printf abc", clock::now() + 10s);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output, "abc\n");
}

TEST_F(ShellSession, TheShellIsGivenBackAsItWasAndTakenOverAgain) {
  const std::string kept_state = "echo \"[$hilperf_ps1]\"; echo \"$hilperf_stty\"";
  std::string first;
  {
    auto port = open_port();
    hil::shell::shell_session shell(port, log_, options_);
    EXPECT_EQ(shell.capture("stty -a", clock::now() + 10s).output.find(" echo "), std::string::npos)
        << "echo is off while the session drives the shell";
    first = shell.capture(kept_state, clock::now() + 10s).output;
  }
  ASSERT_THAT(first, ::testing::Not(::testing::StartsWith("[]"))) << "the shell had a prompt";
  // A second session finds the prompt and the terminal the first found: what it keeps is what the
  // first gave back, not the first's empty prompt and silent terminal.
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  EXPECT_EQ(shell.capture(kept_state, clock::now() + 10s).output, first) << log_.text();
}

TEST_F(ShellSession, ACommandStillRunningAtItsDeadlineIsInterruptedAndNamed) {
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  try {
    shell.capture("sleep 30", clock::now() + 1s);
    FAIL() << "a deadline passed";
  } catch (const hil::shell::shell_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("`sleep 30`"));
    EXPECT_THAT(e.what(), HasSubstr("did not end by its deadline (Ctrl-C ended it"));
  }
  // The shell is free again.
  EXPECT_EQ(shell.capture("echo free", clock::now() + 10s).output, "free\n") << log_.text();
}

TEST_F(ShellSession, AFileCrossesTheConsoleBothWaysUnchangedAndIsSentOnce) {
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  std::mt19937 random(20261207);  // seed printed: every byte value, reproducibly
  std::string content(300 * 1024, '\0');
  for (auto& c : content) c = static_cast<char>(random());
  const std::string remote = "/tmp/hilperf-shell-test-" + std::to_string(::getpid());
  const auto deadline = clock::now() + 60s;
  EXPECT_EQ(hil::shell::put_file(shell, content, remote, 0700, deadline),
            hil::shell::put_outcome::sent);
  EXPECT_EQ(hil::shell::put_file(shell, content, remote, 0700, deadline),
            hil::shell::put_outcome::already_there);
  EXPECT_EQ(hil::shell::put_file(shell, "other", remote + ".other", 0600, deadline),
            hil::shell::put_outcome::sent);
  EXPECT_EQ(occurrences(log_.text(), asked_for_tools), 1U)
      << "the board is asked for its tools once a session: " << log_.text();
  EXPECT_EQ(shell.capture("stat -c %a " + remote, deadline).output, "700\n");
  EXPECT_EQ(hil::shell::get_file(shell, remote, deadline), content);
  EXPECT_FALSE(hil::shell::get_file(shell, remote + ".absent", deadline).has_value());
  // Kernel messages on the console while the file comes back: taken out, the file unchanged.
  EXPECT_EQ(shell
                .capture("{ (for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.05; "
                         "echo '[  12.345678] eth0: Link is Down'; done) & }",
                         deadline)
                .status,
            0);
  EXPECT_EQ(hil::shell::get_file(shell, remote, deadline), content);
  shell.capture("rm -f " + remote + " " + remote + ".other", deadline);
}

TEST_F(ShellSession, ABoardWithoutATransfersToolsIsNamedAndAskedOnce) {
  // A board whose shell finds head, chmod, mv and stty but neither base64 nor sha256sum.
  const hil::test::temp_dir bin("hilperf-shell-tools");
  auto port = open_port();
  hil::shell::shell_session shell(port, log_, options_);
  const auto deadline = clock::now() + 30s;
  const std::string dir = hil::shell::shell_word(bin.path().string());
  ASSERT_EQ(shell
                .capture("(set -e; for t in head chmod mv stty; do ln -s \"$(command -v $t)\" " +
                             dir + "/$t; done) && PATH=" + dir,
                         deadline)
                .status,
            0)
      << log_.text();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      (void)hil::shell::put_file(shell, "x", "/tmp/hilperf-shell-never", 0600, deadline);
      ADD_FAILURE() << "a board without base64 took a file: " << log_.text();
    } catch (const hil::shell::shell_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("the board at " + console_.device() +
                                      " at 115200 baud has no base64, sha256sum: files cannot "
                                      "cross its console"));
    }
  }
  EXPECT_EQ(occurrences(log_.text(), asked_for_tools), 1U) << log_.text();
}

TEST(ShellSessionFault, AConsoleWithoutAShellFailsNamingThePortAndTheLastLine) {
  // A board whose console shows a program that never reads: nothing comes back.
  board_console console({"sh", "-c", "trap '' INT; echo 'U-Boot 2024.01'; exec sleep 60"});
  hil::console::port port({console.device(), 115200, false}, clock::now() + 5s);
  hil::console::transcript log;
  try {
    hil::shell::shell_session shell(port, log, {"root", "", 1500ms});
    FAIL() << "no shell answered";
  } catch (const hil::shell::shell_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no shell answered at the console " + console.device()));
    EXPECT_THAT(e.what(), HasSubstr("a wrong port or baud rate"));
  }
}

}  // namespace
