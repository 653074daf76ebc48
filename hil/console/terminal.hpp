// What a case does at a DUT's console: wait for what the firmware prints, type a command, and
// keep the console log. One terminal per port; every wait has a deadline.
//
//   type("iperf -s -u -t 10"):
//     write the text ──▶ its echo within echo_timeout? ── yes ──▶ write the line ending
//                              │ no (a byte dropped: a busy MCU, a bridge at its limit)
//                              ▼
//     erase what was echoed (one backspace per byte), write the text once more ── echoed? ──▶ …
//                                                                   │ no
//                                                                   ▼
//     throw: "typed …, the console echoed …": never a garbled command run silently
//
// The text is echoed before the line ending is sent, so a garbled command is never run. A
// firmware without echo (echo false) gets the line at once.
#pragma once

#include <chrono>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hil/console/expect_buffer.hpp"
#include "hil/console/pattern.hpp"
#include "hil/console/port.hpp"
#include "hil/console/transcript.hpp"

namespace hil::console {

struct terminal_options {
  std::string line_ending = "\n";
  bool echo = true;  // the firmware echoes what is typed
  std::chrono::milliseconds echo_timeout{2000};
  // Between typed bytes: a firmware that takes one byte per interrupt loses bytes written back to
  // back at a high baud rate. 0: the whole line in one write.
  std::chrono::milliseconds char_delay{0};
};

// A wait that ended without its pattern: what was awaited, on which port, and the console's last
// line, in what().
class console_timeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class terminal {
 public:
  // Reads and writes p (which must outlive the terminal), logging both ways to log.
  terminal(port& p, terminal_options options, transcript& log);

  // The earliest match of any of patterns within timeout, the text through it read. Throws
  // console_timeout naming the patterns, the port and the last line; std::system_error when the
  // port fails.
  expect_match expect(std::span<const pattern> any, std::chrono::milliseconds timeout);

  // Types line (without its line ending, added here), checked by its echo as drawn above; an empty
  // line is the line ending alone (what wakes a shell). Throws std::runtime_error when the echo is
  // wrong twice, std::system_error when the port fails.
  void type(std::string_view line);

  // A line of hilperf's own in the console log: what it did there and why.
  void note(std::string_view text) { log_.note(text); }

  // Everything received so far is read (a fresh start after an abort).
  void read_all() { buffer_.read_all(); }

  [[nodiscard]] const expect_buffer& buffer() const noexcept { return buffer_; }
  [[nodiscard]] const port& where() const noexcept { return port_; }

 private:
  void write(std::string_view bytes);
  // Waits echo_timeout for text's echo; true when it came, the text through it read.
  bool echoed(std::string_view text);

  port& port_;
  terminal_options options_;
  transcript& log_;
  expect_buffer buffer_;
};

}  // namespace hil::console
