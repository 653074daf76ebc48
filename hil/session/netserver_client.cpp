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
#include "hil/measure/units.hpp"
#include "hil/netperf/omni.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/rr_io.hpp"
#include "hil/traffic/socket_options.hpp"
#include "hil/traffic/workloads.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;
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

// ---- the data phase: the engine's workloads (traffic/workloads.hpp) ------------------------

// The engine's shape for each of netperf's tests.
traffic::workload_shape shape_of(workload kind) {
  switch (kind) {
    case workload::tcp_stream:
      return traffic::workload_shape::stream_send;
    case workload::tcp_maerts:
      return traffic::workload_shape::stream_receive;
    case workload::udp_stream:
      return traffic::workload_shape::datagrams;
    case workload::tcp_rr:
      return traffic::workload_shape::request_response;
    case workload::tcp_crr:
      return traffic::workload_shape::connect_request_response;
    case workload::udp_rr:
      break;
  }
  return traffic::workload_shape::datagram_request_response;
}

// What the data phase measured locally, with the send size it ran at.
struct local_figures : traffic::workload_figures {
  std::uint32_t send_size = 0;
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

// netperf's default send size: a fresh data socket's SO_SNDBUF (before connect, when Linux has not
// grown it yet), for UDP clamped to the largest datagram.
std::uint32_t default_send_size(const data_plan& p, int type) {
  const sys::unique_fd probe(::socket(p.to.family(), type | SOCK_CLOEXEC, 0));
  if (!probe) sys::throw_last_errno("opening a socket to read its SO_SNDBUF");
  const auto size = static_cast<std::uint32_t>(traffic::socket_buffer(probe.get(), true));
  return type == SOCK_DGRAM ? std::min(size, measure::max_udp_payload) : size;
}

// The send size p's test runs at: the one asked for, netperf's default or, for TCP_MAERTS,
// netserver's.
std::uint32_t send_size_of(const data_plan& p) {
  if (p.kind == workload::tcp_maerts) return p.remote_send_size;
  if (p.kind != workload::tcp_stream && p.kind != workload::udp_stream) return 0;
  if (p.send_size != 0) return p.send_size;
  return default_send_size(p, p.kind == workload::udp_stream ? SOCK_DGRAM : SOCK_STREAM);
}

// p as the engine's workload: netperf's framing (three empty datagrams end a UDP test; no
// TCP_NODELAY, which netperf sets only when asked with -- -D) and netserver's timeouts.
traffic::workload_plan workload_for(const data_plan& p, std::uint32_t send_size) {
  traffic::workload_plan w;
  w.shape = shape_of(p.kind);
  w.to = p.to;
  w.device = p.device;
  w.connect_timeout = p.connect_timeout;
  w.io_timeout = io_timeout;
  w.response_timeout = udp_response_timeout;
  w.max_unanswered = max_unanswered;
  w.length = p.length;
  w.receive_grace = results_timeout;
  w.send_size = send_size;
  w.request_size = p.request_size;
  w.response_size = p.response_size;
  w.end_markers = end_markers;
  w.nodelay = false;
  w.peer = "netserver";
  return w;
}

// Runs p's test, timing it from before its first data connection to the end of its last.
void run_test(const data_plan& p, local_figures& f) {
  f.send_size = send_size_of(p);
  traffic::run_workload(workload_for(p, f.send_size), f);
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
                                                    asio::experimental::as_tuple(use_awaitable)),
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
      auto got = co_await until(
          ctl.async_read_some(asio::buffer(sink), asio::experimental::as_tuple(use_awaitable)),
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
  if (udp && largest > measure::max_udp_payload) {
    invalid(fmt::format("{} bytes do not fit in one UDP datagram (at most {})", largest,
                        measure::max_udp_payload));
  }
}

}  // namespace

double netserver_result::throughput_mbps() const {
  if (seconds <= 0) return 0;
  switch (kind) {
    case workload::tcp_stream:
    case workload::udp_stream:
      return measure::bits_per_second(remote_bytes_received, seconds) / 1e6;
    case workload::tcp_maerts:
      return measure::bits_per_second(local_bytes_received, seconds) / 1e6;
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
