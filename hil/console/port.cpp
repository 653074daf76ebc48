#include "hil/console/port.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>
#include <stdexcept>
#include <utility>

#include "hil/console/detail/rfc2217.hpp"
#include "hil/sys/error.hpp"

namespace hil::console {
namespace {

constexpr std::string_view tcp_scheme = "tcp://";
constexpr std::string_view rfc2217_scheme = "rfc2217://";

struct baud_constant {
  int baud;
  speed_t constant;
};
constexpr std::array<baud_constant, 17> bauds{{{1200, B1200},
                                               {2400, B2400},
                                               {4800, B4800},
                                               {9600, B9600},
                                               {19200, B19200},
                                               {38400, B38400},
                                               {57600, B57600},
                                               {115200, B115200},
                                               {230400, B230400},
                                               {460800, B460800},
                                               {500000, B500000},
                                               {576000, B576000},
                                               {921600, B921600},
                                               {1000000, B1000000},
                                               {1500000, B1500000},
                                               {2000000, B2000000},
                                               {3000000, B3000000}}};

speed_t speed_of(int baud) {
  const auto it = std::ranges::find(bauds, baud, &baud_constant::baud);
  if (it == bauds.end()) {
    throw std::invalid_argument(fmt::format(
        "a console at {} baud: not a rate a serial port can be set to (921600, 115200, …)", baud));
  }
  return it->constant;
}

// Milliseconds from now to deadline for poll(2): 0 when it passed.
int poll_timeout(port::clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - port::clock::now());
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0, 1 << 30));
}

// Waits for events on fd until deadline: the revents, 0 at the deadline.
short wait_for(int fd, short events, port::clock::time_point deadline, const std::string& name) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int n = ::poll(&p, 1, poll_timeout(deadline));
    if (n > 0) return p.revents;
    if (n == 0) return 0;
    if (errno != EINTR) sys::throw_last_errno("waiting on the console " + name);
  }
}

sys::unique_fd open_serial(const port_spec& spec, const std::string& name) {
  const speed_t speed = speed_of(spec.baud);
  sys::unique_fd fd(::open(spec.where.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd) {
    const int err = errno;
    sys::throw_errno(err, fmt::format("opening the console {} ({})", name,
                                      err == ENOENT   ? "no such device: is the board plugged in?"
                                      : err == EACCES ? "no permission: the dialout group?"
                                      : err == EBUSY  ? "in use by another program"
                                                      : "check the [console] port"));
  }
  termios t{};
  if (::tcgetattr(fd.get(), &t) != 0) {
    sys::throw_last_errno(fmt::format("the console {} is not a serial device", name));
  }
  ::cfmakeraw(&t);  // 8 data bits, no parity, no echo, no line editing, no CR/LF translation
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~static_cast<tcflag_t>(CSTOPB);  // one stop bit
  if (spec.rtscts) {
    t.c_cflag |= CRTSCTS;
  } else {
    t.c_cflag &= ~static_cast<tcflag_t>(CRTSCTS);
  }
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  if (::cfsetispeed(&t, speed) != 0 || ::cfsetospeed(&t, speed) != 0 ||
      ::tcsetattr(fd.get(), TCSANOW, &t) != 0) {
    sys::throw_last_errno(fmt::format("setting the console {} to 8N1", name));
  }
  ::tcflush(fd.get(), TCIFLUSH);  // what the device buffered before we came is not this run's
  return fd;
}

sys::unique_fd open_tcp(std::string_view address, port::clock::time_point deadline,
                        const std::string& name) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == address.size()) {
    throw std::invalid_argument(fmt::format("the console {}: no port after the host", name));
  }
  std::string host(address.substr(0, colon));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string service(address.substr(colon + 1));
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    throw std::system_error(std::make_error_code(std::errc::host_unreachable),
                            fmt::format("the console {}: {}", name, ::gai_strerror(rc)));
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, &::freeaddrinfo);
  int last = ECONNREFUSED;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    sys::unique_fd fd(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) continue;
    if (::connect(fd.get(), a->ai_addr, a->ai_addrlen) == 0) return fd;
    if (errno != EINPROGRESS) {
      last = errno;
      continue;
    }
    if (wait_for(fd.get(), POLLOUT, deadline, name) == 0) {
      last = ETIMEDOUT;
      continue;
    }
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err == 0) return fd;
    last = err;
  }
  sys::throw_errno(last,
                   fmt::format("connecting to the console {} (is ser2net listening there?)", name));
}

}  // namespace

port::port(const port_spec& spec, clock::time_point deadline) {
  if (spec.where.starts_with(rfc2217_scheme)) {
    rfc2217_ = std::make_unique<detail::rfc2217_link>(
        std::string_view(spec.where).substr(rfc2217_scheme.size()),
        detail::rfc2217_settings{spec.baud, spec.rtscts}, deadline, spec.where);
    name_ = fmt::format("{} at {} baud", spec.where, rfc2217_->baud());
  } else if (spec.where.starts_with(tcp_scheme)) {
    name_ = spec.where;
    socket_ = true;
    fd_ = open_tcp(std::string_view(spec.where).substr(tcp_scheme.size()), deadline, name_);
  } else {
    name_ = fmt::format("{} at {} baud", spec.where, spec.baud);
    fd_ = open_serial(spec, name_);
  }
}

port::~port() = default;
port::port(port&&) noexcept = default;
port& port::operator=(port&&) noexcept = default;

std::string port::read_some(clock::time_point deadline, std::size_t max) {
  if (rfc2217_) return rfc2217_->read_some(deadline, max);
  std::string out(max, '\0');
  for (;;) {
    const ssize_t n = ::read(fd_.get(), out.data(), out.size());
    if (n > 0) {
      out.resize(static_cast<std::size_t>(n));
      return out;
    }
    if (n == 0 && socket_) {
      throw std::system_error(std::make_error_code(std::errc::connection_reset),
                              "the console " + name_ + " closed the connection");
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      sys::throw_last_errno("reading the console " + name_);
    }
    // Nothing yet (a tty in raw mode reads 0 bytes, a socket EAGAIN): wait for more.
    const short ev = wait_for(fd_.get(), POLLIN, deadline, name_);
    if (ev == 0) return {};
    if ((ev & (POLLERR | POLLNVAL)) != 0 || ((ev & POLLHUP) != 0 && (ev & POLLIN) == 0)) {
      throw std::system_error(std::make_error_code(std::errc::io_error),
                              "the console " + name_ + " hung up");
    }
  }
}

void port::write(std::string_view bytes, clock::time_point deadline) {
  if (rfc2217_) {
    rfc2217_->write(bytes, deadline);
    return;
  }
  while (!bytes.empty()) {
    const ssize_t n = socket_ ? ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL)
                              : ::write(fd_.get(), bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      sys::throw_last_errno("writing to the console " + name_);
    }
    if (wait_for(fd_.get(), POLLOUT, deadline, name_) == 0) {
      throw std::system_error(std::make_error_code(std::errc::timed_out),
                              "the console " + name_ + " took no more input (flow control?)");
    }
  }
}

}  // namespace hil::console
