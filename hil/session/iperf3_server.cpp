#include "hil/session/iperf3_server.hpp"

#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/channel.hpp>

#include <ctime>

#include <fmt/format.h>

#include "hil/iperf2/wire.hpp"
#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/extension.hpp"
#include "hil/iperf3/frame_count.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/measure/units.hpp"
#include "hil/session/bitrate_cap.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/endpoints.hpp"
#include "hil/session/frame_count_service.hpp"
#include "hil/session/iperf3_framing.hpp"
#include "hil/session/iperf3_streams.hpp"
#include "hil/session/listener.hpp"
#include "hil/sys/text_file.hpp"
#include "hil/traffic/rr_engine.hpp"
#include "hil/traffic/rr_responder.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;
using asio::ip::tcp;
using asio::ip::udp;
using namespace std::chrono_literals;
constexpr std::size_t max_users_file = std::size_t{1} << 20;  // an authorized users file
// Sockets travel as shared_ptr: a channel needs default-constructible values.
using stream_channel =
    asio::experimental::channel<void(asio::error_code, std::shared_ptr<tcp::socket>)>;

std::string describe(const tcp::endpoint& e) {
  return fmt::format("{} port {}", e.address().to_string(), e.port());
}

// Human summary of a finished test, the one log line per test.
std::string summary(const measure::test_result& r) {
  std::uint64_t bytes = 0;
  double seconds = 0;
  for (const auto& s : r.streams) {
    bytes += s.receiver.bytes;
    seconds = std::max(seconds, s.receiver.seconds);
  }
  const double mbps = measure::bits_per_second(bytes, seconds) / 1e6;
  const auto& sp = r.spec;
  return fmt::format(
      "{} {} stream(s) {}, {:.1f} s, {} bytes received at {:.1f} Mbit/s",
      sp.proto == measure::protocol::tcp ? "TCP" : "UDP", sp.parallel,
      sp.bidirectional ? "both ways" : (sp.reverse ? "server sends" : "client sends"), seconds,
      bytes, mbps);
}

// iperf3's MAX_TIME: no test, timed or untimed, runs longer than this (plus omit and the guard).
constexpr std::chrono::seconds longest_test{86400};

// A cap of o that spec asks more than: the error to send and the reason to log.
struct cap_refusal {
  iperf3::server_error error;
  std::string why;
};
std::optional<cap_refusal> over_cap(const measure::test_spec& spec, const server_options& o) {
  const int ways = spec.bidirectional ? 2 : 1;
  const auto streams = static_cast<std::int64_t>(spec.parallel) * ways;
  if (streams > o.max_streams) {
    return cap_refusal{
        {iperf3::ie_num_streams, 0},
        fmt::format("{} streams asked, more than --max-streams {}", streams, o.max_streams)};
  }
  const bool untimed = spec.bytes != 0 || spec.blocks != 0;
  if (o.max_duration.count() > 0 && (untimed || spec.duration + spec.omit > o.max_duration)) {
    return cap_refusal{
        {iperf3::ie_max_duration_exceeded, 0},
        untimed ? fmt::format("an untimed test (-n/-k) under --server-max-duration {} s",
                              o.max_duration.count())
                : fmt::format("{} s (-t + -O) asked, more than --server-max-duration {} s",
                              (spec.duration + spec.omit).count(), o.max_duration.count())};
  }
  const double asked =
      static_cast<double>(spec.effective_bitrate()) * static_cast<double>(spec.parallel) * ways;
  if (o.bitrate_limit > 0 && asked > static_cast<double>(o.bitrate_limit)) {
    return cap_refusal{{iperf3::ie_total_rate, 0},
                       fmt::format("{:.0f} bit/s asked (-b × -P{}), more than "
                                   "--server-bitrate-limit {} bit/s",
                                   asked, ways == 2 ? " × 2 both ways" : "", o.bitrate_limit)};
  }
  return std::nullopt;
}

// A test the server ended, after sending the client SERVER_ERROR and the reason's i_errno.
class ended_by_server : public worded_error {
 public:
  using worded_error::worded_error;
};

