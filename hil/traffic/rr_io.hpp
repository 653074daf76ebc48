// Blocking socket I/O shared by the request/response engine (client) and responder (peer): an
// address type free of asio, connect with a deadline, and exact reads/writes whose timeouts
// (SO_RCVTIMEO/SO_SNDTIMEO) report as std::errc::timed_out, so a silent peer ends a run in
// bounded time.
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <system_error>

#include "hil/sys/unique_fd.hpp"

namespace hil::traffic {

// The bytes of one send or recv of a request/response case's load streams (engine and responder).
inline constexpr std::size_t rr_load_block = 128 * 1024;

// An IPv4 or IPv6 socket address.
struct socket_address {
  sockaddr_storage storage{};
  socklen_t length = 0;

  [[nodiscard]] int family() const noexcept { return storage.ss_family; }
  [[nodiscard]] const sockaddr* get() const noexcept {
    return reinterpret_cast<const sockaddr*>(&storage);
  }
  // The same address with another port.
  [[nodiscard]] socket_address with_port(std::uint16_t port) const;
  // "198.18.0.195:5201" / "[2001:2::195]:5201".
  [[nodiscard]] std::string to_string() const;
  // From numeric host text and a port; throws std::system_error (invalid_argument) otherwise.
  static socket_address parse(const std::string& host, std::uint16_t port);
};

// A TCP connection to `to` within timeout: TCP_NODELAY unless told otherwise (a connection that
// writes once does not need it), bound to device when not empty, with io_timeout as
// SO_RCVTIMEO/SO_SNDTIMEO. Throws std::system_error naming `to`.
sys::unique_fd connect_tcp(const socket_address& to, const std::string& device,
                           std::chrono::milliseconds timeout, std::chrono::milliseconds io_timeout,
                           bool nodelay = true);

// Writes all n bytes (MSG_NOSIGNAL). Throws std::system_error; timed_out when the send timeout
// passes with the peer not reading.
void write_all(int fd, const void* data, std::size_t n);

// Reads exactly n bytes. Returns false on EOF before the first byte when eof_ok, throws
// std::system_error otherwise (EOF mid-message is connection_reset; the receive timeout is
// timed_out).
bool read_exact(int fd, void* out, std::size_t n, bool eof_ok = false);

// The local port a bound socket has.
std::uint16_t local_port(int fd);

// A data listener's socket of type (SOCK_STREAM, SOCK_DGRAM) bound to local (dual-stack for
// IPv6, SO_REUSEADDR, TCP_NODELAY for TCP), with io_timeout as SO_RCVTIMEO/SO_SNDTIMEO, which
// accepted connections inherit. Throws std::system_error naming the address.
sys::unique_fd open_bound(const socket_address& local, int type,
                          std::chrono::milliseconds io_timeout);

// True when from is the same host as client (ports aside).
[[nodiscard]] bool same_host(const sockaddr_storage& from, const socket_address& client);

}  // namespace hil::traffic
