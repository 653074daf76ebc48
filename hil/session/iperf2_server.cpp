#include "hil/session/iperf2_server.hpp"

#include "hil/session/endpoints.hpp"

#include <asio.hpp>
#include <asio/experimental/as_tuple.hpp>

#include <fcntl.h>
#include <sys/socket.h>

#include <array>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "hil/iperf2/wire.hpp"
#include "hil/measure/udp_stats.hpp"
#include "hil/measure/units.hpp"
#include "hil/session/iperf2_turnaround.hpp"
#include "hil/session/listener.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/stream_tally.hpp"

namespace hil::session {
namespace {

using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;
using asio::ip::udp;
using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
constexpr auto as_tuple = asio::experimental::as_tuple(use_awaitable);

constexpr auto header_timeout = 10s;  // a connection must say what it is within this
constexpr int max_report_sends = 9;   // as a 2.1.8 server
constexpr auto untimed_guard = 1h;    // a -n stream's cut-off (no duration to go by)

double seconds_between(clock::time_point a, clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// One UDP client (address and port) of the shared socket.
struct udp_client {
  iperf2::client_header header;
  measure::udp_receiver_stats stats;
  clock::time_point first;  // arrival of its first datagram
  clock::time_point last;   // of its latest
  std::size_t datagram_len = 0;
  std::optional<traffic::interval_tally> intervals;
  std::optional<std::array<std::uint8_t, iperf2::report_size>> report;  // once its FIN came
  int reports_sent = 0;
  bool turned = false;   // -R or --full-duplex: served on its own connected socket
  bool serving = false;  // and that test still runs
};

// The result of a one-way TCP stream from `from` (header h, if it sent one) that stream received
// from t0 to end; cut when the guard ended it before the client did.
measure::test_result tcp_result(const tcp::endpoint& from,
                                const std::optional<iperf2::client_header>& h,
                                traffic::stream_receiver& stream, clock::time_point t0,
                                clock::time_point end, bool cut) {
  measure::test_result r;
  r.is_client = false;
  r.remote_host = unmapped(from.address()).to_string();
  r.remote_port = from.port();
  r.spec.proto = measure::protocol::tcp;
  if (h && h->timed())
    r.spec.duration = std::chrono::duration_cast<std::chrono::seconds>(h->duration());
  measure::stream_result s;
  s.id = 1;
  s.receiver.bytes = stream.bytes();
  s.receiver.seconds = seconds_between(t0, end);
  s.sender = s.receiver;  // the client's close ended the stream: it sent what we read
  r.streams.push_back(s);
  r.intervals = stream.finish(end);
  if (cut)
    r.error = fmt::format("cut off after {} s without the client's end", seconds_between(t0, end));
  return r;
}

}  // namespace

namespace detail {

struct iperf2_server_impl {
  explicit iperf2_server_impl(iperf2_server_options opts)
      : o(std::move(opts)), acceptor(io), udp_socket(io), sweep_timer(io) {
    listen_dual_stack(acceptor, o.bind_address, o.port,
                      "it is iperf 2's port here: stop it or choose another with --iperf2-port");
    const udp::endpoint uat(listen_address(o.bind_address), acceptor.local_endpoint().port());
    udp_socket.open(uat.protocol());
    // -R and --full-duplex: each such client gets a socket of its own bound to this port and
    // connected to it, which the kernel prefers for its datagrams (iperf 2 does the same).
    udp_socket.set_option(udp::socket::reuse_address(true));
    if (uat.protocol() == udp::v6()) udp_socket.set_option(asio::ip::v6_only(false));
    std::error_code ec;
    udp_socket.bind(uat, ec);
    if (ec) {
      throw std::system_error(ec,
                              fmt::format("cannot bind UDP port {} (iperf 2's port)", uat.port()));
    }
    const int rcvbuf = 4 << 20;
    ::setsockopt(udp_socket.native_handle(), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
  }

  void log(const std::string& line) const {
    if (o.log) o.log(line);
  }

  void done(const measure::test_result& r) {
    ++served;
    if (o.on_result) o.on_result(r);
    if (o.one_off) io.stop();
  }

  awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, sock] = co_await acceptor.async_accept(as_tuple);
      if (ec == asio::error::operation_aborted) co_return;
      if (ec) {
        // Out of descriptors or similar: pause instead of spinning, and say so once.
        if (!out_of_descriptors) {
          log(fmt::format("cannot accept connections: {}; retrying every 100 ms", ec.message()));
          out_of_descriptors = true;
        }
        asio::steady_timer pause(io, 100ms);
        co_await pause.async_wait(use_awaitable);
        continue;
      }
      out_of_descriptors = false;
      asio::co_spawn(io, tcp_stream(std::move(sock)), asio::detached);
    }
  }