// Answers ACCESS_DENIED (busy, or a wrong cookie) and closes, as iperf3 does.
void deny(tcp::socket& sock) {
  const std::array<std::uint8_t, 1> denied{static_cast<std::uint8_t>(iperf3::state::access_denied)};
  asio::error_code ignored;
  asio::write(sock, asio::buffer(denied), ignored);  // iperf3 does the same for a wrong cookie
  sock.close(ignored);
}

}  // namespace

// One test, from the control connection to the results.
class test_session : public std::enable_shared_from_this<test_session> {
 public:
  test_session(detail::server_impl& srv, tcp::socket sock, std::string peer);
  awaitable<void> run();
  // The listener hands over data stream connections while this session is creating streams.
  [[nodiscard]] bool accepting_streams() const noexcept { return accepting_; }
  // True once the session has nothing left but its goodbye: the results are displayed, or the
  // client was refused (the accept loop waits for its end instead of answering busy).
  [[nodiscard]] bool finishing() const noexcept { return finishing_; }
  // A connection that came while accepting_streams(): its cookie is read on its own, so a silent
  // one delays no other; only this test's cookie makes it a stream (others get ACCESS_DENIED).
  void deliver(tcp::socket sock);
  void abort() noexcept { ctl_.close(); }
  // Closes the control connection of a session that ends now (a refusal), marked finishing.
  void end_session() noexcept {
    finishing_ = true;
    ctl_.close();
  }

 private:
  awaitable<void> create_streams(const iperf3::test_params& spec, traffic::test_run& run);
  // Each within the one deadline of stream creation (streams_deadline_), which nothing restarts.
  awaitable<sys::unique_fd> accept_tcp_stream();
  awaitable<sys::unique_fd> accept_udp_stream(const measure::test_spec& spec,
                                              udp::socket& listener);
  // op, while the client must be silent: throws timed_out (`what`) when streams_deadline_ passes
  // first, and what the client did when it speaks or closes the control connection meanwhile.
  template <typename T>
  awaitable<T> while_silent(awaitable<T> op, std::string what);
  // Reads a delivered connection's cookie (bounded by streams_deadline_) and hands it on.
  awaitable<void> check_cookie(std::shared_ptr<tcp::socket> sock);
  awaitable<void> run_test(traffic::test_run& run);
  // A hilperf extension request (TCP_RR, TCP_CRR, UDP_RR) instead of an iperf3 test.
  awaitable<void> run_extension(const iperf3::extension_request& request);
  // An accepted FRAME_COUNT request: the frames counted until TEST_END, the counts sent back.
  awaitable<void> run_frame_count(const iperf3::frame_count_request& request);
  // Waits for TEST_END until guard, calling tick at next and every step after it, and watch at
  // every wake (it throws to end the test); throws for a terminating client, a stopping server
  // or the guard passing.
  awaitable<void> await_test_end(clock::time_point guard, clock::time_point next,
                                 std::chrono::milliseconds step, const std::function<void()>& tick,
                                 const std::function<void()>& watch);
  [[nodiscard]] udp::socket udp_listener();
  // After the results: waits briefly for IPERF_DONE (EOF is as good), closes, counts the test.
  awaitable<void> say_goodbye();
  // With server_options::auth: whether token admits the test; if not, logs why, sends the
  // client SERVER_ERROR (IEAUTHTEST) and closes.
  bool authorized(const std::optional<std::string>& token);
  // SERVER_ERROR and its 8 bytes, best effort (the client may be gone).
  void send_server_error(const iperf3::server_error& e) noexcept;

  detail::server_impl& srv_;
  control_channel ctl_;
  stream_channel streams_;                           // data stream connections from the accept loop
  std::string cookie_;                               // the client's cookie, as received (37 bytes)
  std::uint64_t payload_seed_ = new_payload_seed();  // of the streams this end sends
  std::vector<measure::stream_endpoint> connected_;  // the data streams, as accepted
  clock::time_point streams_deadline_;               // of stream creation, set once
  int unchecked_ = 0;                                // delivered connections whose cookie is due
  bool accepting_ = false;                           // between CREATE_STREAMS and TEST_START
  bool finishing_ = false;  // DISPLAY_RESULTS sent or the client refused: only the end is left
};

