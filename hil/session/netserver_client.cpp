#include "hil/session/netserver_client.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <asio/experimental/as_tuple.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "hil/iperf3/wire.hpp"
#include "hil/netperf/omni.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/rr_io.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;
using asio::experimental::as_tuple;
using asio::ip::tcp;
using measure::workload;
using namespace std::chrono_literals;

// netserver answers a request within milliseconds (netperf itself waits 120 s).
constexpr auto answer_timeout = 10s;
// The results come at once, except TCP_CRR's (netserver's timer: pad_seconds after the test) and
// a test whose end marker netserver missed (the same timer): both well within this.
constexpr auto results_timeout = std::chrono::seconds(netperf::pad_seconds) + 11s;
// Our half-close of the control connection is answered at once; past this, we close anyway.
constexpr auto goodbye_timeout = 2s;
// A data socket blocked this long (netserver not reading, not answering, not closing) has lost it.
constexpr auto io_timeout = 5s;
// UDP_RR: a response this late is lost and the request goes out again; this many in a row mean
// netserver is gone.
constexpr auto udp_response_timeout = 1s;
constexpr int max_unanswered = 3;
// netperf's limit for a UDP datagram (IPv4's largest payload).
constexpr std::uint32_t max_datagram = 65507;
// netperf's end of a UDP test: three empty datagrams, in case one is lost.
constexpr int end_markers = 3;

using clock = std::chrono::steady_clock;

// e's message without the ": <code's text>" std::system_error appends, for rewording.
std::string bare_message(const std::system_error& e) {
  std::string what = e.what();
  const std::string tail = ": " + e.code().message();
  if (what.size() > tail.size() && what.ends_with(tail)) what.resize(what.size() - tail.size());
  return what;
}

// ---- the data phase: blocking sockets, every call bounded ------------------------------------

// What the data phase measured locally.
struct local_figures {
  double seconds = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t transactions = 0;
  std::uint64_t send_failures = 0;
  std::uint64_t lost = 0;
  std::uint32_t send_size = 0;
  measure::latency_histogram latency;
};

// Where and how the data phase runs.
struct data_plan {
  workload kind;
  traffic::socket_address to;  // netserver's host, its data port
  std::string device;
  std::chrono::milliseconds connect_timeout;
  clock::duration length;  // the test's whole seconds
  std::uint32_t request_size;
  std::uint32_t response_size;
  std::uint32_t send_size;         // 0: netperf's default
  std::uint32_t remote_send_size;  // netserver's bytes per send(), from its response
};

// A TCP connection to netserver's data port, without TCP_NODELAY: netperf sets it only when asked
// (-- -D), and so netserver does not either.
sys::unique_fd connect_data(const data_plan& p) {
  return traffic::connect_tcp(p.to, p.device, p.connect_timeout, io_timeout, false);
}

// A UDP socket connected to netserver's data port, so ICMP errors surface as ECONNREFUSED.
sys::unique_fd open_udp(const data_plan& p, std::chrono::milliseconds timeout) {
  sys::unique_fd fd(::socket(p.to.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) sys::throw_last_errno("opening a UDP socket");
  if (!p.device.empty()) traffic::bind_to_device(fd.get(), p.device);
  if (::connect(fd.get(), p.to.get(), p.to.length) != 0) {
    sys::throw_last_errno("connecting a UDP socket");
  }
  traffic::set_io_timeouts(fd.get(), static_cast<int>(timeout.count()));
  return fd;
}

// netperf's default send size: a fresh data socket's SO_SNDBUF (before connect, when Linux has not
// grown it yet), for UDP clamped to the largest datagram.
std::uint32_t default_send_size(const data_plan& p, int type) {
  const sys::unique_fd probe(::socket(p.to.family(), type | SOCK_CLOEXEC, 0));
  if (!probe) sys::throw_last_errno("opening a socket to read its SO_SNDBUF");
  const auto size = static_cast<std::uint32_t>(traffic::socket_buffer(probe.get(), true));
  return type == SOCK_DGRAM ? std::min(size, max_datagram) : size;
}

[[noreturn]] void nothing_listens() {
  throw std::system_error(
      std::make_error_code(std::errc::connection_refused),
      "nothing listens there (ICMP port unreachable): netserver closed its data socket");
}

// After our half-close: reads until netserver closes its side, which it does when it has seen our
// end of the test, within io_timeout. Returns the bytes read meanwhile.
std::uint64_t drain_to_eof(int fd) {
  std::array<char, 65536> buf{};
  std::uint64_t total = 0;
  const auto give_up = clock::now() + io_timeout;
  for (;;) {
    const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
    const int err = n < 0 ? errno : 0;
    if (n == 0) return total;
    if (n > 0) total += static_cast<std::uint64_t>(n);
    if (err == EAGAIN || clock::now() > give_up) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("netserver did not close the data connection within {} s of our end of test",
                      io_timeout.count()));
    }
    if (n < 0 && err != EINTR) {
      sys::throw_errno(err, "ending the data connection");
    }
  }
}

