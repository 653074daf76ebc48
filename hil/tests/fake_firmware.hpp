// A firmware's console played on the master side of a pseudo-terminal, for the console tests:
// the case's side opens the pty's slave as its serial device, as it would a USB-serial bridge.
// The fake echoes what is typed (unless told not to: a muted console, a wrong baud rate), loses
// the typed bytes it is told to drop (their positions counted over everything typed), erases on a
// backspace, and at LF records the line and answers it with the chunks its answers give, each
// after its pause, so that reads split anywhere.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hil/sys/unique_fd.hpp"

namespace hil::test {

// What the firmware says to a line: chunks, each after its pause.
struct chunk {
  std::chrono::milliseconds pause{0};
  std::string text;
};
using answers = std::function<std::vector<chunk>(const std::string& line)>;

struct fake_console_options {
  bool echo = true;               // the firmware echoes what is typed
  std::vector<std::size_t> drop;  // typed bytes lost on the way in, by position
};

class fake_firmware {
 public:
  explicit fake_firmware(answers a, fake_console_options o = {})
      : answers_(std::move(a)), options_(std::move(o)) {
    master_ = sys::unique_fd(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
    if (!master_ || ::grantpt(master_.get()) != 0 || ::unlockpt(master_.get()) != 0) {
      throw std::runtime_error("no pseudo-terminal");
    }
    slave_ = ::ptsname(master_.get());
    // The slave stays open here too, so the master never reads a hang-up between opens.
    keep_ = sys::unique_fd(::open(slave_.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
    termios t{};  // raw from the start: a cooked pty would echo the firmware's own output back
    if (!keep_ || ::tcgetattr(keep_.get(), &t) != 0) throw std::runtime_error("no pty slave");
    ::cfmakeraw(&t);
    ::tcsetattr(keep_.get(), TCSANOW, &t);
    worker_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
  }

  [[nodiscard]] const std::string& slave() const { return slave_; }
  void say(const std::string& text) {
    [[maybe_unused]] const auto n = ::write(master_.get(), text.data(), text.size());
  }
  // The lines run so far, in order.
  [[nodiscard]] std::vector<std::string> ran() {
    std::lock_guard lock(mutex_);
    return ran_;
  }

 private:
  void run(const std::stop_token& stop) {
    std::string line;
    std::size_t typed = 0;  // bytes typed so far, dropped ones included
    while (!stop.stop_requested()) {
      pollfd p{master_.get(), POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char c = 0;
      if (::read(master_.get(), &c, 1) != 1) continue;
      if (std::ranges::find(options_.drop, typed++) != options_.drop.end()) continue;
      if (c == '\b') {
        if (!line.empty()) {
          line.pop_back();
          if (options_.echo) say("\b \b");
        }
        continue;
      }
      if (c != '\n') {
        line.push_back(c);
        if (options_.echo) say(std::string(1, c));
        continue;
      }
      if (options_.echo) say("\n");
      {
        std::lock_guard lock(mutex_);
        ran_.push_back(line);
      }
      for (const auto& [pause, text] : answers_(line)) {
        std::this_thread::sleep_for(pause);
        say(text);
      }
      line.clear();
    }
  }

  answers answers_;
  fake_console_options options_;
  sys::unique_fd master_;
  sys::unique_fd keep_;
  std::string slave_;
  std::mutex mutex_;
  std::vector<std::string> ran_;
  std::jthread worker_;  // last: stopped and joined before the rest goes
};

}  // namespace hil::test