// How long the accept loop waits after running out of descriptors before it tries again.
constexpr std::chrono::milliseconds accept_pause{100};

namespace detail {
struct server_impl {
  explicit server_impl(server_options opts) : o(std::move(opts)), acceptor(io), idle_timer(io) {
    listen();
  }

  void listen() {
    listen_dual_stack(acceptor, o.bind_address, o.port, "stop it or choose another port with -p");
  }

  void log(const std::string& line) const {
    if (o.log) o.log(line);
  }

  awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, sock] = co_await acceptor.async_accept(asio::experimental::as_tuple(use_awaitable));
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      if (ec) {
        co_await back_off_accepting(ec);
        continue;
      }
      out_of_descriptors = false;
      // A client that starts its next test right after the last one can beat the end of our
      // session (IPERF_DONE read, sockets closed): wait for that instead of answering busy.
      for (int i = 0; i < 200 && current && current->finishing(); ++i) {
        asio::steady_timer pause(io, 10ms);
        co_await pause.async_wait(use_awaitable);
      }
      if (current && current->accepting_streams()) {
        current->deliver(std::move(sock));
      } else if (current) {
        // Busy: iperf3 answers ACCESS_DENIED without reading anything.
        asio::error_code ignored;
        log(fmt::format("refused {}: busy with a test", describe(sock.remote_endpoint(ignored))));
        deny(sock);
      } else {
        start_session(std::move(sock));
      }
    }
  }

  // A failed accept: out of descriptors (or memory) the pending connection stays queued and the
  // next accept fails at once, so wait a little instead of spinning, and say so once per episode.
  awaitable<void> back_off_accepting(const std::error_code& ec) {
    const bool exhausted = ec == asio::error::no_descriptors ||
                           ec == asio::error::no_buffer_space || ec == asio::error::no_memory ||
                           ec.value() == ENFILE;
    if (!exhausted) co_return;  // a connection reset before we took it: nothing to wait for
    if (!out_of_descriptors) {
      log(
          fmt::format("cannot accept connections: {}; retrying every {} ms (raise the limit with "
                      "ulimit -n, or close what holds them)",
                      ec.message(), accept_pause.count()));
      out_of_descriptors = true;
    }
    asio::steady_timer pause(io, accept_pause);
    co_await pause.async_wait(asio::experimental::as_tuple(use_awaitable));
  }

  void start_session(tcp::socket sock) {
    asio::error_code ignored;
    const std::string peer = describe(sock.remote_endpoint(ignored));
    current = std::make_shared<test_session>(*this, std::move(sock), peer);
    asio::co_spawn(io, current->run(), [this, keep = current, peer](std::exception_ptr e) {
      if (e) {
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& ex) {
          log(fmt::format("test from {} ended early: {}", peer, ex.what()));
        }
      }
      current.reset();
      last_activity = std::chrono::steady_clock::now();
      if (o.one_off) stop();
    });
  }

  awaitable<void> idle_watch() {
    if (o.idle_timeout.count() == 0) co_return;
    for (;;) {
      idle_timer.expires_after(1s);
      auto [ec] = co_await idle_timer.async_wait(asio::experimental::as_tuple(use_awaitable));
      if (ec || stopping) co_return;
      if (!current && std::chrono::steady_clock::now() - last_activity >= o.idle_timeout) {
        log(fmt::format("no client for {} s: stopping (--idle-timeout)", o.idle_timeout.count()));
        stop();
        co_return;
      }
    }
  }

  void stop() {
    stopping = true;
    asio::error_code ignored;
    acceptor.close(ignored);
    idle_timer.cancel();
    if (current) current->abort();
  }

  server_options o;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer idle_timer;
  std::shared_ptr<test_session> current;  // the test in progress, if any
  int completed = 0;
  bool out_of_descriptors = false;  // the last accept failed for want of them (logged once)
  bool stopping = false;
  std::chrono::steady_clock::time_point last_activity = std::chrono::steady_clock::now();
};
}  // namespace detail

