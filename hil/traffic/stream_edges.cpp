#include "hil/traffic/stream_edges.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include "hil/sys/error.hpp"

namespace hil::traffic {

bool wait_readable(int fd, edge_clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - edge_clock::now());
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) sys::throw_last_errno("poll");
  }
}

first_answer peek_first_answer(int fd, edge_clock::time_point deadline) {
  first_answer a;
  if (!wait_readable(fd, deadline)) return a;
  std::array<std::uint8_t, 1> first{};
  const ssize_t n = ::recv(fd, first.data(), first.size(), MSG_PEEK);
  if (n == 1) a.byte = first[0];
  a.closed = n == 0;
  return a;
}

std::optional<std::uint64_t> drain_until_close(int fd, edge_clock::time_point deadline,
                                               const std::string& what) {
  std::array<char, 65536> sink{};
  std::uint64_t total = 0;
  for (;;) {
    if (!wait_readable(fd, deadline)) return std::nullopt;
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (n == 0) return total;
    if (n > 0) total += static_cast<std::uint64_t>(n);
    if (n < 0 && errno != EINTR && errno != EAGAIN) sys::throw_last_errno(what);
    if (edge_clock::now() > deadline) return std::nullopt;  // a peer that never stops sending
  }
}

bool peer_closed(int fd) {
  std::array<std::uint8_t, 4096> sink{};
  for (;;) {
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (n == 0) return true;
    if (n > 0) continue;
    return errno != EAGAIN && errno != EINTR;  // reset: it is gone
  }
}

void send_copies(int fd, std::span<const std::uint8_t> datagram, int n) {
  for (int i = 0; i < n; ++i) (void)::send(fd, datagram.data(), datagram.size(), MSG_NOSIGNAL);
}

std::optional<std::vector<std::uint8_t>> resend_until_answered(
    int fd, int rounds, edge_clock::duration interval,
    const std::function<std::vector<std::uint8_t>(int round)>& ask,
    const std::function<bool(std::span<const std::uint8_t>)>& take) {
  std::vector<std::uint8_t> in(65536);
  for (int round = 0; round <= rounds; ++round) {
    const auto out = ask(round);
    (void)::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
    const auto until = edge_clock::now() + interval;
    while (wait_readable(fd, until)) {
      const ssize_t n = ::recv(fd, in.data(), in.size(), 0);
      if (n < 0) break;  // an ICMP error: keep the schedule
      const std::span<const std::uint8_t> got(in.data(), static_cast<std::size_t>(n));
      if (take(got)) return std::vector<std::uint8_t>(got.begin(), got.end());
    }
  }
  return std::nullopt;
}

ask_outcome resend_until_data(int fd, int rounds, edge_clock::duration interval,
                              std::span<const std::uint8_t> ask, const std::string& what) {
  for (int round = 0; round < rounds; ++round) {
    if (::send(fd, ask.data(), ask.size(), MSG_NOSIGNAL) < 0 && errno != ECONNREFUSED &&
        errno != EAGAIN && errno != EINTR) {
      sys::throw_last_errno(what);
    }
    if (!wait_readable(fd, edge_clock::now() + interval)) continue;
    std::array<std::uint8_t, 1> peek{};
    if (::recv(fd, peek.data(), peek.size(), MSG_PEEK) >= 0) return ask_outcome::answered;
    if (errno == ECONNREFUSED) return ask_outcome::refused;
  }
  return ask_outcome::unanswered;
}

}  // namespace hil::traffic
