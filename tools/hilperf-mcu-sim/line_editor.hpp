// The shell's line input as the ST67W6X firmware's shell takes it (Utils/Shell/shell.c, as
// docs/console-duts.md describes it), one typed byte at a time:
//
//   printable byte ──▶ echoed, kept in the line (past max_line bytes the line is marked too long)
//   CR or LF ──▶ "\n" echoed; the line runs (dropped without a word when it was too long)
//   BS or DEL ──▶ the last byte taken back, "\b \b" echoed (nothing when the line is empty)
//   ESC [ … final ──▶ a terminal key (arrows, history): swallowed
//   any other byte ──▶ dropped
//
// CR LF therefore runs a line and then an empty one, as the ST67W6X and ESP-IDF consoles do.
// Zephyr's shell (one_line_end) takes the first of CR and LF as the line end and ignores the
// other kind until another byte comes, so CR LF runs one line there. Pure: no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace hil::mcu_sim {

class line_editor {
 public:
  // max_line: the shell's buffer (SHELL_CMD_SIZE, 256 in the U575 application).
  // one_line_end: Zephyr's reading of CR LF (above).
  explicit line_editor(std::size_t max_line = 256, bool one_line_end = false)
      : max_line_(max_line), one_line_end_(one_line_end) {}

  // Takes one typed byte, appending what the shell echoes to echo; the line to run when c ended
  // one (empty for an empty line), nullopt otherwise or when the line was too long.
  std::optional<std::string> feed(char c, std::string& echo);

  // True while a line is being typed (nothing typed since the last line ran).
  [[nodiscard]] bool idle() const noexcept { return line_.empty() && !too_long_ && !escape_; }

  // The line typed so far (what a shell redraws after another task's output).
  [[nodiscard]] const std::string& line() const noexcept { return line_; }

  // Forgets the line being typed (a reset of the board).
  void clear() noexcept;

 private:
  std::size_t max_line_;
  bool one_line_end_;
  char last_end_ = 0;  // one_line_end: the line end kind taken last (0: a byte came since)
  std::string line_;
  bool too_long_ = false;
  int escape_ = 0;  // 0: none; 1: after ESC; 2: inside ESC [ … until its final byte
};

}  // namespace hil::mcu_sim