test_session::test_session(detail::server_impl& srv, tcp::socket sock, std::string peer)
    : srv_(srv), ctl_(std::move(sock), std::move(peer)), streams_(srv.io, 256) {}

awaitable<void> test_session::run() {
  cookie_.resize(iperf3::cookie_size);
  co_await ctl_.read_exact(
      std::span(reinterpret_cast<std::uint8_t*>(cookie_.data()), iperf3::cookie_size), 10s);
  if (!iperf3::is_valid_cookie(cookie_)) {
    const bool iperf2 = iperf2::classify_first_byte(static_cast<std::uint8_t>(cookie_[0])) ==
                        iperf2::first_byte_kind::iperf2;
    srv_.log(fmt::format("rejected {}: not an iperf3 client ({})", ctl_.peer(),
                         iperf2 ? "an iperf 2 header: iperf 2 clients are served on hilperf-peer's "
                                  "--iperf2-port, 5001 by default, as by iperf -s"
                                : "bad cookie"));
    end_session();
    co_return;
  }
  co_await ctl_.write_state(iperf3::state::param_exchange);
  iperf3::test_params spec;
  std::optional<iperf3::extension_request> extension;
  std::optional<std::string> authtoken;
  try {
    const std::string params =
        co_await ctl_.read_frame(iperf3::max_param_json, srv_.o.control_timeout);
    auto request = iperf3::decode_client_params(params);
    spec = std::move(request.spec);
    authtoken = std::move(request.authtoken);
    extension = iperf3::decode_request(params);
  } catch (const std::system_error& e) {
    if (e.code() != std::errc::protocol_error) throw;
    send_server_error({iperf3::ie_recv_params, EINVAL});
    throw;
  }
  if (srv_.o.auth && !authorized(authtoken)) co_return;
  if (const auto cap = over_cap(spec, srv_.o)) {
    srv_.log(fmt::format("refused test from {}: {}", ctl_.peer(), cap->why));
    send_server_error(cap->error);
    end_session();
    co_return;
  }
  if (extension) {
    co_await run_extension(*extension);
    co_return;
  }
  traffic::test_run run(spec);
  co_await create_streams(spec, run);
  co_await ctl_.write_state(iperf3::state::test_start);
  co_await ctl_.write_state(iperf3::state::test_running);
  co_await run_test(run);

  co_await ctl_.write_state(iperf3::state::exchange_results);
  const auto client = iperf3::decode_results(
      co_await ctl_.read_frame(iperf3::max_results_json, srv_.o.control_timeout));
  measure::test_result r = run.result(from_exchange(client));
  r.is_client = false;
  asio::error_code gone;  // the client may already have closed: the address is then unknown
  if (const auto from = ctl_.socket().remote_endpoint(gone); !gone) {
    r.remote_host = unmapped(from.address()).to_string();
    r.remote_port = from.port();
  }
  r.cookie = cookie_.substr(0, iperf3::cookie_size - 1);
  r.payload_seed = payload_seed_;
  r.connected = connected_;
  auto mine = to_exchange(run.local_totals());
  if (spec.get_server_output && srv_.o.server_output) {
    mine.server_output_text = srv_.o.server_output(r);
  }
  co_await ctl_.write_frame(iperf3::encode_results(mine));
  co_await ctl_.write_state(iperf3::state::display_results);
  co_await say_goodbye();
  srv_.log(fmt::format("test {} from {}: {}", srv_.completed, ctl_.peer(), summary(r)));
  if (srv_.o.on_result) srv_.o.on_result(r);
}