  // Reads into buf exactly, within deadline; false when the peer closed or time ran out.
  awaitable<bool> read_exact(tcp::socket& sock, std::span<std::uint8_t> buf) {
    asio::steady_timer timer(io, header_timeout);
    timer.async_wait([&](std::error_code e) {
      if (!e) sock.cancel();
    });
    auto [ec, n] = co_await asio::async_read(sock, asio::buffer(buf.data(), buf.size()), as_tuple);
    timer.cancel();
    co_return !ec && n == buf.size();
  }

  awaitable<void> tcp_stream(tcp::socket sock) {
    std::error_code gone;
    const auto from = sock.remote_endpoint(gone);
    if (gone) co_return;
    const std::string who =
        fmt::format("{} port {}", unmapped(from.address()).to_string(), from.port());
    std::array<std::uint8_t, 256> head{};
    if (!co_await read_exact(sock, std::span(head).first<iperf2::flags_size>())) {
      log(fmt::format("{}: closed or silent before an iperf 2 header", who));
      co_return;
    }
    const std::uint32_t flags = iperf2::decode_flags(std::span(head).first<iperf2::flags_size>());
    std::optional<iperf2::client_header> h;
    std::size_t len = iperf2::flags_size;  // a headerless stream: its first bytes are data
    if (iperf2::has_header(flags)) {
      len = iperf2::header_length(flags);
      if (!co_await read_exact(
              sock, std::span(head).subspan(iperf2::flags_size, len - iperf2::flags_size)))
        co_return;
      h = iperf2::decode_header(std::span(head).first(len));
    }
    if (h && h->dual_test() && h->way() == iperf2::direction::forward) {
      log(
          fmt::format("refused {}: iperf 2's -d/-r (the server connecting back) is not served; "
                      "-R and --full-duplex are",
                      who));
      co_return;  // closing at once ends the stock client instead of leaving it waiting
    }
    if (h && h->way() != iperf2::direction::forward) {
      if (turned_running >= o.max_turned_tests) {
        log(fmt::format("refused {}: {} -R/--full-duplex tests already run", who, turned_running));
        co_return;
      }
      iperf2_turnaround_setup setup;
      setup.header = *h;
      setup.family = sock.local_endpoint(gone).protocol().family();
      setup.slack = o.guard_slack;
      setup.header_bytes = len;
      setup.socket = sys::unique_fd(::fcntl(sock.native_handle(), F_DUPFD_CLOEXEC, 0));
      sock.close(gone);  // the engine's threads own the connection now (blocking descriptors)
      if (!setup.socket) co_return;
      ++turned_running;
      co_await serve_turned(std::move(setup), fmt::format("TCP from {}", who), from.address(),
                            from.port());
      co_return;
    }
    if (h && iperf2::wants_ack(*h)) {
      const auto ack = iperf2::encode_header_ack();
      auto [ec, n] = co_await asio::async_write(sock, asio::buffer(ack), as_tuple);
      if (ec) co_return;
    }
    const auto t0 = clock::now();
    const auto limit = h && h->timed()
                           ? h->duration() + o.guard_slack
                           : std::chrono::duration_cast<std::chrono::milliseconds>(untimed_guard);
    asio::steady_timer guard(io, limit);
    bool cut = false;
    guard.async_wait([&](std::error_code e) {
      if (!e) {
        cut = true;
        sock.cancel();
      }
    });
    traffic::stream_receiver stream(t0, len);  // as iperf 2 counts: the header is stream too
    for (;;) {
      auto [ec] = co_await sock.async_wait(tcp::socket::wait_read, as_tuple);
      if (ec || stream.read_available(sock.native_handle())) break;  // ec: the guard's cut
    }
    guard.cancel();
    const auto end = clock::now();
    sock.close(gone);
    const auto r = tcp_result(from, h, stream, t0, end, cut);
    const auto& s = r.streams.front();
    log(fmt::format("TCP from {}: {} bytes in {:.2f} s ({:.1f} Mbit/s){}", who, s.receiver.bytes,
                    s.receiver.seconds,
                    measure::bits_per_second(s.receiver.bytes, s.receiver.seconds) / 1e6,
                    cut ? ", cut off" : ""));
    done(r);
  }

