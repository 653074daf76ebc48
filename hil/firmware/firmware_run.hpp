// One firmware iperf run at a DUT's console, from the prompt back to the prompt, with nothing
// left running on the DUT whatever happens:
//
//   wake ── line ending typed, prompt awaited ── none: console_unreachable (what came, if anything)
//   start ─ command typed (checked by its echo), the dialect's ready marker awaited when it has one
//   finish ─ end markers awaited until the run's length + end slack ──▶ the firmware's report
//              │ none by then
//              ▼
//            abort typed, end marker + prompt ── none ──▶ reset command typed, prompt awaited
//              │                                          │
//              └──────── run_stuck: what was done, the console's last line ◀─┘
//
// The destructor of a run started and not finished aborts it the same way (best effort, bounded),
// so a case that fails in between leaves the firmware free for the next.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hil/console/terminal.hpp"
#include "hil/firmware/dialect.hpp"

namespace hil::firmware {

struct run_limits {
  std::chrono::milliseconds prompt_timeout{5000};  // each wait for the prompt
  std::chrono::milliseconds end_slack{15000};      // beyond the run's duration, for its end
  std::string reset_command;                       // typed when the abort does not bring the prompt
  // The shell's prompt when the profile names one; nullopt: the dialect's.
  std::optional<console::pattern> prompt;
};

// The console gave no prompt: nothing at all came (a wrong port, a board off or still booting), or
// text without the prompt (a wrong baud rate reads as garbage; another firmware). what() names the
// port, the prompt awaited and what came, quoted and escaped.
class console_unreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that did not end: what() names the end markers awaited, how long, what was done (abort,
// reset) and the console's last line.
class run_stuck : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Types the line ending and waits for the prompt (prompt when given, else limits.prompt, else
// d's) within limits.prompt_timeout, so a console in any state (a half-typed line, a boot banner)
// is at a fresh prompt; what was received before is read. Throws console_unreachable.
void wake(console::terminal& t, const dialect& d, const run_limits& limits,
          const std::optional<console::pattern>& prompt = std::nullopt);

// Types each command and waits for its reply (a literal; an empty or missing one: none) within
// timeout, then the prompt within limits.prompt_timeout. Throws std::invalid_argument for more
// replies than commands, std::runtime_error naming the command, what was awaited and what came
// instead.
void set_up(console::terminal& t, const dialect& d, const std::vector<std::string>& commands,
            const std::vector<std::string>& replies, std::chrono::milliseconds timeout,
            const run_limits& limits);

class firmware_run {
 public:
  // Types request's command at a console that shows its prompt (after wake) and returns once the
  // run is under way: the dialect's ready marker seen when it has one for the request (a server
  // listening), else as soon as the command was typed. Throws std::invalid_argument for a request
  // the dialect cannot express, std::runtime_error for a garbled echo (console::terminal) and
  // run_stuck when the ready marker does not come (after aborting).
  firmware_run(console::terminal& t, const dialect& d, iperf_request request, run_limits limits);
  ~firmware_run();
  firmware_run(const firmware_run&) = delete;
  firmware_run& operator=(const firmware_run&) = delete;

  // Waits for the run's end (any end marker) until duration + end_slack after the start (the ready
  // marker when there is one), then for the prompt when the firmware prints one after the end (it
  // did not give it back before: a command that blocks its shell); the report parsed from the run's
  // text (errors quoted in it). On no end: aborts as drawn above and throws run_stuck.
  firmware_report finish();

  // The console text of this run from the typed command on, as the dialect's parser saw it.
  [[nodiscard]] const std::string& text() const noexcept { return text_; }

  // The prompt this run waits for: the limits' when given, else the dialect's.
  [[nodiscard]] const console::pattern& prompt() const noexcept;

 private:
  // Aborts as drawn above (typing the abort, then the reset command) and throws run_stuck
  // beginning with why.
  [[noreturn]] void abort_run(std::string_view why);
  // After the end marker: the prompt, when the firmware did not give it back before (a command
  // that blocks the shell until its run ends); never throws for its absence, only notes it.
  void prompt_after_end();

  console::terminal& terminal_;
  const dialect& dialect_;
  iperf_request request_;
  run_limits limits_;
  std::chrono::steady_clock::time_point started_;
  std::string text_;
  std::size_t command_size_ = 0;  // text_ begins with the typed command
  bool open_ = false;             // started and neither finished nor aborted
  bool ended_ = false;            // an end marker came while the ready marker was awaited
};

}  // namespace hil::firmware