// TCP_STREAM: send_size blocks for the test length, then half-close and wait for netserver's.
void tcp_stream(const data_plan& p, local_figures& f) {
  f.send_size = p.send_size != 0 ? p.send_size : default_send_size(p, SOCK_STREAM);
  const std::vector<char> block(f.send_size, 'n');
  const auto fd = connect_data(p);
  for (const auto end = clock::now() + p.length; clock::now() < end;) {
    traffic::write_all(fd.get(), block.data(), block.size());
    f.bytes_sent += block.size();
  }
  ::shutdown(fd.get(), SHUT_WR);
  (void)drain_to_eof(fd.get());
}

// TCP_MAERTS: read until netserver, on its own timer, stops sending and closes.
void tcp_maerts(const data_plan& p, local_figures& f) {
  f.send_size = p.remote_send_size;
  const auto fd = connect_data(p);
  const auto give_up = clock::now() + p.length + results_timeout;
  std::vector<char> buf(128 * 1024);
  for (;;) {
    const ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), 0);
    if (n == 0) return;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      throw std::system_error(std::make_error_code(std::errc::timed_out),
                              fmt::format("netserver stopped sending for {} s without closing "
                                          "the connection",
                                          io_timeout.count()));
    }
    if (n < 0) sys::throw_last_errno("receiving");
    f.bytes_received += static_cast<std::uint64_t>(n);
    if (clock::now() > give_up) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("netserver kept sending {} s past the test length", results_timeout.count()));
    }
  }
}

// The three empty datagrams that end a UDP test; netserver ends on the first, so the ICMP errors
// the others may meet are expected.
void send_end_markers(int fd) {
  for (int i = 0; i < end_markers; ++i) (void)::send(fd, nullptr, 0, 0);
}

// UDP_STREAM: datagrams of send_size as fast as the socket takes them, then the end markers.
void udp_stream(const data_plan& p, local_figures& f) {
  f.send_size = p.send_size != 0 ? p.send_size : default_send_size(p, SOCK_DGRAM);
  const std::vector<char> datagram(f.send_size, 'n');
  const auto fd = open_udp(p, io_timeout);
  for (const auto end = clock::now() + p.length; clock::now() < end;) {
    const ssize_t n = ::send(fd.get(), datagram.data(), datagram.size(), 0);
    if (n == static_cast<ssize_t>(datagram.size())) {
      f.bytes_sent += datagram.size();
    } else if (n >= 0 || errno == ENOBUFS || errno == EAGAIN) {
      ++f.send_failures;  // netperf's "Errors": the kernel had no room for it
    } else if (errno == ECONNREFUSED) {
      nothing_listens();
    } else if (errno != EINTR) {
      sys::throw_last_errno("sending a datagram");
    }
  }
  send_end_markers(fd.get());
}

