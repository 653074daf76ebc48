// A console's byte stream: a serial device (a USB-serial bridge, a board's virtual COM port, a
// pseudo-terminal), set raw at 8N1 and a baud rate; a raw TCP console (ser2net's `tcp` accepter,
// the baud rate fixed in ser2net's configuration); or an RFC 2217 console (ser2net's
// `telnet(rfc2217)` accepter), whose server is asked for the baud rate, 8N1 and the flow control.
// The first two are a file descriptor read and written against a deadline with poll(2); the
// third is libgensio's telnet client behind detail/rfc2217.hpp, with the same deadlines. Every
// wait is bounded.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "hil/sys/unique_fd.hpp"

namespace hil::console {

namespace detail {
class rfc2217_link;
}

struct port_spec {
  // A device path ("/dev/ttyACM0", a pty's "/dev/pts/3"), "tcp://host:port" or
  // "rfc2217://host:port".
  std::string where;
  int baud = 115200;    // a serial device's, or asked of an RFC 2217 server; tcp:// ignores it
  bool rtscts = false;  // hardware flow control on a serial device or an RFC 2217 server's
};

class port {
 public:
  using clock = std::chrono::steady_clock;

  // Opens spec.where by deadline. Throws std::invalid_argument for a baud rate termios has no
  // constant for or a TCP address without a port, std::system_error naming the device or address
  // and the likely cause otherwise (a device missing, in use, not a tty, no permission; nothing
  // listening at an address, not an RFC 2217 server, a baud rate the server refused).
  port(const port_spec& spec, clock::time_point deadline);
  ~port();
  port(port&&) noexcept;
  port& operator=(port&&) noexcept;

  // What arrived, at most max bytes, waiting until deadline for the first; empty when nothing
  // came by then. Throws std::system_error when the port failed or closed (a TCP console that
  // hung up, a USB bridge unplugged), naming it.
  [[nodiscard]] std::string read_some(clock::time_point deadline, std::size_t max = 4096);

  // Writes all of bytes by deadline; throws std::system_error naming the port when it cannot
  // (closed, or still not writable at the deadline: a serial line stopped by flow control).
  void write(std::string_view bytes, clock::time_point deadline);

  // "/dev/ttyACM0 at 921600 baud", "tcp://127.0.0.1:3001" or "rfc2217://127.0.0.1:3001 at
  // 921600 baud" (the rate the server set), for messages.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

 private:
  sys::unique_fd fd_;
  std::string name_;
  bool socket_ = false;                            // a TCP console: a read of 0 bytes is its end
  std::unique_ptr<detail::rfc2217_link> rfc2217_;  // an RFC 2217 console (then no fd_)
};

}  // namespace hil::console