bool test_session::authorized(const std::optional<std::string>& token) {
  const auto& auth = *srv_.o.auth;
  iperf3::server_error refusal{iperf3::ie_auth_test, 0};
  std::string why;
  try {
    const std::string users = sys::read_text_file(auth.users_path, max_users_file);
    const auto d = iperf3::authenticate(token, auth.private_key, users, std::time(nullptr),
                                        auth.skew_threshold.count(), auth.accept_pkcs1);
    if (d.admitted) {
      srv_.log(fmt::format("{} authenticated as \"{}\"", ctl_.peer(), d.username));
      return true;
    }
    why = d.reason;
  } catch (const std::system_error& e) {
    refusal = {iperf3::ie_server_auth_users, e.code().value()};
    why = e.what();
  }
  srv_.log(fmt::format("refused test from {}: authentication failed: {}", ctl_.peer(), why));
  // iperf3 3.12's answer, which every client prints: "test authorization failed" (or, when the
  // users file is unreadable, "cannot access authorized users file").
  send_server_error(refusal);
  end_session();
  return false;
}

void test_session::send_server_error(const iperf3::server_error& e) noexcept {
  const auto bytes = iperf3::encode_server_error(e);
  ctl_.send_state_best_effort(iperf3::state::server_error);
  asio::error_code ignored;
  asio::write(ctl_.socket(), asio::buffer(bytes), ignored);
}

awaitable<void> test_session::say_goodbye() {
  finishing_ = true;
  try {
    (void)co_await ctl_.read_state(10s);
  } catch (const std::system_error&) {
  }
  ctl_.close();
  ++srv_.completed;
}

udp::socket test_session::udp_listener() {
  const auto at = srv_.acceptor.local_endpoint();
  udp::socket s(srv_.io);
  s.open(at.protocol() == tcp::v6() ? udp::v6() : udp::v4());
  s.set_option(udp::socket::reuse_address(true));
  if (at.protocol() == tcp::v6()) s.set_option(asio::ip::v6_only(false));
  s.bind(udp::endpoint(at.address(), at.port()));
  return s;
}

// At most this many connections wait for their cookie at once during stream creation; more are
// denied at once (a stock client connects its streams one after another).
constexpr int max_unchecked = 16;

void test_session::deliver(tcp::socket sock) {
  if (unchecked_ >= max_unchecked) {
    deny(sock);
    return;
  }
  ++unchecked_;
  asio::co_spawn(srv_.io, check_cookie(std::make_shared<tcp::socket>(std::move(sock))),
                 [self = shared_from_this()](const std::exception_ptr&) { --self->unchecked_; });
}

awaitable<void> test_session::check_cookie(std::shared_ptr<tcp::socket> sock) {
  std::string cookie(iperf3::cookie_size, '\0');
  const auto read = co_await until(
      asio::async_read(*sock, asio::buffer(cookie), asio::experimental::as_tuple(use_awaitable)),
      streams_deadline_);
  if (read && !std::get<0>(*read) && accepting_ && cookie == cookie_) {
    streams_.try_send(asio::error_code(), std::move(sock));
  } else {
    deny(*sock);
  }
}

template <typename T>
awaitable<T> test_session::while_silent(awaitable<T> op, std::string what) {
  using namespace asio::experimental::awaitable_operators;
  // Both captured: asio's || waits for the first to succeed, and a failure (the server stopping
  // closes the control socket) must end the wait too.
  auto done = co_await until(
      detail::capture(std::move(op)) || detail::capture(ctl_.wait_readable()), streams_deadline_);
  if (!done) throw std::system_error(std::make_error_code(std::errc::timed_out), what);
  if (done->index() == 1) {
    if (const auto& failed = std::get<1>(*done).error) std::rethrow_exception(failed);
    co_await ctl_.throw_unexpected_input("stream creation");
  }
  auto& out = std::get<0>(*done);
  if (out.error) std::rethrow_exception(out.error);
  co_return std::move(*out.value);
}

