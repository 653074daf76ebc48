#include "console_loop.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>

#include "hil/sys/error.hpp"
#include "line_faults.hpp"

namespace hil::mcu_sim {
namespace {

constexpr int poll_ms = 20;
// How long a write waits for room: a board's UART does not wait for a host that is not reading.
constexpr int write_wait_ms = 50;

// Writes bytes to the master; what finds no room within write_wait_ms is lost, as on a line
// nobody reads.
void send(int master, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(master, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) sys::throw_last_errno("write to the pty master");
    pollfd p{master, POLLOUT, 0};
    if (::poll(&p, 1, write_wait_ms) <= 0) return;
  }
}

}  // namespace

void run_console(const pty_pair& pty, simulated_firmware& fw, const line_settings& line,
                 const volatile std::sig_atomic_t& stop) {
  using clock = std::chrono::steady_clock;
  byte_dropper dropper(line.drop_every, line.drop_limit);
  const auto out = [&](const std::string& bytes) {
    if (bytes.empty() || line.mute) return;
    send(pty.master(), line.garble ? garbled(bytes) : bytes);
  };
  if (!line.mute) out(fw.boot(clock::now()));
  std::array<char, 4096> buf{};
  while (stop == 0) {
    pollfd p{pty.master(), POLLIN, 0};
    const int ready = ::poll(&p, 1, poll_ms);
    if (ready < 0 && errno != EINTR) sys::throw_last_errno("poll on the pty master");
    std::string answer;
    if (ready > 0 && (p.revents & POLLIN) != 0) {
      const ssize_t n = ::read(pty.master(), buf.data(), buf.size());
      if (n < 0 && errno != EAGAIN && errno != EINTR && errno != EIO) {
        sys::throw_last_errno("read from the pty master");
      }
      for (ssize_t i = 0; i < n && !line.mute; ++i) {  // a dead board takes nothing either
        if (dropper.drop()) continue;
        answer += fw.typed(buf[static_cast<std::size_t>(i)], clock::now());
      }
    }
    if (!line.mute) answer += fw.tick(clock::now());
    out(answer);
  }
}

}  // namespace hil::mcu_sim
