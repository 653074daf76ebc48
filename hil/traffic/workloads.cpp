#include "hil/traffic/workloads.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <vector>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/traffic/socket_options.hpp"
#include "hil/traffic/stream_edges.hpp"

namespace hil::traffic {
namespace {

using clock = std::chrono::steady_clock;

// A TCP connection to the peer's data address, bounded by the plan's timeouts.
sys::unique_fd connect_data(const workload_plan& p) {
  return connect_tcp(p.to, p.device, p.connect_timeout, p.io_timeout, p.nodelay);
}

// A UDP socket connected to the peer's data address, so ICMP errors surface as ECONNREFUSED.
sys::unique_fd open_udp(const workload_plan& p, std::chrono::milliseconds timeout) {
  sys::unique_fd fd(::socket(p.to.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) sys::throw_last_errno("opening a UDP socket");
  if (!p.device.empty()) bind_to_device(fd.get(), p.device);
  if (::connect(fd.get(), p.to.get(), p.to.length) != 0) {
    sys::throw_last_errno("connecting a UDP socket");
  }
  set_io_timeouts(fd.get(), static_cast<int>(timeout.count()));
  return fd;
}

[[noreturn]] void nothing_listens(const workload_plan& p) {
  throw std::system_error(std::make_error_code(std::errc::connection_refused),
                          fmt::format("nothing listens there (ICMP port unreachable): {} closed "
                                      "its data socket",
                                      p.peer));
}

// After our half-close: reads until the peer closes its side, which it does when it has seen our
// end of the test, within io_timeout. Returns the bytes read meanwhile.
std::uint64_t drain_to_eof(const workload_plan& p, int fd) {
  const auto read =
      drain_until_close(fd, clock::now() + p.io_timeout, "ending the data connection");
  if (!read) {
    throw std::system_error(
        std::make_error_code(std::errc::timed_out),
        fmt::format("{} did not close the data connection within {} s of our end of test", p.peer,
                    std::chrono::duration_cast<std::chrono::seconds>(p.io_timeout).count()));
  }
  return *read;
}

// Stream send: send_size blocks for the length, then half-close and wait for the peer's.
void stream_send(const workload_plan& p, workload_figures& f) {
  const std::vector<char> block(p.send_size, 'n');
  const auto fd = connect_data(p);
  for (const auto end = clock::now() + p.length; clock::now() < end;) {
    write_all(fd.get(), block.data(), block.size());
    f.bytes_sent += block.size();
  }
  ::shutdown(fd.get(), SHUT_WR);
  (void)drain_to_eof(p, fd.get());
}

// Stream receive: read until the peer, on its own timer, stops sending and closes.
void stream_receive(const workload_plan& p, workload_figures& f) {
  const auto fd = connect_data(p);
  const auto give_up = clock::now() + p.length + p.receive_grace;
  std::vector<char> buf(128 * 1024);
  for (;;) {
    const ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), 0);
    if (n == 0) return;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("{} stopped sending for {} s without closing the connection", p.peer,
                      std::chrono::duration_cast<std::chrono::seconds>(p.io_timeout).count()));
    }
    if (n < 0) sys::throw_last_errno("receiving");
    f.bytes_received += static_cast<std::uint64_t>(n);
    if (clock::now() > give_up) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("{} kept sending {} s past the test length", p.peer,
                      std::chrono::duration_cast<std::chrono::seconds>(p.receive_grace).count()));
    }
  }
}

// The empty datagrams that end a UDP test; the peer ends on the first, so the ICMP errors the
// others may meet are expected.
void send_end_markers(const workload_plan& p, int fd) { send_copies(fd, {}, p.end_markers); }

// Datagrams: send_size bytes each, as fast as the socket takes them, then the end markers.
void datagrams(const workload_plan& p, workload_figures& f) {
  const std::vector<char> datagram(p.send_size, 'n');
  const auto fd = open_udp(p, p.io_timeout);
  for (const auto end = clock::now() + p.length; clock::now() < end;) {
    const ssize_t n = ::send(fd.get(), datagram.data(), datagram.size(), 0);
    if (n == static_cast<ssize_t>(datagram.size())) {
      f.bytes_sent += datagram.size();
    } else if (n >= 0 || errno == ENOBUFS || errno == EAGAIN) {
      ++f.send_failures;  // netperf's "Errors": the kernel had no room for it
    } else if (errno == ECONNREFUSED) {
      nothing_listens(p);
    } else if (errno != EINTR) {
      sys::throw_last_errno("sending a datagram");
    }
  }
  send_end_markers(p, fd.get());
}

// Counts one completed transaction into f.
transaction_done counter(workload_figures& f) {
  return [&f](clock::duration took) {
    f.latency.record(took);
    ++f.transactions;
  };
}

