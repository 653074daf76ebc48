// Terminal control sequences out of a console's byte stream, fed as it arrives: firmware shells
// colour their prompts (ST67W6X's `ESC[36mw61/>ESC[0m`, Zephyr's shell), redraw lines while
// editing (`ESC[2K\r`, `ESC[nD`) and probe the terminal (ESP-IDF's linenoise). What is left is the
// text a person reads, so a prompt or a result line matches whatever colours the firmware chose.
//
//   text ──ESC──▶ escape ──'['──▶ control (CSI) ──final byte 0x40–0x7E──▶ text
//                    │ ──']'──▶ operating system command ──BEL or ESC '\'──▶ text
//                    └ any other byte: a two-byte sequence (ESC 7, ESC M …) ──▶ text
//
// A sequence split across reads is removed whole: its first bytes are held until it completes.
// One longer than max_sequence bytes is no terminal's (a console that lost bytes): it is dropped
// and the filter returns to text, so a garbled stream never swallows what follows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hil::console {

class ansi_filter {
 public:
  static constexpr std::size_t max_sequence = 64;

  // chunk without its control sequences, and without NUL, BEL and the backspace a shell echoes
  // while editing; bytes of a sequence that does not end in chunk are held for the next call.
  [[nodiscard]] std::string feed(std::string_view chunk);

 private:
  enum class state { text, escape, control, os_command, os_command_escape };
  state state_ = state::text;
  std::size_t held_ = 0;  // bytes of the current sequence so far
};

}  // namespace hil::console
