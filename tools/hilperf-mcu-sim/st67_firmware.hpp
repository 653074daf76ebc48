// The ST67W6X CLI firmware as its console shows it: a shell that echoes and runs lines
// (line_editor.hpp), the `iperf` command (iperf_args.hpp) whose runs go on in the background
// (iperf_run.hpp) while the prompt is back at once, one run at a time, a reset command that
// reboots the console, and log lines of other tasks in between. Bytes in, bytes out: the port and
// the clock belong to the caller (console_loop.hpp), so this class does no I/O of its own beyond
// the runs' child processes.
//
//   typed(byte) ──▶ echo; on a line: its output, then the prompt
//   tick(now)   ──▶ what the runs and the other tasks print by now (held while a line is typed)
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "iperf_run.hpp"
#include "line_editor.hpp"

namespace hil::mcu_sim {

struct firmware_settings {
  run_settings run;    // how runs are played and how they misbehave
  int error_runs = 1;  // runs that print run.error_line (0: every run)
  std::string reset_command = "reset";
  // A line of another task every this often while a run goes on (0: none).
  std::chrono::milliseconds log_every{2000};
  bool log_error = false;  // each run also gets one [ERROR] line of another task
};

class st67_firmware {
 public:
  using clock = std::chrono::steady_clock;

  st67_firmware(firmware_settings s, clock::time_point now);

  // The boot banner and the first prompt (also what the reset command prints).
  [[nodiscard]] std::string boot(clock::time_point now);
  // One byte typed: what the firmware prints in answer.
  [[nodiscard]] std::string typed(char c, clock::time_point now);
  // What the firmware prints by now unprompted.
  [[nodiscard]] std::string tick(clock::time_point now);

 private:
  std::string run_line(const std::string& line, clock::time_point now);
  std::string run_iperf(const std::string& arguments, clock::time_point now);
  std::string other_tasks(clock::time_point now);
  std::uint64_t tick_ms(clock::time_point now) const;

  firmware_settings settings_;
  clock::time_point boot_;
  line_editor editor_;
  clock::time_point last_typed_;
  std::unique_ptr<iperf_run> run_;
  clock::time_point run_start_;
  clock::time_point next_log_;
  bool error_logged_ = false;
  int runs_started_ = 0;
};

}  // namespace hil::mcu_sim