// Request/response: one connection, one transaction at a time for the length, then half-close
// and wait for the peer's close. Every transaction started is completed, so the peer counts the
// same.
void request_response(const workload_plan& p, workload_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size);
  const auto fd = connect_data(p);
  request_response_loop(fd.get(), request, response, clock::now() + p.length, counter(f));
  f.bytes_sent = f.transactions * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
  ::shutdown(fd.get(), SHUT_WR);
  if (drain_to_eof(p, fd.get()) != 0) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            fmt::format("{} sent more than the responses asked for", p.peer));
  }
}

// Connect/request/response: connect, request, response, the peer's close, for each transaction;
// timed, as netperf's, from before connect() to the end of the connection.
void connect_request_responses(const workload_plan& p, workload_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size + 1);
  const auto done = counter(f);
  const auto end = clock::now() + p.length;
  for (auto now = clock::now(); now < end;) {
    connect_request_response(connect_data(p), request, response, p.peer);
    const auto finished = clock::now();
    done(finished - now);
    now = finished;
  }
  f.bytes_sent = f.transactions * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
}

// Datagram request/response: one datagram each way per transaction, then the end markers. A
// response that does not come within response_timeout is lost and the next request goes out; the
// peer answered every request it received, so it may count up to `lost` transactions more.
void datagram_request_response(const workload_plan& p, workload_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size + 1);  // + 1: a longer datagram is seen as such
  const auto fd = open_udp(p, p.response_timeout);
  const auto done = counter(f);
  int unanswered = 0;
  const auto end = clock::now() + p.length;
  for (auto now = clock::now(); now < end;) {
    if (::send(fd.get(), request.data(), request.size(), 0) < 0) {
      if (errno == ECONNREFUSED) nothing_listens(p);
      if (errno != EINTR && errno != ENOBUFS && errno != EAGAIN) {
        sys::throw_last_errno("sending a request");
      }
      now = clock::now();  // no room in the kernel for it: try again
      continue;
    }
    ssize_t n = -1;
    do {
      n = ::recv(fd.get(), response.data(), response.size(), 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && errno == ECONNREFUSED) nothing_listens(p);
    if (n < 0 && errno == EAGAIN) {
      ++f.lost;
      if (++unanswered == p.max_unanswered) {
        throw std::system_error(
            std::make_error_code(std::errc::timed_out),
            fmt::format("{} stopped answering: {} requests in a row got no response within {} ms",
                        p.peer, p.max_unanswered, p.response_timeout.count()));
      }
      now = clock::now();
      continue;
    }
    if (n < 0) sys::throw_last_errno("receiving a response");
    if (n != static_cast<ssize_t>(p.response_size)) {
      throw std::system_error(std::make_error_code(std::errc::protocol_error),
                              fmt::format("{} answered with {} bytes, not the {} asked for", p.peer,
                                          n, p.response_size));
    }
    unanswered = 0;
    const auto finished = clock::now();
    done(finished - now);
    now = finished;
  }
  f.bytes_sent = (f.transactions + f.lost) * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
  send_end_markers(p, fd.get());
}

}  // namespace

void request_response_loop(int fd, std::span<const char> request, std::span<char> response,
                           clock::time_point end, const transaction_done& done) {
  for (auto now = clock::now(); now < end;) {
    write_all(fd, request.data(), request.size());
    read_exact(fd, response.data(), response.size());
    const auto finished = clock::now();
    done(finished - now);
    now = finished;
  }
}

void connect_request_response(sys::unique_fd fd, std::span<const char> request,
                              std::span<char> response, const std::string& peer) {
  const std::size_t expected = response.size() - 1;
  write_all(fd.get(), request.data(), request.size());
  read_exact(fd.get(), response.data(), expected);
  // One byte more than the response: the read that would take it sees the peer's close.
  if (read_exact(fd.get(), response.data() + expected, 1, true)) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            fmt::format("{} sent more than the response", peer));
  }
}

void run_workload(const workload_plan& p, workload_figures& f) {
  const auto start = clock::now();
  switch (p.shape) {
    case workload_shape::stream_send:
      stream_send(p, f);
      break;
    case workload_shape::stream_receive:
      stream_receive(p, f);
      break;
    case workload_shape::datagrams:
      datagrams(p, f);
      break;
    case workload_shape::request_response:
      request_response(p, f);
      break;
    case workload_shape::connect_request_response:
      connect_request_responses(p, f);
      break;
    case workload_shape::datagram_request_response:
      datagram_request_response(p, f);
      break;
  }
  f.seconds = std::chrono::duration<double>(clock::now() - start).count();
}

}  // namespace hil::traffic