awaitable<void> test_session::create_streams(const iperf3::test_params& spec,
                                             traffic::test_run& run) {
  std::optional<udp::socket> listener;
  if (spec.proto == measure::protocol::udp) listener.emplace(udp_listener());
  // One deadline for all of them: a client that keeps connecting with wrong cookies (or another
  // client's retries) cannot hold the server past it.
  streams_deadline_ = clock::now() + srv_.o.control_timeout;
  accepting_ = true;
  co_await ctl_.write_state(iperf3::state::create_streams);
  const auto per_direction = static_cast<std::size_t>(spec.parallel);
  const std::size_t total = per_direction * (spec.bidirectional ? 2 : 1);
  for (std::size_t i = 0; i < total; ++i) {
    // The client connects its senders first: our first `parallel` streams receive in bidir.
    const bool we_send = spec.bidirectional ? i >= per_direction : spec.reverse;
    sys::unique_fd fd;  // (GCC 12 miscompiles co_await inside ?:, hence the if)
    if (listener) {
      fd = co_await accept_udp_stream(spec, *listener);
    } else {
      fd = co_await accept_tcp_stream();
    }
    const int family = srv_.acceptor.local_endpoint().protocol().family();
    traffic::apply_data_options(fd.get(), family, spec);
    connected_.push_back(describe_stream(fd.get(), stream_id(i)));
    const auto role = we_send ? traffic::flow_role::send : traffic::flow_role::receive;
    run.add_flow(std::make_unique<traffic::flow>(
        std::move(fd), family, flow_config_for(spec, stream_id(i), role, payload_seed_)));
  }
  accepting_ = false;
}

awaitable<sys::unique_fd> test_session::accept_tcp_stream() {
  const auto delivered = co_await while_silent(streams_.async_receive(use_awaitable),
                                               "the client did not connect its data streams");
  co_return sys::unique_fd(delivered->release());
}

awaitable<sys::unique_fd> test_session::accept_udp_stream(const measure::test_spec& spec,
                                                          udp::socket& listener) {
  std::array<std::uint8_t, 64> hello{};
  udp::endpoint from;
  // Only the control connection's own host may open a stream: a hello from anywhere else (a
  // spoofed or foreign source) would aim the test's stream at an address that never asked.
  asio::error_code gone;
  const auto client = unmapped(ctl_.socket().remote_endpoint(gone).address());
  for (;;) {
    co_await while_silent(listener.async_receive_from(asio::buffer(hello), from, use_awaitable),
                          "the client sent no UDP stream hello");
    if (!gone && unmapped(from.address()) == client) break;
    srv_.log(fmt::format("ignored a UDP stream hello from {}: the test's client is {}",
                         unmapped(from.address()).to_string(), client.to_string()));
  }
  // The socket that heard the hello becomes the stream; a fresh listener takes the next hello.
  listener.connect(from);
  udp::socket stream = std::exchange(listener, udp_listener());
  enlarge_udp_receive_buffer(stream.native_handle(), 32 << 20);
  if (spec.window == 0) {
    const int need = static_cast<int>(spec.effective_block_len()) + 1024;
    if (traffic::socket_buffer(stream.native_handle(), true) < need) {
      ::setsockopt(stream.native_handle(), SOL_SOCKET, SO_SNDBUF, &need, sizeof(need));
    }
  }
  co_await stream.async_send(asio::buffer(iperf3::udp_connect_reply), use_awaitable);
  co_return sys::unique_fd(stream.release());
}

