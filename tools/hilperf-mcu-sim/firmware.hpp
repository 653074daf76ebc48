// What every simulated firmware is to the console loop (console_loop.hpp), and the settings all
// of them share: bytes in, bytes out, a clock given by the caller. Each firmware's shell, text and
// runs live in their own files (st67_*, zperf_*, esp_*); the faults that belong to the line (a
// mute or garbled console, lost bytes) are the loop's, the faults of a run (an error line, a run
// that never ends, a slow sender) are played by each firmware as its own console would show them.
//
//   typed(byte) ──▶ echo; on a line: its output, then the prompt (or nothing while it blocks)
//   tick(now)   ──▶ what the firmware prints by now unprompted
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace hil::mcu_sim {

// How runs are played and how they misbehave (all faults off by default).
struct run_settings {
  std::string iperf_program = "iperf";    // stock iPerf 2
  double rate_factor = 1.0;               // a UDP client sends at rate_factor × the asked rate
  std::optional<std::string> error_line;  // the run fails with this traffic-task line
  bool never_end = false;                 // no report, no end marker, the abort ignored
  // A UDP server that hears nothing this long gives up (the firmware's receive timeout; 0:
  // never). The dialect's own when not given on the command line.
  std::chrono::milliseconds udp_server_idle{5000};
  // A client's iPerf 2 still running this long after its time is stopped.
  std::chrono::milliseconds client_grace{30'000};
};

struct firmware_settings {
  run_settings run;                   // how runs are played and how they misbehave
  std::string ping_program = "ping";  // the system's ping (iputils) that sends a ping's requests
  int error_runs = 1;                 // runs that print run.error_line (0: every run)
  std::string reset_command;          // the command that reboots the console
  // A line of another task every this often while a run goes on (0: none).
  std::chrono::milliseconds log_every{2000};
  bool log_error = false;  // each run also gets one error line of another task
  std::string prompt;      // ESP-IDF: the console's prompt name (an application's own)
};

class simulated_firmware {
 public:
  using clock = std::chrono::steady_clock;

  virtual ~simulated_firmware() = default;
  // The boot banner and the first prompt (also what the reset command prints).
  [[nodiscard]] virtual std::string boot(clock::time_point now) = 0;
  // One byte typed: what the firmware prints in answer.
  [[nodiscard]] virtual std::string typed(char c, clock::time_point now) = 0;
  // What the firmware prints by now unprompted.
  [[nodiscard]] virtual std::string tick(clock::time_point now) = 0;
};

}  // namespace hil::mcu_sim
