// What the simulated firmwares' shells share (st67_*, zperf_*, esp_*): how long a line being typed
// holds their other output back, when a run's line of another task comes, their output's line
// ends, a typed line's words, the uptime their log lines carry, and the settings each run they
// start is played with. Pure.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "firmware.hpp"

namespace hil::mcu_sim {

// A line being typed holds the firmware's other output back (so an echo is not split), but not
// for longer than this: a host that stopped typing mid-line sees the rest.
inline constexpr std::chrono::milliseconds typing_hold{1000};

// When a run's error line of another task comes (firmware_settings::log_error), after its start.
inline constexpr std::chrono::milliseconds error_log_delay{1500};

// text with each LF sent as CR LF (the UART driver's or shell's output conversion).
[[nodiscard]] std::string crlf(const std::string& text);

// The words of a typed line, split at white space.
[[nodiscard]] std::vector<std::string> words_of(const std::string& line);

// Milliseconds from boot to now, as a firmware's log lines stamp them.
[[nodiscard]] std::uint64_t uptime_ms(std::chrono::steady_clock::time_point boot,
                                      std::chrono::steady_clock::time_point now);

// The runs a firmware starts and the lines of its other tasks while one goes on: the error line a
// run is played with (only the first s.error_runs runs get it), a status line every s.log_every,
// and with s.log_error one error line error_log_delay after each run's start.
class run_plumbing {
 public:
  using clock = std::chrono::steady_clock;

  // The settings of the next run, counted as started at now.
  [[nodiscard]] run_settings start(const firmware_settings& s, clock::time_point now);
  // True (and the next one due log_every later) when the status line is due by now.
  [[nodiscard]] bool status_due(const firmware_settings& s, clock::time_point now);
  // True once per run when its error line of another task is due by now.
  [[nodiscard]] bool error_due(const firmware_settings& s, clock::time_point now);

 private:
  int runs_started_ = 0;
  clock::time_point run_start_;
  clock::time_point next_log_;
  bool error_logged_ = false;
};

}  // namespace hil::mcu_sim
