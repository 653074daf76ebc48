// hilperf-mcu-sim: a microcontroller's firmware console on a pseudo-terminal, for the project's
// own tests and for trying hilperf's console cases without a board. It plays one firmware's
// console (--dialect: the ST67W6X CLI, Zephyr's zperf shell or ESP-IDF's iperf console;
// docs/console-duts.md "The simulated MCU"): the shell, its echo and prompt, the iperf command
// whose traffic stock iPerf 2 sends from this process's network namespace (start it inside the
// DUT's: `ip netns exec <dut ns> hilperf-mcu-sim …`), the ST67W6X's ping (the system's ping
// sends its requests), and the faults its switches name.
// Prints "console <pty path>" once ready, runs until SIGTERM or SIGINT, stops what it started.
// Exit codes: 0 stopped by a signal, 1 cannot run (no pty, a link path taken), 2 bad usage.
#include <signal.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "console_loop.hpp"
#include "esp_firmware.hpp"
#include "pty_pair.hpp"
#include "run_files.hpp"
#include "st67_firmware.hpp"
#include "zperf_firmware.hpp"

namespace {

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void on_stop_signal(int) { stop_requested = 1; }

// The command line and what main makes of it.
struct sim_options {
  std::string dialect = "st67w6x";
  std::string link;
  std::string pid_path;
  hil::mcu_sim::firmware_settings firmware;
  hil::mcu_sim::line_settings line;
  std::string error_line;
  double log_every_s = 2.0;
  double udp_server_idle_s = -1;  // not given: the dialect's own
};

void declare_fault_options(CLI::App& app, sim_options& o) {
  app.add_flag("--mute", o.line.mute, "never answer (a wrong port or a dead board)");
  app.add_flag("--garble-baud", o.line.garble,
               "answer with garbage bytes, as read at a wrong baud rate");
  app.add_option("--error-line", o.error_line,
                 "the next iperf run fails: prints TEXT as its traffic task's error, then ends "
                 "as that firmware's failed run does");
  app.add_option("--error-runs", o.firmware.error_runs,
                 "how many runs fail with --error-line (0: every run)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--never-end", o.firmware.run.never_end,
               "runs never print their report nor 'iperf exit', and 'iperf -a' does not stop "
               "them (the reset command does)");
  app.add_option("--rate-factor", o.firmware.run.rate_factor,
                 "a UDP client sends at F times the rate asked")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--drop-every", o.line.drop_every,
                 "lose every Nth byte the host sends (0: none): typed commands echo garbled")
      ->capture_default_str();
  app.add_option("--drop-limit", o.line.drop_limit,
                 "lose at most this many bytes with --drop-every (0: no limit)")
      ->capture_default_str();
  app.add_flag("--log-error", o.firmware.log_error,
               "each run also gets an error log line of another task");
}

void declare_options(CLI::App& app, sim_options& o) {
  app.add_option("--dialect", o.dialect, "the firmware to play (st67w6x, zperf, esp-idf)")
      ->capture_default_str()
      ->check(CLI::IsMember({"st67w6x", "zperf", "esp-idf"}));
  app.add_option("--link", o.link, "also make this symbolic link to the pty (removed on exit)");
  app.add_option("--pid-file", o.pid_path,
                 "write this process's id here once ready (removed on exit)");
  app.add_option("--reset-command", o.firmware.reset_command,
                 "the command that reboots the console (banner, prompt); default: the "
                 "firmware's (reset, kernel reboot cold, restart)");
  app.add_option("--prompt", o.firmware.prompt,
                 "esp-idf: the console's prompt name (default iperf>, an older example's esp32>)");
  app.add_option("--iperf", o.firmware.run.iperf_program, "the stock iPerf 2 program")
      ->capture_default_str();
  app.add_option("--log-every", o.log_every_s,
                 "seconds between log lines of another task during a run (0: none)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--udp-server-idle", o.udp_server_idle_s,
                 "seconds a UDP server waits for its first datagram (0: forever); default: the "
                 "firmware's (st67w6x 5, esp-idf 10, zperf forever)")
      ->check(CLI::NonNegativeNumber);
  declare_fault_options(app, o);
}

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

// A UDP server's receive timeout before its first datagram: ST67W6X's 5 s, ESP-IDF's
// CONFIG_IPERF_DEF_SOCKET_RX_TIMEOUT (10 s); a zperf download waits for sessions forever.
double udp_server_idle_of(const std::string& dialect) {
  return dialect == "esp-idf" ? 10.0 : dialect == "zperf" ? 0.0 : 5.0;
}

std::unique_ptr<hil::mcu_sim::simulated_firmware> firmware_of(const sim_options& o) {
  const auto now = std::chrono::steady_clock::now();
  if (o.dialect == "zperf") return std::make_unique<hil::mcu_sim::zperf_firmware>(o.firmware, now);
  if (o.dialect == "esp-idf") return std::make_unique<hil::mcu_sim::esp_firmware>(o.firmware, now);
  return std::make_unique<hil::mcu_sim::st67_firmware>(o.firmware, now);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("A microcontroller's firmware console on a pseudo-terminal (hilperf-mcu-sim)");
  app.set_version_flag("--version", std::string("hilperf-mcu-sim ") + HIL_VERSION);
  sim_options o;
  declare_options(app, o);
  CLI11_PARSE(app, argc, argv);
  if (!o.error_line.empty()) o.firmware.run.error_line = o.error_line;
  o.firmware.log_every = millis(o.log_every_s);
  o.firmware.run.udp_server_idle =
      millis(o.udp_server_idle_s >= 0 ? o.udp_server_idle_s : udp_server_idle_of(o.dialect));

  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a host gone is no reason to stop; stdout gone neither
  try {
    const hil::mcu_sim::pty_pair pty;
    std::optional<hil::mcu_sim::symlink_guard> link;
    if (!o.link.empty()) link.emplace(pty.slave_path(), o.link);
    std::optional<hil::mcu_sim::pid_file> pid;
    if (!o.pid_path.empty()) pid.emplace(o.pid_path);
    const auto fw = firmware_of(o);
    std::cout << "console " << pty.slave_path() << std::endl;
    hil::mcu_sim::run_console(pty, *fw, o.line, stop_requested);
  } catch (const std::exception& e) {
    std::cerr << "hilperf-mcu-sim: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