  awaitable<void> udp_loop() {
    std::vector<std::uint8_t> buf(65536);
    for (;;) {
      udp::endpoint from;
      auto [ec, n] = co_await udp_socket.async_receive_from(asio::buffer(buf), from, as_tuple);
      if (ec == asio::error::operation_aborted) co_return;
      if (ec || n < iperf2::prefix_size) continue;
      on_datagram(from, std::span<const std::uint8_t>(buf.data(), n));
    }
  }

  void on_datagram(const udp::endpoint& from, std::span<const std::uint8_t> d) {
    const auto now = clock::now();
    const auto prefix = iperf2::decode_prefix(d.first<iperf2::prefix_size>());
    auto it = clients.find(from);
    if (it == clients.end()) {
      if (prefix.seq <= 0) return;  // a FIN of a test already forgotten
      const auto h = iperf2::decode_header(d.subspan(iperf2::prefix_size));
      if (clients.size() >= o.max_udp_clients) evict_oldest();
      if (h && h->way() != iperf2::direction::forward) {
        if (turned_running >= o.max_turned_tests) {
          log(fmt::format("refused UDP from {}: {} -R/--full-duplex tests already run",
                          describe(from), turned_running));
          auto& refused = clients.emplace(from, udp_client{}).first->second;
          refused.turned = true;  // its repeated asks are ignored until it goes quiet
          refused.last = now;
          return;
        }
        turn_udp(from, *h, d.size(), prefix.seq == 1, now);
        return;
      }
      it = clients.emplace(from, udp_client{}).first;
      it->second.header = h.value_or(iperf2::client_header{});
      it->second.first = now;
      it->second.datagram_len = d.size();
      it->second.intervals.emplace(now);
      log(fmt::format("UDP from {}: {}-byte datagrams", describe(from), d.size()));
    }
    udp_client& c = it->second;
    c.last = now;
    if (c.turned) return;  // a -R client's repeated ask, before its socket took over
    if (c.report) {        // its FIN came: a FIN retry asks for the report again
      if (prefix.seq < 0 && c.reports_sent < max_report_sends) send_report(from, c);
      return;
    }
    const auto sent = std::chrono::seconds(prefix.sec) + std::chrono::microseconds(prefix.usec);
    const auto arrived = now.time_since_epoch();
    const auto seq = static_cast<std::uint64_t>(prefix.seq < 0 ? -prefix.seq : prefix.seq);
    // As iperf 2: the FIN's (negated) sequence and its bytes count too.
    c.stats.on_datagram(seq, sent, arrived, d.size(), true);
    c.intervals->add(now, d.size(), 1);
    if (prefix.seq < 0) finish_udp(from, c, now);
  }