// Counts one completed transaction that started at `began`; returns its end.
clock::time_point completed(local_figures& f, clock::time_point began) {
  const auto done = clock::now();
  f.latency.record(done - began);
  ++f.transactions;
  return done;
}

// TCP_RR: one connection, one transaction at a time for the test length, then half-close and
// wait for netserver's close. Every transaction started is completed, so netserver counts the same.
void tcp_rr(const data_plan& p, local_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size);
  const auto fd = connect_data(p);
  const auto end = clock::now() + p.length;
  for (auto now = clock::now(); now < end;) {
    traffic::write_all(fd.get(), request.data(), request.size());
    traffic::read_exact(fd.get(), response.data(), response.size());
    now = completed(f, now);
  }
  f.bytes_sent = f.transactions * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
  ::shutdown(fd.get(), SHUT_WR);
  if (drain_to_eof(fd.get()) != 0) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            "netserver sent more than the responses asked for");
  }
}

// TCP_CRR: connect, request, response, netserver's close, for each transaction; timed, as
// netperf's, from before connect() to the end of the connection.
void tcp_crr(const data_plan& p, local_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size + 1);
  const auto end = clock::now() + p.length;
  for (auto now = clock::now(); now < end;) {
    auto fd = connect_data(p);
    traffic::write_all(fd.get(), request.data(), request.size());
    traffic::read_exact(fd.get(), response.data(), p.response_size);
    // One byte more than the response: the read that would take it sees netserver's close.
    if (traffic::read_exact(fd.get(), response.data() + p.response_size, 1, true)) {
      throw std::system_error(std::make_error_code(std::errc::protocol_error),
                              "netserver sent more than the response");
    }
    fd.reset();
    now = completed(f, now);
  }
  f.bytes_sent = f.transactions * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
}