awaitable<void> test_session::run_test(traffic::test_run& run) {
  const auto& spec = run.spec();
  run.start();
  const auto t0 = run.t0();
  const bool timed = spec.bytes == 0 && spec.blocks == 0;
  const auto guard = t0 + (timed ? spec.duration : longest_test) + spec.omit + srv_.o.guard_slack;
  std::optional<bitrate_cap> cap;
  if (srv_.o.bitrate_limit > 0) cap.emplace(srv_.o.bitrate_limit, srv_.o.bitrate_window, t0);
  const auto step = spec.interval;
  const auto first = step.count() > 0 ? t0 + step : clock::time_point::max();
  // An untimed test (-n, -k) ends when nothing has moved on any of its streams for rcv_timeout
  // (iperf3's --rcv-timeout), so a client that never sends cannot hold the server; one that keeps
  // sending is cut at longest_test.
  std::uint64_t moved = 0;
  auto last_move = t0;
  const auto watch = [&] {
    if (timed && !cap) return;
    std::uint64_t now_moved = 0;
    for (const auto& f : run.flows()) now_moved += f->sample().bytes;
    const auto now = clock::now();
    if (cap) {
      if (const auto average = cap->exceeded(now, now_moved)) {
        send_server_error({iperf3::ie_total_rate, 0});
        throw ended_by_server(
            std::make_error_code(std::errc::operation_not_permitted),
            fmt::format("{:.0f} bit/s averaged over {} s, more than --server-bitrate-limit {} "
                        "bit/s: test ended",
                        *average, cap->window().count(), cap->limit()));
      }
    }
    if (timed) return;
    if (now_moved != moved) {
      moved = now_moved;
      last_move = now;
    } else if (now - last_move >= srv_.o.rcv_timeout) {
      throw std::system_error(
          std::make_error_code(std::errc::timed_out),
          fmt::format("no data for {} s in an untimed test (-n/-k): the client stopped sending "
                      "(--rcv-timeout)",
                      std::chrono::duration<double>(srv_.o.rcv_timeout).count()));
    }
  };
  std::exception_ptr ended;
  try {
    co_await await_test_end(
        guard, first, step, [&] { run.sample_interval(clock::now()); }, watch);
  } catch (const ended_by_server&) {
    ended = std::current_exception();
  }
  if (ended) {
    // The streams stay open until the client has read why (it closes), 500 ms at most: a client
    // whose writes failed first would print "Connection reset by peer" instead of our error.
    (void)co_await until(detail::capture(ctl_.wait_readable()), clock::now() + 500ms);
    std::rethrow_exception(ended);
  }
  run.finish();
  run.close();  // like iperf3: data sockets close on TEST_END, before the results
}

awaitable<void> test_session::run_extension(const iperf3::extension_request& request) {
  const std::string what =
      request.version != iperf3::extension_version
          ? fmt::format("a version-{} extension request", request.version)
          : std::string(request.frames ? iperf3::frame_count_workload
                                       : measure::workload_name(request.spec.kind));
  if (const auto why = iperf3::validate_request(request); !why.empty()) {
    co_await ctl_.write_bytes(std::array<std::uint8_t, 1>{iperf3::extension_refuse});
    co_await ctl_.write_frame(iperf3::encode_refuse(why));
    srv_.log(fmt::format("refused {} from {}: {}", what, ctl_.peer(), why));
    end_session();
    co_return;
  }
  if (request.frames) {
    co_await run_frame_count(*request.frames);
    co_return;
  }
  // The data listeners share the address the client reached (a v4-mapped one made plain IPv4),
  // and serve only the control connection's host, with this test's token.
  const auto local = unmapped(ctl_.socket().local_endpoint().address());
  const auto client = unmapped(ctl_.socket().remote_endpoint().address());
  const auto token = new_data_token();
  traffic::rr_responder responder(
      traffic::socket_address::parse(local.to_string(), srv_.o.data_port), request.spec,
      extension_hello(token), traffic::socket_address::parse(client.to_string(), 0));
  responder.start();
  co_await ctl_.write_bytes(std::array<std::uint8_t, 1>{iperf3::extension_accept});
  co_await ctl_.write_frame(iperf3::encode_accept(
      {iperf3::extension_version, responder.tcp_port(), responder.udp_port(), token}));
  srv_.log(fmt::format("{} from {} accepted ({} B/{} B) on data port {}", what, ctl_.peer(),
                       request.spec.request_size, request.spec.response_size,
                       responder.tcp_port()));
  co_await await_test_end(
      clock::now() + request.spec.duration + traffic::load_warmup + srv_.o.guard_slack,
      clock::time_point::max(), std::chrono::milliseconds(0), [] {}, [] {});
  responder.stop();
  const auto cpu = responder.cpu();
  co_await ctl_.write_state(iperf3::state::exchange_results);
  co_await ctl_.write_frame(
      iperf3::encode_ext_results({responder.transactions(), cpu.total, cpu.user, cpu.system}));
  co_await say_goodbye();
  srv_.log(fmt::format("test {} from {}: {} ({} B/{} B) on data port {}, {} transactions answered",
                       srv_.completed, ctl_.peer(), what, request.spec.request_size,
                       request.spec.response_size, responder.tcp_port(), responder.transactions()));
  if (const auto away = responder.turned_away(); away > 0) {
    srv_.log(
        fmt::format("test {} from {}: {} data connections or datagrams turned away (another "
                    "host, no token of this test, or more connections than it needs)",
                    srv_.completed, ctl_.peer(), away));
  }
}