  // A UDP -R or --full-duplex client: a socket of its own on this port, connected to it.
  void turn_udp(const udp::endpoint& from, const iperf2::client_header& h, std::size_t len,
                bool first_is_data, clock::time_point now) {
    udp_client& c = clients.emplace(from, udp_client{}).first->second;
    c.header = h;
    c.first = c.last = now;
    c.turned = c.serving = true;
    const std::string label = fmt::format("UDP from {}", describe(from));
    try {
      const auto local = udp_socket.local_endpoint();
      iperf2_turnaround_setup setup;
      setup.header = h;
      setup.udp = true;
      setup.family = local.protocol().family();
      setup.datagram_len = len;
      setup.first_datagram_received = first_is_data && h.way() == iperf2::direction::full_duplex;
      setup.slack = o.guard_slack;
      setup.socket = connected_udp(local, from);
      ++turned_running;
      asio::co_spawn(io, serve_turned(std::move(setup), label, from.address(), from.port(), from),
                     asio::detached);
    } catch (const std::exception& e) {
      log(fmt::format("{}: cannot serve its -R/--full-duplex: {}", label, e.what()));
      c.serving = false;
    }
  }

  static sys::unique_fd connected_udp(const udp::endpoint& local, const udp::endpoint& to) {
    sys::unique_fd fd(::socket(local.protocol().family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd) sys::throw_last_errno("socket");
    const int on = 1;
    const int off = 0;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (local.protocol() == udp::v6()) {
      ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
    }
    const int rcvbuf = 4 << 20;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
    if (::bind(fd.get(), local.data(), static_cast<socklen_t>(local.size())) != 0) {
      sys::throw_last_errno("bind");
    }
    if (::connect(fd.get(), to.data(), static_cast<socklen_t>(to.size())) != 0) {
      sys::throw_last_errno("connect");
    }
    return fd;
  }

  // Runs a turned-round test to its end on the engine's threads, polled from here.
  awaitable<void> serve_turned(iperf2_turnaround_setup setup, std::string label,
                               asio::ip::address client, std::uint16_t port,
                               std::optional<udp::endpoint> udp_client_key = std::nullopt) {
    const auto setup_way = setup.header.way();
    std::optional<iperf2_turnaround> test;
    try {
      test.emplace(std::move(setup));
      log(fmt::format("{}: {} started", label,
                      setup_way == iperf2::direction::reverse ? "-R" : "--full-duplex"));
    } catch (const std::exception& e) {
      log(fmt::format("{}: cannot serve its test: {}", label, e.what()));
    }
    struct running_count {  // counted by the caller as it started this
      std::size_t& n;
      ~running_count() { --n; }
    } const counted{turned_running};
    asio::steady_timer tick(io);
    while (test && !test->step()) {
      tick.expires_after(20ms);
      auto [ec] = co_await tick.async_wait(as_tuple);
      if (ec) co_return;
    }
    if (udp_client_key) {
      if (const auto it = clients.find(*udp_client_key); it != clients.end()) {
        it->second.serving = false;
        it->second.last = clock::now();
      }
    }
    if (!test) co_return;
    auto r = test->result();
    r.remote_host = unmapped(client).to_string();
    r.remote_port = port;
    log(fmt::format("{}: {}", label, test->summary()));
    done(r);
  }

  void finish_udp(const udp::endpoint& from, udp_client& c, clock::time_point end) {
    iperf2::server_report rep;
    rep.bytes = c.stats.bytes();
    rep.duration = std::chrono::duration_cast<std::chrono::microseconds>(end - c.first);
    rep.lost = c.stats.lost();
    rep.out_of_order = c.stats.out_of_order();
    rep.datagrams = static_cast<std::int64_t>(c.stats.highest_seq());
    rep.jitter = std::chrono::microseconds(static_cast<std::int64_t>(c.stats.jitter_s() * 1e6));
    c.report = iperf2::encode_report(rep);
    send_report(from, c);
    // The result in this engine's terms: data datagrams only (the FIN taken out), as the client's.
    measure::test_result r;
    r.is_client = false;
    r.remote_host = unmapped(from.address()).to_string();
    r.remote_port = from.port();
    r.spec.proto = measure::protocol::udp;
    r.spec.block_len = static_cast<std::uint32_t>(c.datagram_len);
    r.spec.bitrate_bps = c.header.rate_bps;
    r.spec.bitrate_given = true;
    if (c.header.timed()) {
      r.spec.duration = std::chrono::duration_cast<std::chrono::seconds>(c.header.duration());
    }
    measure::stream_result s;
    s.id = 1;
    const std::int64_t data = rep.datagrams - 1;
    s.sender.packets = data;  // the FIN says how many were sent
    s.sender.bytes = static_cast<std::uint64_t>(data) * c.datagram_len;
    s.sender.seconds = seconds_between(c.first, end);
    s.receiver.packets = data;
    s.receiver.bytes = rep.bytes - std::min<std::uint64_t>(rep.bytes, c.datagram_len);
    s.receiver.errors = rep.lost;
    s.receiver.out_of_order = rep.out_of_order;
    s.receiver.jitter_s = c.stats.jitter_s();
    s.receiver.seconds = s.sender.seconds;
    r.streams.push_back(s);
    r.intervals = c.intervals->finish(end);
    log(fmt::format("UDP from {}: {}/{} lost, {} out of order, jitter {:.3f} ms, {:.2f} s",
                    describe(from), rep.lost, data, rep.out_of_order, c.stats.jitter_s() * 1e3,
                    s.receiver.seconds));
    done(r);
  }

  void send_report(const udp::endpoint& to, udp_client& c) {
    std::error_code ignored;
    udp_socket.send_to(asio::buffer(*c.report), to, 0, ignored);
    ++c.reports_sent;
  }

  // Makes room for one more UDP client: drops the one quiet the longest, never one whose -R or
  // --full-duplex test still runs (its datagrams go to its own socket, it only looks quiet).
  void evict_oldest() {
    auto oldest = clients.end();
    for (auto it = clients.begin(); it != clients.end(); ++it) {
      if (it->second.serving) continue;
      if (oldest == clients.end() || it->second.last < oldest->second.last) oldest = it;
    }
    if (oldest == clients.end()) return;  // all serving: bounded by max_turned_tests
    if (!oldest->second.report)
      log(fmt::format("dropped UDP client {}: too many at once", describe(oldest->first)));
    clients.erase(oldest);
  }

  // Forgets clients that went quiet: a finished one after its report's retries, an unfinished one
  // (no FIN ever came) with a log line.
  awaitable<void> sweep_loop() {
    for (;;) {
      sweep_timer.expires_after(1s);
      auto [ec] = co_await sweep_timer.async_wait(as_tuple);
      if (ec) co_return;
      const auto now = clock::now();
      for (auto it = clients.begin(); it != clients.end();) {
        if (now - it->second.last < o.udp_idle || it->second.serving) {
          ++it;
          continue;
        }
        if (!it->second.report && !it->second.turned) {
          log(fmt::format("UDP from {} ended without a FIN after {} datagrams", describe(it->first),
                          it->second.stats.datagrams()));
        }
        it = clients.erase(it);
      }
    }
  }

  static std::string describe(const udp::endpoint& e) {
    return fmt::format("{} port {}", unmapped(e.address()).to_string(), e.port());
  }

  iperf2_server_options o;
  // -R and --full-duplex tests on the engine's threads; before io, whose destruction ends them.
  std::size_t turned_running = 0;
  asio::io_context io;
  tcp::acceptor acceptor;
  udp::socket udp_socket;
  asio::steady_timer sweep_timer;
  std::map<udp::endpoint, udp_client> clients;
  int served = 0;
  bool out_of_descriptors = false;  // the last accept failed for want of them (logged once)
};

}  // namespace detail

iperf2_server::iperf2_server(iperf2_server_options options)
    : impl_(std::make_unique<detail::iperf2_server_impl>(std::move(options))) {}

iperf2_server::~iperf2_server() = default;

std::uint16_t iperf2_server::port() const { return impl_->acceptor.local_endpoint().port(); }

int iperf2_server::run() {
  asio::co_spawn(impl_->io, impl_->accept_loop(), asio::detached);
  asio::co_spawn(impl_->io, impl_->udp_loop(), asio::detached);
  asio::co_spawn(impl_->io, impl_->sweep_loop(), asio::detached);
  impl_->io.run();
  return impl_->served;
}

void iperf2_server::stop() {
  asio::post(impl_->io, [this] { impl_->io.stop(); });
}

}  // namespace hil::session
