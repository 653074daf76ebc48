// A firmware's ping at its console (ping.hpp draws it). The ST67W6X's ping blocks its shell until
// it ends, but its reply and summary lines go through the firmware's log queue, so the prompt may
// come before them or after: the end marker is awaited first, then the prompt only when it is not
// already in the ping's text after the command.
#include <fmt/format.h>

#include <array>

#include "hil/firmware/ping.hpp"

namespace hil::firmware {

ping_report run_ping(console::terminal& t, const dialect& d, const ping_dialect& p,
                     const ping_request& request, const run_limits& limits) {
  const std::string command = p.command(request);
  const console::pattern& prompt = limits.prompt ? *limits.prompt : d.prompt;
  t.note(fmt::format("ping: {} requests to {}", request.count, request.peer_address));
  t.type(command);
  const auto markers = p.end_markers(request);
  const auto wait = p.longest(request) + limits.prompt_timeout;
  std::string text = command + "\n";
  try {
    const auto m = t.expect(markers, wait);
    text += m.before + m.matched;
  } catch (const console::console_timeout&) {
    const std::string last = t.buffer().last_line();
    if (!limits.reset_command.empty()) {
      t.note("no end of the ping: the reset command");
      t.type(limits.reset_command);
      try {
        (void)t.expect(std::array{prompt}, limits.prompt_timeout);
      } catch (const console::console_timeout&) {
        t.note("no prompt after the reset command");
      }
    }
    throw run_stuck(fmt::format(
        "the firmware's ping to {} did not end within {:.1f} s (awaited one of {} end markers{}); "
        "the console's last line: \"{}\"",
        request.peer_address, std::chrono::duration<double>(wait).count(), markers.size(),
        limits.reset_command.empty() ? "" : "; the reset command was typed", last));
  }
  if (!prompt.find(text.substr(command.size()))) {
    try {
      const auto m = t.expect(std::array{prompt}, limits.prompt_timeout);
      text += m.before;
    } catch (const console::console_timeout&) {
      t.note("no prompt after the ping's end");
    }
  }
  return p.parse(text);
}

}  // namespace hil::firmware
