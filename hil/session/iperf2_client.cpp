#include "hil/session/iperf2_client.hpp"

#include <linux/sockios.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "hil/iperf2/wire.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/iperf2_datagrams.hpp"
#include "hil/session/iperf3_streams.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/rr_io.hpp"
#include "hil/traffic/socket_options.hpp"
#include "hil/traffic/stream_edges.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {
namespace {

using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How long the first answer to a TCP header may take before the test goes on without it (an
// iperf 2 before 2.0.10 sends no ack); long enough for a LAN, short beside any test.
constexpr auto ack_wait = 300ms;
// The FIN schedule of a 2.1.8 client: one more every 10 ms without a report, for 2 s.
constexpr auto fin_interval = 10ms;
constexpr int fin_rounds = 200;
// How often UDP -R asks for the server's stream before giving up (about a second).
constexpr int reverse_asks = 100;
// How long a TCP server may take to close after our shutdown (iperf 2 waits max(-t, 2 s)).
constexpr auto close_wait = 10s;

[[noreturn]] void fail(std::errc code, const std::string& message) {
  throw std::system_error(std::make_error_code(code), message);
}

void refuse_what_iperf2_cannot_carry(const iperf3::test_params& s) {
  std::vector<std::string> no;
  if (s.omit.count() > 0) no.emplace_back("-O (iperf 2 has no omit period)");
  if (s.blocks > 0) no.emplace_back("-k (its header carries no block count)");
  if (s.get_server_output) no.emplace_back("--get-server-output (iperf 2 sends no output back)");
  if (s.bytes >= (std::uint64_t{1} << 31)) {
    no.emplace_back("-n of 2 GiB or more (its header holds 31 bits)");
  }
  if (s.bidirectional && s.proto == measure::protocol::udp) {
    // A 2.1 server answers a UDP --full-duplex client with no report: what it received of the
    // client's stream is known only to its own output, so no receiver figure could be given.
    no.emplace_back(
        "UDP --bidir (iperf 2's UDP --full-duplex sends no report back: run -u and "
        "-u -R instead)");
  }
  if (no.empty()) return;
  std::string list;
  for (const auto& n : no) list += (list.empty() ? "" : "; ") + n;
  fail(std::errc::invalid_argument, "not run against an iperf 2 server: " + list);
}

// iperf 2's own UDP datagram length when -l is not given: 1470 bytes over IPv4, 1450 over IPv6,
// so that with its headers a datagram fits a 1500-byte MTU unfragmented (iperf3's 1460 does not
// over IPv6, and a server on a jumbo-frame port would send what a 1500-byte DUT port drops).
measure::test_spec with_iperf2_defaults(measure::test_spec s, bool ipv6) {
  if (s.proto == measure::protocol::udp && s.block_len == 0) s.block_len = ipv6 ? 1450 : 1470;
  return s;
}

sys::unique_fd connect_stream(const asio::ip::tcp::endpoint& to, const measure::test_spec& spec,
                              bool udp, std::chrono::milliseconds timeout) {
  const int family = to.protocol().family();
  sys::unique_fd fd(
      ::socket(family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) sys::throw_last_errno("socket");
  if (!spec.bind_device.empty()) traffic::bind_to_device(fd.get(), spec.bind_device);
  if (!spec.bind_address.empty()) {
    const asio::ip::tcp::endpoint local(asio::ip::make_address(spec.bind_address), 0);
    if (::bind(fd.get(), local.data(), static_cast<socklen_t>(local.size())) != 0) {
      sys::throw_last_errno("bind to " + spec.bind_address);
    }
  }
  traffic::apply_data_options(fd.get(), family, spec);
  if (udp) enlarge_udp_receive_buffer(fd.get(), 4 << 20);
  if (::connect(fd.get(), to.data(), static_cast<socklen_t>(to.size())) != 0) {
    if (errno != EINPROGRESS) sys::throw_last_errno("connect");
    pollfd p{fd.get(), POLLOUT, 0};
    int err = ETIMEDOUT;
    if (::poll(&p, 1, static_cast<int>(timeout.count())) > 0) {
      socklen_t len = sizeof(err);
      ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    }
    if (err != 0) {
      const std::error_code ec(err, asio::error::get_system_category());
      throw std::system_error(
          ec, connect_failure_text(ec, to.address().to_string(), to.port(), timeout,
                                   fmt::format("is `iperf -s -p {}` running there?", to.port())));
    }
  }
  return fd;
}

// After the header: an iperf 2 server acks it (00 00 00 02 …); an iperf3 server reads it as its
// cookie and asks for parameters (0x09), then resets. Nothing at all is an older iperf 2.
void check_first_answer(int fd, const std::string& where) {
  const auto first = traffic::peek_first_answer(fd, clock::now() + ack_wait);
  if (first.byte == 0x09) {
    fail(std::errc::protocol_error,
         fmt::format("the server at {} speaks iperf3, not iperf 2 (it asked for iperf3 "
                     "parameters); set peer.server = \"iperf3\" (hilperf: drop --protocol iperf2)",
                     where));
  }
  if (first.closed) {
    fail(std::errc::connection_aborted,
         fmt::format("the server at {} closed the connection on reading the iperf 2 header, as an "
                     "iperf3 server does (hilperf-peer's iperf3 port, for one): iperf 2 listens "
                     "on 5001 unless told otherwise; if it is iperf3, set peer.server = "
                     "\"iperf3\" (hilperf: drop --protocol iperf2)",
                     where));
  }
}

// Reads until the server closes, so the receiver has read every byte; the ack is in there.
void await_close(int fd, const std::string& where) {
  ::shutdown(fd, SHUT_WR);
  if (!traffic::drain_until_close(fd, clock::now() + close_wait,
                                  fmt::format("the end of the test with {}", where))) {
    fail(std::errc::timed_out,
         fmt::format("the server at {} did not close within {} s after the test: an iperf 2 "
                     "server closes as soon as it has read the stream",
                     where, close_wait.count()));
  }
}

// The FIN round until the server's report arrives (iperf 2's schedule); nullopt after 2 s.
std::optional<iperf2::server_report> await_report(int fd, std::int64_t sent,
                                                  const iperf2_datagrams& format, std::size_t len) {
  const auto answer = traffic::resend_until_answered(
      fd, fin_rounds, fin_interval, [&](int round) { return format.fin(sent, round, len); },
      [](std::span<const std::uint8_t> d) { return iperf2::decode_report(d).has_value(); });
  if (!answer) return std::nullopt;
  return iperf2::decode_report(*answer);
}

// UDP -R: the header datagram, sent again every 10 ms (a 2.1.8 client: 0–20 ms) until the
// server's first datagram arrives, for at most about a second. The data stays queued for the
// receiving flow.
void ask_for_reverse(int fd, const iperf2_datagrams& format, std::size_t len,
                     const std::string& where, std::uint16_t port) {
  std::vector<std::uint8_t> hello(std::max(len, format.header_size()), 0);
  format.write(hello, {0, 0, 1});
  const auto outcome = traffic::resend_until_data(
      fd, reverse_asks, fin_interval, hello, fmt::format("asking {} for its -R stream", where));
  if (outcome == traffic::ask_outcome::answered) return;
  if (outcome == traffic::ask_outcome::refused) {
    fail(std::errc::connection_refused,
         fmt::format("nothing listens on UDP {} — is `iperf -s -u -p {}` running there?", where,
                     port));
  }
  fail(std::errc::timed_out,
       fmt::format("the iperf 2 server at {} sent nothing within {} s of being asked for -R: "
                   "is `iperf -s -u -p {}` (2.1 or later, which has -R) running there?",
                   where, reverse_asks * fin_interval.count() / 1000.0, port));
}

// Full duplex: our bytes are in the server's hands once its TCP acknowledged all of them (the
// socket's send queue, our FIN included, is empty). Its reads cannot be seen: iperf 2 sends no
// figures back, and its close comes when its own sending ends.
void await_acked(int fd, const std::string& where) {
  const auto deadline = clock::now() + close_wait;
  for (;;) {
    int queued = 0;
    if (::ioctl(fd, SIOCOUTQ, &queued) != 0) sys::throw_last_errno("SIOCOUTQ");
    if (queued == 0) return;
    if (clock::now() >= deadline) {
      fail(std::errc::timed_out,
           fmt::format("the server at {} left {} bytes of our stream unacknowledged {} s after "
                       "the test",
                       where, queued, close_wait.count()));
    }
    std::this_thread::sleep_for(5ms);
  }
}

class iperf2_session {
 public:
  explicit iperf2_session(const client_options& o)
      : o_(o),
        to_(resolve_peer(o.host, o.port)),
        spec_(with_iperf2_defaults(o.spec, to_.protocol() == asio::ip::tcp::v6())),
        run_(spec_) {
    where_ = fmt::format("{}:{}", o.host, o.port);
    const auto& s = o.spec;
    way_ = s.bidirectional ? iperf2::direction::full_duplex
           : s.reverse     ? iperf2::direction::reverse
                           : iperf2::direction::forward;
  }

  measure::test_result run() {
    refuse_what_iperf2_cannot_carry(o_.spec);
    const bool udp = spec_.proto == measure::protocol::udp;
    auto header = iperf2::make_header(udp, spec_.parallel, o_.port, spec_.duration, spec_.bytes,
                                      udp ? spec_.effective_bitrate() : 0, way_);
    // A stock UDP server reads with a buffer of the header's length (its default, 1470 bytes,
    // when 0): a longer datagram is cut and the test's end is missed. Say ours, as -l does; in
    // -R it is the length of the server's datagrams.
    if (udp) header.buffer_len = static_cast<std::int32_t>(spec_.effective_block_len());
    format_ = std::make_shared<iperf2_datagrams>(header);
    const auto started = std::chrono::system_clock::now();
    std::vector<sys::unique_fd> sockets;
    for (int i = 0; i < spec_.parallel; ++i) sockets.push_back(open_connection(udp, header));
    add_flows(udp, std::move(sockets));
    run_.start();
    drive();
    run_.finish();  // this end's totals, before the end exchange needs them
    const auto remote = udp ? finish_udp() : finish_tcp();
    measure::test_result r = run_.result(remote);
    if (udp) count_tail_loss(r);
    r.is_client = true;
    r.remote_host = o_.host;
    r.remote_port = o_.port;
    r.started = started;
    r.connected = connected_;
    r.payload_seed = payload_seed_;
    r.sender_congestion = run_.local_totals().congestion;
    return r;
  }

 private:
  [[nodiscard]] bool sends() const { return way_ != iperf2::direction::reverse; }
  [[nodiscard]] bool receives() const { return way_ != iperf2::direction::forward; }

  // One connection (or UDP 5-tuple) with the header said: TCP sends it and checks the first
  // answer; UDP -R asks until the server's stream begins (a forward UDP stream carries the
  // header in every datagram).
  sys::unique_fd open_connection(bool udp, const iperf2::client_header& header) {
    auto fd = connect_stream(to_, spec_, udp, o_.connect_timeout);
    if (!udp) {
      const auto bytes = iperf2::encode_header(header);
      try {
        traffic::write_all(fd.get(), bytes.data(), bytes.size());
      } catch (const std::system_error& e) {
        throw std::system_error(e.code(), fmt::format("sending the iperf 2 header to {}", where_));
      }
      check_first_answer(fd.get(), where_);
    } else if (way_ == iperf2::direction::reverse) {
      ask_for_reverse(fd.get(), *format_, spec_.effective_block_len(), where_, o_.port);
    }
    ends_.push_back(sys::duplicate(fd.get()));  // for the test's end
    return fd;
  }

  // The flows in iperf3's stream order: our senders first, then our receivers, each connection
  // carrying one of each in full duplex (two descriptors of one socket).
  void add_flows(bool udp, std::vector<sys::unique_fd> sockets) {
    const auto n = sockets.size();
    const int family = to_.protocol().family();
    std::vector<sys::unique_fd> receiving;
    for (std::size_t i = 0; i < n; ++i) {
      receiving.push_back(way_ == iperf2::direction::full_duplex ? sys::duplicate(sockets[i].get())
                                                                 : std::move(sockets[i]));
    }
    if (sends()) {
      for (std::size_t i = 0; i < n; ++i) {
        add_flow(std::move(way_ == iperf2::direction::full_duplex ? sockets[i] : receiving[i]),
                 family, stream_id(i), traffic::flow_role::send, udp);
      }
    }
    if (receives()) {
      const std::size_t first = sends() ? n : 0;
      for (std::size_t i = 0; i < n; ++i) {
        add_flow(std::move(receiving[i]), family, stream_id(first + i), traffic::flow_role::receive,
                 udp);
      }
    }
  }

  void add_flow(sys::unique_fd fd, int family, int id, traffic::flow_role role, bool udp) {
    const auto endpoint = describe_stream(fd.get(), id);
    connected_.push_back(endpoint);
    if (o_.on_connected) o_.on_connected(endpoint);
    auto config = flow_config_for(spec_, id, role, payload_seed_);
    if (udp) config.datagrams = format_;
    run_.add_flow(std::make_unique<traffic::flow>(std::move(fd), family, config));
  }

  // True once every receiving flow saw its stream's end (TCP: the server's close; UDP: its FIN).
  [[nodiscard]] bool receivers_done() const {
    for (const auto& f : run_.flows()) {
      if (f->config().role == traffic::flow_role::receive && !f->finished()) return false;
    }
    return true;
  }

  [[nodiscard]] std::uint64_t received_bytes() const {
    std::uint64_t total = 0;
    for (const auto& f : run_.flows()) {
      if (f->config().role == traffic::flow_role::receive) total += f->sample().bytes;
    }
    return total;
  }

  // Intervals until our sending ends (-t passes or -n is written) and the server's streams end;
  // an abort, a failed stream or a server that stops sending ends it early.
  void drive() {
    const auto t0 = run_.t0();
    const bool timed = spec_.bytes == 0;
    const auto end = t0 + spec_.duration;
    const auto step = spec_.interval;
    auto next = step.count() > 0 ? t0 + step : clock::time_point::max();
    bool sending = sends();
    std::uint64_t seen = 0;
    auto last_progress = t0;
    auto last_sample = t0;
    for (;;) {
      const auto now = clock::now();
      if (sending && (timed ? now >= end : run_.senders_done())) {
        stop_sending();
        sending = false;
      }
      if (!sending && (!receives() || receivers_done())) break;
      if (o_.abort != nullptr && o_.abort->load()) {
        fail(std::errc::operation_canceled, "interrupted");
      }
      if (const auto err = run_.flow_error(); !err.empty()) {
        fail(std::errc::io_error,
             fmt::format("{} (the iperf 2 server at {} went away or refused the stream: for "
                         "UDP, is `iperf -s -u` running there?)",
                         err, where_));
      }
      if (receives()) watch_server_stream(now, timed ? end : now, seen, last_progress);
      if (now >= next) {
        last_sample = now;
        const auto sample = run_.sample_interval(now);
        if (o_.on_interval) o_.on_interval(sample);
        next += step;
      }
      std::this_thread::sleep_until(
          std::min({next, now + 20ms, sending && timed ? end : clock::time_point::max()}));
    }
    if (!sends()) run_.stop_senders();  // marks where this end's test ended
    // The last, partial interval (as iperf3 reports one), unless it would be a sliver.
    if (step.count() > 0 && clock::now() - last_sample > step / 10) {
      const auto sample = run_.sample_interval(clock::now());
      if (o_.on_interval) o_.on_interval(sample);
    }
  }

  void stop_sending() {
    run_.stop_senders();
    run_.join_senders();
    // Full duplex: the server reads to our end of stream while its own stream goes on.
    if (way_ == iperf2::direction::full_duplex && spec_.proto == measure::protocol::tcp) {
      for (const auto& fd : ends_) ::shutdown(fd.get(), SHUT_WR);
    }
  }

  // The server ends its streams itself: after its -t (TCP: close, UDP: a FIN) or its -n. One
  // that goes silent is cut off: UDP after iperf 2's 2 s past the test (its FIN was lost; the
  // highest sequence stands for its count), TCP after close_wait.
  void watch_server_stream(clock::time_point now, clock::time_point end, std::uint64_t& seen,
                           clock::time_point& last_progress) {
    if (const auto bytes = received_bytes(); bytes != seen) {
      seen = bytes;
      last_progress = now;
    }
    const bool udp = spec_.proto == measure::protocol::udp;
    const auto grace = udp ? std::chrono::milliseconds(2s) : close_wait;
    if (now < std::max(end, last_progress) + grace) return;
    if (udp && now >= end) {
      for (const auto& f : run_.flows()) f->request_stop();  // ends the receivers' wait
      return;
    }
    fail(std::errc::timed_out,
         fmt::format("the iperf 2 server at {} stopped sending {} s before the end of its "
                     "stream ({} bytes received): it went away or does not run -R",
                     where_, std::chrono::duration<double>(grace).count(), seen));
  }

  traffic::run_totals finish_tcp() {
    if (way_ == iperf2::direction::forward) {
      for (const auto& fd : ends_) await_close(fd.get(), where_);
    } else if (way_ == iperf2::direction::full_duplex) {
      for (const auto& fd : ends_) await_acked(fd.get(), where_);
    }
    // Forward: the server closed after reading to our end of stream, so it received every byte
    // we wrote; full duplex: its TCP acknowledged every one; reverse: we read to its close, so
    // it sent what we received.
    // The server had read it all by the close we saw, not by the end of our writes: what our
    // socket and the path still held drained after them (a second at 30 Mbit/s with Linux's
    // autotuned send buffer), so its time runs to that close.
    const double closed = way_ == iperf2::direction::forward
                              ? std::chrono::duration<double>(clock::now() - run_.t0()).count()
                              : 0;
    traffic::run_totals remote;
    const auto mine = run_.local_totals();
    for (const auto& s : mine.streams) {
      traffic::run_totals::stream r{s.id, {}};
      r.totals.bytes = s.totals.bytes;
      r.totals.seconds = std::max(s.totals.seconds, closed);
      remote.streams.push_back(r);
    }
    return remote;
  }

  // UDP -R: the server's FIN says how many it sent, so datagrams lost after the last one that
  // arrived count as lost too (a receiver that knows only the highest sequence cannot see them).
  void count_tail_loss(measure::test_result& r) const {
    for (std::size_t i = 0; i < r.streams.size(); ++i) {
      auto& s = r.streams[i];
      if (s.local_sends || !run_.flows().at(i)->peer_sent()) continue;
      const auto sent = static_cast<std::int64_t>(*run_.flows()[i]->peer_sent());
      if (sent > s.receiver.packets) {
        s.receiver.errors += sent - s.receiver.packets;
        s.receiver.packets = sent;
      }
    }
  }

  traffic::run_totals finish_udp() {
    traffic::run_totals remote;
    const auto mine = run_.local_totals();
    const std::size_t len = spec_.effective_block_len();
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      const auto& s = mine.streams.at(i);
      traffic::run_totals::stream r{s.id, {}};
      if (way_ == iperf2::direction::reverse) {
        // The server's FIN says how many it sent (without it: the highest sequence seen).
        const auto said = run_.flows().at(i)->peer_sent();
        r.totals.packets = said ? static_cast<std::int64_t>(*said) : s.totals.packets;
        r.totals.bytes = static_cast<std::uint64_t>(r.totals.packets) * len;
        r.totals.seconds = s.totals.seconds;
        remote.streams.push_back(r);
        continue;
      }
      const auto report = await_report(ends_[i].get(), s.totals.packets, *format_, len);
      if (!report) {
        fail(std::errc::timed_out,
             fmt::format("no iperf 2 server report from {} within 2 s of the test's end: is "
                         "`iperf -s -u -p {}` running there? (an iperf3 server does not answer "
                         "iperf 2's UDP)",
                         where_, o_.port));
      }
      // The server counts the FIN (sequence sent + 1): take it out. Its byte count is not used:
      // a 2.1.8 server reads at most its own buffer (1470 bytes unless started with -l) of each
      // datagram, whatever the header says, so the bytes follow from its datagram counts.
      r.totals.packets = std::max<std::int64_t>(report->datagrams - 1, 0);
      const std::int64_t received = std::max<std::int64_t>(r.totals.packets - report->lost, 0);
      r.totals.bytes = static_cast<std::uint64_t>(received) * len;
      r.totals.errors = report->lost;
      r.totals.out_of_order = report->out_of_order;
      r.totals.jitter_s = static_cast<double>(report->jitter.count()) / 1e6;
      r.totals.seconds = static_cast<double>(report->duration.count()) / 1e6;
      remote.streams.push_back(r);
    }
    return remote;
  }

  const client_options& o_;
  asio::ip::tcp::endpoint to_;
  measure::test_spec spec_;  // the test, with iperf 2's defaults where it leaves them open
  std::string where_;
  iperf2::direction way_ = iperf2::direction::forward;
  traffic::test_run run_;
  std::shared_ptr<const iperf2_datagrams> format_;
  std::vector<sys::unique_fd> ends_;  // a duplicate of each connection's socket, for its end
  std::vector<measure::stream_endpoint> connected_;
  std::uint64_t payload_seed_ = new_payload_seed();
};

}  // namespace

measure::test_result run_iperf2_client(const client_options& o) {
  iperf2_session session(o);
  return session.run();
}

}  // namespace hil::session
