#include "hil/console/ansi_filter.hpp"

namespace hil::console {
namespace {

constexpr char esc = '\x1b';
constexpr char bel = '\x07';

// The bytes a console prints that are no text: a terminal acts on them, a reader never sees them.
bool dropped(char c) { return c == '\0' || c == bel || c == '\b'; }

}  // namespace

std::string ansi_filter::feed(std::string_view chunk) {
  std::string out;
  out.reserve(chunk.size());
  for (const char c : chunk) {
    if (state_ != state::text && ++held_ > max_sequence) state_ = state::text;
    switch (state_) {
      case state::text:
        if (c == esc) {
          state_ = state::escape;
          held_ = 1;
        } else if (!dropped(c)) {
          out.push_back(c);
        }
        break;
      case state::escape:
        state_ = c == '[' ? state::control : c == ']' ? state::os_command : state::text;
        break;
      case state::control:
        if (c >= 0x40 && c <= 0x7e) state_ = state::text;  // the final byte
        break;
      case state::os_command:
        if (c == bel) state_ = state::text;
        if (c == esc) state_ = state::os_command_escape;
        break;
      case state::os_command_escape:
        state_ = c == '\\' ? state::text : state::os_command;
        break;
    }
  }
  return out;
}

}  // namespace hil::console
