// The ST67W6X CLI firmware as its console shows it: a shell that echoes and runs lines
// (line_editor.hpp), the `iperf` command (iperf_args.hpp) whose runs go on in the background
// (iperf_run.hpp) while the prompt is back at once, one run at a time, the `ping` command
// (ping_run.hpp) that holds the shell until it ends, a reset command that reboots the console,
// and log lines of other tasks in between. Bytes in, bytes out: the port and
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

#include "firmware.hpp"
#include "iperf_run.hpp"
#include "line_editor.hpp"
#include "ping_run.hpp"
#include "shell_plumbing.hpp"

namespace hil::mcu_sim {

class st67_firmware final : public simulated_firmware {
 public:
  // s.reset_command empty: "reset".
  st67_firmware(firmware_settings s, clock::time_point now);

  [[nodiscard]] std::string boot(clock::time_point now) override;
  [[nodiscard]] std::string typed(char c, clock::time_point now) override;
  [[nodiscard]] std::string tick(clock::time_point now) override;

 private:
  std::string run_line(const std::string& line, clock::time_point now);
  std::string run_iperf(const std::string& arguments, clock::time_point now);
  // The ping's refusal and the prompt, or nothing while it runs (the shell held).
  std::string run_ping(const std::string& arguments, clock::time_point now);
  // The ping's lines by now; its end gives the prompt back and the held input.
  std::string poll_ping(clock::time_point now);
  std::string other_tasks(clock::time_point now);
  std::uint64_t tick_ms(clock::time_point now) const;

  firmware_settings settings_;
  clock::time_point boot_;
  line_editor editor_;
  clock::time_point last_typed_;
  std::unique_ptr<iperf_run> run_;
  run_plumbing plumbing_;           // the runs started, the other tasks' lines
  std::unique_ptr<ping_run> ping_;  // while it runs, the shell holds what is typed
  std::string held_;
};

}  // namespace hil::mcu_sim