awaitable<void> test_session::run_frame_count(const iperf3::frame_count_request& request) {
  // The socket (and the XDP counter on its port) at the address the client reached, counting
  // only the control connection's host on the socket.
  const auto local = unmapped(ctl_.socket().local_endpoint().address());
  const auto client = unmapped(ctl_.socket().remote_endpoint().address());
  frame_count_service service(local.to_string(), client.to_string(), srv_.o.data_port, request,
                              srv_.o.xdp_counter);
  const auto accept = service.accept();
  co_await ctl_.write_bytes(std::array<std::uint8_t, 1>{iperf3::extension_accept});
  co_await ctl_.write_frame(iperf3::encode_count_accept(accept));
  srv_.log(fmt::format(
      "FRAME_COUNT from {} accepted: UDP port {}, counted {}{}{}", ctl_.peer(), accept.udp_port,
      accept.method == iperf3::count_method::xdp ? fmt::format("in XDP ({})", accept.attach_mode)
                                                 : std::string("on the socket"),
      accept.why.empty() ? "" : ": ", accept.why));
  co_await await_test_end(
      clock::now() + request.duration + srv_.o.guard_slack, clock::time_point::max(),
      std::chrono::milliseconds(0), [] {}, [] {});
  service.finish();
  const auto counted = service.result();
  co_await ctl_.write_state(iperf3::state::exchange_results);
  co_await ctl_.write_frame(iperf3::encode_count_results(counted));
  co_await say_goodbye();
  srv_.log(fmt::format("test {} from {}: FRAME_COUNT, {} frames, {} bytes counted {}",
                       srv_.completed, ctl_.peer(), counted.frames, counted.bytes,
                       counted.method == iperf3::count_method::xdp ? "in XDP" : "on the socket"));
}

awaitable<void> test_session::await_test_end(clock::time_point guard, clock::time_point next,
                                             std::chrono::milliseconds step,
                                             const std::function<void()>& tick,
                                             const std::function<void()>& watch) {
  for (;;) {
    const auto now = clock::now();
    if (now >= guard) {
      send_server_error({iperf3::ie_server_duration_expired, 0});  // iperf3 3.21's words for it
      throw ended_by_server(std::make_error_code(std::errc::timed_out),
                            "the test ran past its duration plus the guard time");
    }
    if (srv_.stopping) {
      ctl_.send_state_best_effort(iperf3::state::server_terminate);
      throw std::system_error(std::make_error_code(std::errc::operation_canceled),
                              "the server is stopping");
    }
    const auto wake = std::min({next, guard, now + 200ms});  // (GCC 12: no braced list in co_await)
    const auto s = co_await ctl_.poll_state(wake);
    if (s == iperf3::state::test_end) co_return;
    if (s == iperf3::state::client_terminate) {
      throw std::system_error(std::make_error_code(std::errc::connection_aborted),
                              "the client terminated the test (CLIENT_TERMINATE)");
    }
    if (s) {
      throw std::system_error(std::make_error_code(std::errc::protocol_error),
                              fmt::format("unexpected {} during the test", iperf3::state_name(*s)));
    }
    if (clock::now() >= next) {
      tick();
      next += step;
    }
    watch();
  }
}

server::server(server_options options)
    : impl_(std::make_unique<detail::server_impl>(std::move(options))) {}
server::~server() = default;

std::uint16_t server::port() const { return impl_->acceptor.local_endpoint().port(); }

int server::run() {
  asio::co_spawn(impl_->io, impl_->accept_loop(), asio::detached);
  asio::co_spawn(impl_->io, impl_->idle_watch(), asio::detached);
  impl_->io.run();
  return impl_->completed;
}

void server::stop() {
  asio::post(impl_->io, [this] { impl_->stop(); });
}

}  // namespace hil::session
