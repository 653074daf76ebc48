// hilperf-board-console: the shell of a Linux board at its console (a serial device, a pty, or a
// raw TCP console such as ser2net's), for a board whose only network link is the port under test:
// an MTU tier or a link test cuts an ssh session, not this one (docs/running-on-a-board.md,
// "Through the board's console").
//
//   hilperf-board-console run <case binary> [arguments…]   CTest's launcher (ci/console-launcher):
//                                                          the binary run on the board, its output,
//                                                          exit status, gtest report and records
//                                                          back
//   hilperf-board-console sh '<command>'                    one command on the board: its output
//                                                          and exit status (`uname -m`)
//
// The console and how to reach it come from options or the environment (the launcher has only the
// environment): --console / HILPERF_BOARD_CONSOLE, --baud / HILPERF_BOARD_CONSOLE_BAUD, --user /
// HILPERF_BOARD_CONSOLE_USER, --dir / HILPERF_BOARD_CONSOLE_DIR, --log / HILPERF_BOARD_CONSOLE_LOG,
// --answer-timeout / HILPERF_BOARD_CONSOLE_TIMEOUT;
// a password only from HILPERF_BOARD_CONSOLE_PASSWORD. One process at a time holds the console
// (/run/lock/hilperf/console-<port>.lock).
// Exit codes: run and sh: the board's exit status; 2 bad usage, a console that does not answer, a
// file that cannot cross it, a console in use.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "board_run.hpp"
#include "hil/console/port.hpp"
#include "hil/console/transcript.hpp"
#include "hil/shell/shell_session.hpp"
#include "hil/sys/board_lock.hpp"

namespace {

std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int) { stop_requested = true; }

void catch_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a wait returns and sees the request
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &action, nullptr);
}

struct console_options {
  std::string where;
  int baud = 115200;
  bool rtscts = false;
  std::string user = "root";
  std::string dir = "/tmp/hilperf-console";
  std::string log;
  double answer_seconds = 10;
};

// The lock's name for a console: its path or address, as a file name.
std::string lock_name(const std::string& where) {
  std::string name = "console-";
  for (const char c : where) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    name += keep ? c : '_';
  }
  return name;
}

// Opens the console, holds it and takes its shell over for body; the transcript appended to
// --log at the end, whatever happened.
template <typename Body>
int with_shell(const console_options& o, Body body) {
  const hil::sys::board_lock lock(hil::sys::board_lock::default_dir(), lock_name(o.where));
  const auto answer = std::chrono::milliseconds(static_cast<long>(o.answer_seconds * 1000));
  hil::console::port port({o.where, o.baud, o.rtscts}, std::chrono::steady_clock::now() + answer);
  hil::console::transcript log;
  struct keep_log {
    const std::string& path;
    const hil::console::transcript& log;
    ~keep_log() {
      if (!path.empty()) std::ofstream(path, std::ios::app) << log.text();
    }
  } kept{o.log, log};
  const char* password = std::getenv("HILPERF_BOARD_CONSOLE_PASSWORD");
  hil::shell::shell_session shell(port, log, {o.user, password != nullptr ? password : "", answer});
  return body(shell);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The shell of a Linux board at its console: cases run there as over ssh"};
  app.set_version_flag("--version", HIL_VERSION);
  app.require_subcommand(1);
  console_options o;
  app.add_option("--console", o.where, "the console: a device (/dev/ttyUSB0) or tcp://host:port")
      ->envname("HILPERF_BOARD_CONSOLE")
      ->required();
  app.add_option("--baud", o.baud, "a serial device's baud rate")
      ->envname("HILPERF_BOARD_CONSOLE_BAUD")
      ->capture_default_str();
  app.add_flag("--rtscts", o.rtscts, "hardware flow control on a serial device");
  app.add_option("--user", o.user, "typed when the console asks login:")
      ->envname("HILPERF_BOARD_CONSOLE_USER")
      ->capture_default_str();
  app.add_option("--dir", o.dir, "where the binaries are kept on the board")
      ->envname("HILPERF_BOARD_CONSOLE_DIR")
      ->capture_default_str();
  app.add_option("--log", o.log, "append the console log (what crossed it, timed) to this file")
      ->envname("HILPERF_BOARD_CONSOLE_LOG");
  app.add_option("--answer-timeout", o.answer_seconds, "seconds the shell has to answer each step")
      ->envname("HILPERF_BOARD_CONSOLE_TIMEOUT")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  auto* run = app.add_subcommand("run", "run a case binary on the board (CTest's launcher)");
  run->prefix_command();
  auto* sh = app.add_subcommand("sh", "run one shell command on the board");
  std::string command;
  sh->add_option("command", command, "the command line")->required();
  CLI11_PARSE(app, argc, argv);

  catch_stop_signals();
  try {
    if (*run) {
      const auto words = run->remaining();
      if (words.empty()) throw CLI::ValidationError("run", "takes a case binary");
      hil::board_console::board_run r;
      r.binary = words.front();
      hil::board_console::take_arguments(r, {words.begin() + 1, words.end()});
      if (!r.profile) {
        if (const char* p = std::getenv("HILPERF_PROFILE"); p != nullptr && *p != '\0')
          r.profile = p;
      }
      if (const char* d = std::getenv("HILPERF_DURATIONS")) r.durations = d;
      if (const char* f = std::getenv("HILPERF_RESULTS"); f != nullptr && *f != '\0') r.results = f;
      r.board_dir = o.dir;
      return with_shell(o, [&](hil::shell::shell_session& shell) {
        return hil::board_console::run_on_board(shell, r, std::cout, std::cerr, stop_requested);
      });
    }
    return with_shell(o, [&](hil::shell::shell_session& shell) {
      return shell.run(
          command, [](std::string_view line) { std::cout << line << '\n'
                                                         << std::flush; },
          hil::shell::clock::now() + std::chrono::hours(1), &stop_requested);
    });
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "hilperf-board-console: " << e.what() << '\n';
    return 2;
  }
}
