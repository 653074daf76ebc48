// A console's byte stream: a serial device (a USB-serial bridge, a board's virtual COM port, a
// pseudo-terminal), set raw at 8N1 and a baud rate, or a raw TCP console (ser2net's `tcp`
// accepter, the baud rate fixed in ser2net's configuration). Both are a file descriptor read and
// written against a deadline with poll(2), so every wait is bounded and one code path serves
// them. RFC 2217 (a client that sets the baud rate over TCP) is not among them yet.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "hil/sys/unique_fd.hpp"

namespace hil::console {

struct port_spec {
  // A device path ("/dev/ttyACM0", a pty's "/dev/pts/3") or "tcp://host:port".
  std::string where;
  int baud = 115200;    // a serial device's; a TCP console ignores it
  bool rtscts = false;  // hardware flow control on a serial device
};

class port {
 public:
  using clock = std::chrono::steady_clock;

  // Opens spec.where by deadline. Throws std::invalid_argument for a baud rate termios has no
  // constant for or a TCP address without a port, std::system_error naming the device or address
  // (and, for a device, the likely cause: missing, in use, not a tty, no permission) otherwise.
  port(const port_spec& spec, clock::time_point deadline);

  // What arrived, at most max bytes, waiting until deadline for the first; empty when nothing
  // came by then. Throws std::system_error when the port failed or closed (a TCP console that
  // hung up, a USB bridge unplugged), naming it.
  [[nodiscard]] std::string read_some(clock::time_point deadline, std::size_t max = 4096);

  // Writes all of bytes by deadline; throws std::system_error naming the port when it cannot
  // (closed, or still not writable at the deadline: a serial line stopped by flow control).
  void write(std::string_view bytes, clock::time_point deadline);

  // "/dev/ttyACM0 at 921600 baud" or "tcp://127.0.0.1:3001", for messages.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

 private:
  sys::unique_fd fd_;
  std::string name_;
  bool socket_ = false;  // a TCP console: a read of 0 bytes is its end
};

}  // namespace hil::console
