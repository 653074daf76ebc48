#include "hil/console/terminal.hpp"

#include <fmt/format.h>

#include <thread>
#include <utility>
#include <vector>

namespace hil::console {
namespace {

// Writes at most this long; a console that takes no input for so long is stuck.
constexpr std::chrono::seconds write_timeout{5};

std::string described(std::span<const pattern> any) {
  std::string out;
  for (const auto& p : any) out += (out.empty() ? "" : " or ") + p.describe();
  return out;
}

}  // namespace

terminal::terminal(port& p, terminal_options options, transcript& log)
    : port_(p), options_(std::move(options)), log_(log) {}

expect_match terminal::expect(std::span<const pattern> any, std::chrono::milliseconds timeout) {
  const auto deadline = port::clock::now() + timeout;
  for (;;) {
    if (auto m = buffer_.take(any)) return std::move(*m);
    const std::string bytes = port_.read_some(deadline);
    if (bytes.empty()) {
      const std::string last = buffer_.last_line();
      log_.note(fmt::format("no {} within {} ms", described(any), timeout.count()));
      throw console_timeout(fmt::format(
          "the console {} did not print {} within {:.1f} s; its last line: {}", port_.name(),
          described(any), std::chrono::duration<double>(timeout).count(),
          last.empty() ? "(nothing at all: wrong port or baud rate?)" : "\"" + last + "\""));
    }
    log_.received(bytes);
    buffer_.feed(bytes);
  }
}

void terminal::write(std::string_view bytes) {
  log_.sent(bytes);
  if (options_.char_delay.count() == 0) {
    port_.write(bytes, port::clock::now() + write_timeout);
    return;
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i > 0) std::this_thread::sleep_for(options_.char_delay);
    port_.write(bytes.substr(i, 1), port::clock::now() + write_timeout);
  }
}

bool terminal::echoed(std::string_view text) {
  const std::vector<pattern> echo{pattern::literal(std::string(text))};
  try {
    (void)expect(echo, options_.echo_timeout);
    return true;
  } catch (const console_timeout&) {
    return false;
  }
}

void terminal::type(std::string_view line) {
  if (!options_.echo || line.empty()) {
    write(std::string(line) + options_.line_ending);
    return;
  }
  write(line);
  if (!echoed(line)) {
    // Erase what the firmware took of it, then type it once more.
    const std::string garbled(buffer_.unread());
    log_.note(fmt::format("the echo of \"{}\" did not come; erasing and typing it again", line));
    write(std::string(line.size() + 2, '\b'));
    buffer_.read_all();
    write(line);
    if (!echoed(line)) {
      throw std::runtime_error(fmt::format(
          "the console {} garbled a command twice: typed \"{}\", it echoed \"{}\" (bytes lost: a "
          "baud rate the bridge does not keep, or a firmware that needs a character delay)",
          port_.name(), line, escaped(garbled)));
    }
  }
  write(options_.line_ending);
}

}  // namespace hil::console
