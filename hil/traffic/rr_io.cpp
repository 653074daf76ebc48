#include "hil/traffic/rr_io.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::traffic {

namespace {

// SO_SNDTIMEO or SO_RCVTIMEO.
void set_timeout(int fd, int option, std::chrono::milliseconds t) {
  const timeval tv{static_cast<time_t>(t.count() / 1000),
                   static_cast<suseconds_t>((t.count() % 1000) * 1000)};
  if (::setsockopt(fd, SOL_SOCKET, option, &tv, sizeof(tv)) != 0) {
    sys::throw_last_errno("setting a socket timeout");
  }
}

}  // namespace

socket_address socket_address::with_port(std::uint16_t port) const {
  socket_address a = *this;
  if (family() == AF_INET6) {
    reinterpret_cast<sockaddr_in6*>(&a.storage)->sin6_port = htons(port);
  } else {
    reinterpret_cast<sockaddr_in*>(&a.storage)->sin_port = htons(port);
  }
  return a;
}

std::string socket_address::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  if (family() == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
    return fmt::format("[{}]:{}", text, ntohs(in6->sin6_port));
  }
  const auto* in = reinterpret_cast<const sockaddr_in*>(&storage);
  ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
  return fmt::format("{}:{}", text, ntohs(in->sin_port));
}

socket_address socket_address::parse(const std::string& host, std::uint16_t port) {
  socket_address a;
  auto* in = reinterpret_cast<sockaddr_in*>(&a.storage);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
  if (::inet_pton(AF_INET, host.c_str(), &in->sin_addr) == 1) {
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    a.length = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, host.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    a.length = sizeof(sockaddr_in6);
  } else {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            fmt::format("'{}' is not a numeric IPv4 or IPv6 address", host));
  }
  return a;
}

sys::unique_fd connect_tcp(const socket_address& to, const std::string& device,
                           std::chrono::milliseconds timeout, std::chrono::milliseconds io_timeout,
                           bool nodelay) {
  sys::unique_fd fd(::socket(to.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) sys::throw_last_errno("opening a TCP socket");
  if (nodelay) {
    const int one = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  if (!device.empty()) bind_to_device(fd.get(), device);
  // Linux bounds a blocking connect() by SO_SNDTIMEO (EINPROGRESS when it passes): one system
  // call instead of a non-blocking connect, poll and SO_ERROR — it matters for TCP_CRR's rate.
  set_timeout(fd.get(), SO_SNDTIMEO, timeout);
  if (::connect(fd.get(), to.get(), to.length) != 0) {
    if (errno == EINPROGRESS || errno == EAGAIN) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("no answer from {} within {} ms", to.to_string(), timeout.count()));
    }
    sys::throw_last_errno("connecting to " + to.to_string());
  }
  if (io_timeout != timeout) set_timeout(fd.get(), SO_SNDTIMEO, io_timeout);
  set_timeout(fd.get(), SO_RCVTIMEO, io_timeout);
  return fd;
}

void write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t sent = ::send(fd, p, n, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        throw std::system_error(std::make_error_code(std::errc::timed_out),
                                "the peer stopped reading (send timed out)");
      }
      sys::throw_last_errno("sending");
    }
    p += sent;
    n -= static_cast<std::size_t>(sent);
  }
}

bool read_exact(int fd, void* out, std::size_t n, bool eof_ok) {
  auto* p = static_cast<char*>(out);
  std::size_t have = 0;
  while (have < n) {
    const ssize_t got = ::recv(fd, p + have, n - have, 0);
    if (got == 0) {
      if (eof_ok && have == 0) return false;
      throw std::system_error(
          std::make_error_code(std::errc::connection_reset),
          fmt::format("the peer closed the connection after {} of {} bytes", have, n));
    }
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        throw std::system_error(std::make_error_code(std::errc::timed_out),
                                "no answer (receive timed out)");
      }
      sys::throw_last_errno("receiving");
    }
    have += static_cast<std::size_t>(got);
  }
  return true;
}

std::uint16_t local_port(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) {
    sys::throw_last_errno("getsockname");
  }
  return ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                  : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
}

sys::unique_fd open_bound(const socket_address& local, int type,
                          std::chrono::milliseconds io_timeout) {
  sys::unique_fd fd(::socket(local.family(), type | SOCK_CLOEXEC, 0));
  if (!fd) sys::throw_last_errno("opening a data listener");
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (local.family() == AF_INET6) {
    const int zero = 0;
    ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  }
  if (::bind(fd.get(), local.get(), local.length) != 0) {
    sys::throw_last_errno("binding a data listener to " + local.to_string() +
                          " (hilperf-peer --data-port: is another program using it?)");
  }
  set_timeout(fd.get(), SO_RCVTIMEO, io_timeout);
  set_timeout(fd.get(), SO_SNDTIMEO, io_timeout);
  if (type == SOCK_STREAM) {
    const int nodelay = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof(nodelay));
  }
  return fd;
}

bool same_host(const sockaddr_storage& from, const socket_address& client) {
  if (from.ss_family != client.family()) return false;
  if (from.ss_family == AF_INET) {
    return reinterpret_cast<const sockaddr_in&>(from).sin_addr.s_addr ==
           reinterpret_cast<const sockaddr_in&>(client.storage).sin_addr.s_addr;
  }
  return std::memcmp(&reinterpret_cast<const sockaddr_in6&>(from).sin6_addr,
                     &reinterpret_cast<const sockaddr_in6&>(client.storage).sin6_addr,
                     sizeof(in6_addr)) == 0;
}

}  // namespace hil::traffic