// UDP_RR: one datagram each way per transaction, then the end markers. A response that does not
// come within udp_response_timeout is lost and the next request goes out; netserver answered
// every request it received, so it may count up to `lost` transactions more than we do.
void udp_rr(const data_plan& p, local_figures& f) {
  const std::vector<char> request(p.request_size, 'q');
  std::vector<char> response(p.response_size + 1);  // + 1: a longer datagram is seen as such
  const auto fd = open_udp(p, udp_response_timeout);
  int unanswered = 0;
  const auto end = clock::now() + p.length;
  for (auto now = clock::now(); now < end;) {
    if (::send(fd.get(), request.data(), request.size(), 0) < 0) {
      if (errno == ECONNREFUSED) nothing_listens();
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
    if (n < 0 && errno == ECONNREFUSED) nothing_listens();
    if (n < 0 && errno == EAGAIN) {
      ++f.lost;
      if (++unanswered == max_unanswered) {
        throw std::system_error(
            std::make_error_code(std::errc::timed_out),
            fmt::format("netserver stopped answering: {} requests in a row got no response "
                        "within {} ms",
                        max_unanswered, std::chrono::milliseconds(udp_response_timeout).count()));
      }
      now = clock::now();
      continue;
    }
    if (n < 0) sys::throw_last_errno("receiving a response");
    if (n != static_cast<ssize_t>(p.response_size)) {
      throw std::system_error(std::make_error_code(std::errc::protocol_error),
                              fmt::format("netserver answered with {} bytes, not the {} asked for",
                                          n, p.response_size));
    }
    unanswered = 0;
    now = completed(f, now);
  }
  f.bytes_sent = (f.transactions + f.lost) * p.request_size;
  f.bytes_received = f.transactions * p.response_size;
  send_end_markers(fd.get());
}

// Runs p's test, timing it from before its first data connection to the end of its last.
void run_test(const data_plan& p, local_figures& f) {
  const auto start = clock::now();
  switch (p.kind) {
    case workload::tcp_stream:
      tcp_stream(p, f);
      break;
    case workload::tcp_maerts:
      tcp_maerts(p, f);
      break;
    case workload::udp_stream:
      udp_stream(p, f);
      break;
    case workload::tcp_rr:
      tcp_rr(p, f);
      break;
    case workload::tcp_crr:
      tcp_crr(p, f);
      break;
    case workload::udp_rr:
      udp_rr(p, f);
      break;
  }
  f.seconds = std::chrono::duration<double>(clock::now() - start).count();
}

// The data phase of p's test. Its errors name the test, netserver's data address and, for RR
// tests, the transaction that failed.
local_figures run_data_phase(const data_plan& p) {
  local_figures f;
  try {
    run_test(p, f);
  } catch (const std::system_error& e) {
    // The errno's text stays: it is often the whole reason ("Connection reset by peer").
    std::string what = e.what();
    if (e.code() == std::errc::timed_out && what.starts_with("no answer")) {
      what =
          fmt::format("netserver stopped answering ({} s without a response)", io_timeout.count());
    }
    throw worded_error(e.code(),
                       fmt::format("{} with netserver at {}{}: {}", measure::workload_name(p.kind),
                                   p.to.to_string(),
                                   measure::is_request_response(p.kind)
                                       ? fmt::format(", transaction {}", f.transactions + 1)
                                       : std::string(),
                                   what));
  }
  return f;
}

// ---- the control connection ------------------------------------------------------------------

// The whole seconds netserver runs a test of duration d for (netperf -l takes seconds).
int test_length_s(std::chrono::milliseconds d) {
  return static_cast<int>((d.count() + 999) / 1000);
}

// The peer's address as a data-plane address (keeps an IPv6 scope), with the data port.
traffic::socket_address data_address(const tcp::endpoint& ep, std::uint16_t port) {
  traffic::socket_address a;
  std::memcpy(&a.storage, ep.data(), ep.size());
  a.length = static_cast<socklen_t>(ep.size());
  return a.with_port(port);
}

class netserver_session {
 public:
  netserver_session(const netserver_options& o, tcp::endpoint to)
      : o_(o),
        to_(std::move(to)),
        where_(fmt::format("{}:{}", o.host, o.port)),
        test_(measure::workload_name(o.kind)) {}

  awaitable<netserver_result> run() {
    tcp::socket ctl = co_await connect();
    const auto request = netperf::encode_request(request_for());
    co_await asio::async_write(ctl, asio::buffer(request), use_awaitable);
    const auto setup =
        worded(netperf::decode_response, co_await read_message(ctl, answer_timeout, true));
    // The data phase blocks this thread; netserver does not watch the control connection meanwhile.
    local_figures local = run_data_phase(plan_for(setup));
    const auto remote =
        worded(netperf::decode_results, co_await read_message(ctl, results_timeout, false));
    co_await say_goodbye(ctl);
    co_return combine(std::move(local), remote);
  }

 private:
  [[nodiscard]] netperf::omni_request request_for() const {
    netperf::omni_request r;
    r.kind = o_.kind;
    r.request_size = static_cast<std::int32_t>(o_.request_size);
    r.response_size = static_cast<std::int32_t>(o_.response_size);
    r.test_length_s = test_length_s(o_.duration);
    r.family = to_.address().is_v6() ? 6 : 4;
    return r;
  }

  [[nodiscard]] data_plan plan_for(const netperf::omni_setup& setup) const {
    return data_plan{o_.kind,
                     data_address(to_, setup.data_port),
                     o_.bind_device,
                     o_.connect_timeout,
                     std::chrono::seconds(test_length_s(o_.duration)),
                     o_.request_size,
                     o_.response_size,
                     o_.send_size,
                     setup.send_size};
  }

  netserver_result combine(local_figures local, const netperf::omni_results& remote) const {
    netserver_result r;
    r.kind = o_.kind;
    r.seconds = local.seconds;
    r.local_bytes_sent = local.bytes_sent;
    r.local_bytes_received = local.bytes_received;
    r.local_transactions = local.transactions;
    r.remote_bytes_received = remote.bytes_received;
    r.remote_bytes_sent = remote.bytes_sent;
    r.remote_recv_calls = remote.recv_calls;
    r.remote_transactions = remote.transactions;
    r.remote_seconds = remote.elapsed_s;
    r.latency = std::move(local.latency);
    r.send_size = local.send_size;
    r.local_send_failures = local.send_failures;
    r.local_lost = local.lost;
    r.remote_congestion = remote.congestion;
    return r;
  }

  // The control connection, or an error with the likely cause of there being none.
  awaitable<tcp::socket> connect() {
    tcp::socket sock(co_await asio::this_coro::executor);
    sock.open(to_.protocol());
    if (!o_.bind_device.empty()) traffic::bind_to_device(sock.native_handle(), o_.bind_device);
    std::error_code ec;
    try {
      co_await with_timeout(sock.async_connect(to_, use_awaitable), o_.connect_timeout, "connect");
      co_return sock;
    } catch (const std::system_error& e) {
      ec = e.code();
    }
    const std::string why = connect_failure_text(
        ec, o_.host, o_.port, o_.connect_timeout,
        fmt::format("is `netserver` running there? (start it with `netserver -p {}`)", o_.port));
    throw worded_error(ec, why);
  }

  // One whole 656-byte message within timeout; first: netserver's answer to the request, where a
  // short or missing message says the peer is something else.
  awaitable<netperf::message> read_message(tcp::socket& ctl, std::chrono::seconds timeout,
                                           bool first) {
    netperf::message m{};
    std::size_t have = 0;
    const auto deadline = clock::now() + timeout;
    while (have < m.size()) {
      auto got = co_await until(ctl.async_read_some(asio::buffer(m.data() + have, m.size() - have),
                                                    as_tuple(use_awaitable)),
                                deadline);
      if (!got)
        throw_unanswered(std::make_error_code(std::errc::timed_out), m, have, timeout, first);
      const auto [ec, n] = *got;
      have += n;
      if (ec && have < m.size()) throw_unanswered(ec, m, have, timeout, first);
      // netserver's answers start with a big-endian type or 0: anything else is another server,
      // which may never send 656 bytes (an iperf3 server sends one and waits).
      if (first && m[0] != 0) {
        throw_unanswered(std::make_error_code(std::errc::protocol_error), m, have, timeout, first);
      }
    }
    co_return m;
  }

  // Why a message did not come whole: ec is timed_out, EOF or a reset, have its bytes so far.
  [[noreturn]] void throw_unanswered(std::error_code ec, const netperf::message& m,
                                     std::size_t have, std::chrono::seconds timeout,
                                     bool first) const {
    const bool silent = ec == std::errc::timed_out;
    const bool closed = ec == asio::error::eof || ec == asio::error::connection_reset;
    std::string why;
    if (!first) {
      why = silent
                ? fmt::format("{}: no results from netserver at {} within {} s of the test's end",
                              test_, where_, timeout.count())
            : closed ? fmt::format(
                           "{}: netserver at {} closed the control connection before its "
                           "results ({} of {} bytes came): it failed during the data phase",
                           test_, where_, have, m.size())
                     : fmt::format("{}: reading netserver's results from {}: {}", test_, where_,
                                   ec.message());
    } else if (have > 0 && m[0] == iperf3::state_to_byte(iperf3::state::param_exchange)) {
      why = fmt::format(
          "{} answered the {} request with byte 0x{:02x}, iperf3's PARAM_EXCHANGE: it "
          "is an iperf3 server, not netperf's netserver (start `netserver` on the peer; its "
          "default port is 12865)",
          where_, test_, m[0]);
    } else if (have > 0 && m[0] != 0) {
      why = fmt::format(
          "{} answered the {} request with byte 0x{:02x}, where netserver's answer "
          "starts with 0x00: not netserver",
          where_, test_, m[0]);
    } else if (have > 0) {
      why = fmt::format(
          "{} sent {} bytes and {} in answer to the {} request: not netserver, whose "
          "every answer is {} bytes",
          where_, have, silent ? "then nothing" : "closed the connection", test_, m.size());
    } else if (silent) {
      why = fmt::format(
          "no answer from {} within {} s to the {} request: a netserver that hangs, or "
          "something else listening on port {}?",
          where_, timeout.count(), test_, o_.port);
    } else if (closed) {
      why = fmt::format(
          "{} closed the control connection without answering the {} request: not "
          "netserver, or a netserver started with -Z (a passphrase) or without omni "
          "tests",
          where_, test_);
    } else {
      why = fmt::format("reading netserver's answer from {}: {}", where_, ec.message());
    }
    throw worded_error(silent ? ec : std::make_error_code(std::errc::protocol_error), why);
  }

  // decode(m), its protocol error worded with the test and the peer.
  template <typename Decode>
  std::invoke_result_t<Decode, std::span<const std::uint8_t>> worded(
      Decode decode, const netperf::message& m) const {
    try {
      return decode(std::span<const std::uint8_t>(m));
    } catch (const std::system_error& e) {
      throw worded_error(e.code(), fmt::format("{} with {}: {}", test_, where_, bare_message(e)));
    }
  }

  // netperf's goodbye: half-close, netserver's child closes in turn. The test is complete, so a
  // slow or failed goodbye is not an error.
  static awaitable<void> say_goodbye(tcp::socket& ctl) {
    asio::error_code ignored;
    ctl.shutdown(tcp::socket::shutdown_send, ignored);
    std::array<std::uint8_t, 64> sink{};
    const auto deadline = clock::now() + goodbye_timeout;
    for (;;) {
      auto got = co_await until(ctl.async_read_some(asio::buffer(sink), as_tuple(use_awaitable)),
                                deadline);
      if (!got || std::get<0>(*got)) break;
    }
    ctl.close(ignored);
  }

  const netserver_options& o_;
  tcp::endpoint to_;
  std::string where_;      // "host:port", for messages
  std::string_view test_;  // "TCP_STREAM", for messages
};

// Throws invalid_argument for options netserver cannot run.
void validate(const netserver_options& o) {
  const auto name = measure::workload_name(o.kind);
  const auto invalid = [&](const std::string& why) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            fmt::format("{} with netserver: {}", name, why));
  };
  if (o.host.empty()) invalid("no host given");
  if (o.duration <= std::chrono::milliseconds::zero() || o.duration > std::chrono::hours(24)) {
    invalid("the duration must be positive and at most a day");
  }
  if (measure::is_request_response(o.kind) && (o.request_size < 1 || o.response_size < 1)) {
    invalid("request and response sizes must be at least 1 byte");
  }
  const bool udp = o.kind == workload::udp_stream || o.kind == workload::udp_rr;
  const std::uint32_t largest =
      o.kind == workload::udp_stream ? o.send_size : std::max(o.request_size, o.response_size);
  if (udp && largest > max_datagram) {
    invalid(
        fmt::format("{} bytes do not fit in one UDP datagram (at most {})", largest, max_datagram));
  }
}

}  // namespace

double netserver_result::throughput_mbps() const {
  if (seconds <= 0) return 0;
  switch (kind) {
    case workload::tcp_stream:
    case workload::udp_stream:
      return static_cast<double>(remote_bytes_received) * 8 / 1e6 / seconds;
    case workload::tcp_maerts:
      return static_cast<double>(local_bytes_received) * 8 / 1e6 / seconds;
    default:
      return 0;
  }
}

double netserver_result::transactions_per_second() const {
  if (seconds <= 0 || !measure::is_request_response(kind)) return 0;
  return static_cast<double>(local_transactions) / seconds;
}

netserver_result run_netserver_test(const netserver_options& options) {
  validate(options);
  asio::io_context io;
  netserver_session session(options, resolve_peer(options.host, options.port));
  return run_to_end(io, session.run());
}

}  // namespace hil::session
