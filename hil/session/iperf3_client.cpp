#include "hil/session/iperf3_client.hpp"

#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>

#include <random>

#include <fmt/format.h>

#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/iperf3_framing.hpp"
#include "hil/session/iperf3_streams.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;
using asio::ip::tcp;
using namespace std::chrono_literals;

// Before TEST_END, the last UDP datagrams first leave this host (the qdisc and the driver may hold
// a queue's worth: 26 ms of 1518-byte frames in a 20-frame queue at 10 Mbit/s, a second for a
// 1,000-frame txqueue), for at most host_drain_limit — a port that holds them longer counts them
// lost — then get udp_drain to cross the link and be read (a LAN's flight is far shorter).
// iperf3 itself sends TEST_END at once: a stock server stops reading on it, so a tail still
// queued, or arriving just ahead of TEST_END, went missing from its counts.
constexpr auto host_drain_limit = 2s;
constexpr auto host_drain_poll = 2ms;
constexpr auto udp_drain = 20ms;
// An untimed test the server sends (-R with -n or -k) ends when all of it arrived, or when
// nothing more arrived for this long (its tail was lost: a UDP burst the port dropped), or for
// peer_start_quiet before the first byte.
constexpr auto peer_tail_quiet = 1s;
constexpr auto peer_start_quiet = 5s;

// Which way each of the client's streams goes: bidir makes our senders first, then receivers.
std::vector<traffic::flow_role> client_roles(const measure::test_spec& s) {
  std::vector<traffic::flow_role> roles;
  const auto n = static_cast<std::size_t>(s.parallel);
  if (s.bidirectional) {
    roles.assign(n, traffic::flow_role::send);
    roles.insert(roles.end(), n, traffic::flow_role::receive);
  } else {
    roles.assign(n, s.reverse ? traffic::flow_role::receive : traffic::flow_role::send);
  }
  return roles;
}

class client_session {
 public:
  client_session(const client_options& o, tcp::endpoint to)
      : o_(o),
        to_(std::move(to)),
        run_(o.spec),
        cookie_(iperf3::make_cookie(std::random_device{}())) {}

  awaitable<measure::test_result> run() {
    started_ = std::chrono::system_clock::now();
    // A server still busy with its last test: retry briefly (control_connect.hpp).
    co_return co_await with_busy_retry<measure::test_result>(
        settings(), to_, o_.spec, o_.busy_retry, st_,
        [this](control_channel& ctl) { return exchange(ctl); });
  }

 private:
  [[nodiscard]] connect_settings settings() const {
    return {o_.host, o_.port, o_.connect_timeout, o_.refused_retry};
  }

  awaitable<measure::test_result> exchange(control_channel& ctl) {
    co_await ctl.write_bytes(
        std::span(reinterpret_cast<const std::uint8_t*>(cookie_.data()), cookie_.size()));
    iperf3::exchange_results remote;
    for (;;) {
      const iperf3::state s = co_await next_state(ctl);
      st_.answered = true;
      switch (s) {
        case iperf3::state::param_exchange:
          co_await ctl.write_frame(iperf3::encode_params(o_.spec, authtoken_now(o_.auth)));
          params_sent_ = true;
          break;
        case iperf3::state::create_streams:
          params_sent_ = false;
          co_await create_streams();
          break;
        case iperf3::state::test_start:
          break;
        case iperf3::state::test_running:
          co_await run_test(ctl);
          break;
        case iperf3::state::exchange_results:
          run_.finish();
          co_await ctl.write_frame(iperf3::encode_results(to_exchange(run_.local_totals())));
          remote = iperf3::decode_results(
              co_await ctl.read_frame(iperf3::max_results_json, o_.control_timeout));
          break;
        case iperf3::state::display_results:
          st_.done = true;
          co_await ctl.write_state(iperf3::state::iperf_done);
          ctl.close();
          co_return result(remote, ctl);
        default:
          co_await fail_on(s, ctl);
      }
    }
  }

  // Turns a state that ends the test early into its error.
  awaitable<void> fail_on(iperf3::state s, control_channel& ctl) {
    if (server_gave_up(s)) st_.done = true;  // e.g. a busy server never accepted us
    co_await throw_for_state(ctl, s, o_.control_timeout, auth_refusal_hint(o_.auth));
  }

  // The next state byte. A server that closes the connection right after reading the
  // parameters refused them without a word: iperf3 3.17+ does that when authentication fails.
  awaitable<iperf3::state> next_state(control_channel& ctl) {
    std::optional<std::system_error> closed;
    try {
      co_return co_await ctl.read_state(o_.control_timeout);
    } catch (const std::system_error& e) {
      if (!params_sent_ || e.code() != asio::error::eof) throw;
      closed = e;
    }
    st_.done = true;  // nothing more is owed to a server that hung up
    throw worded_error(
        closed->code(),
        fmt::format("{} after reading the test parameters, without an error state; iperf3 3.17 "
                    "and later do that when they refuse a test's authentication — {}",
                    closed->what(), auth_refusal_hint(o_.auth)));
  }

  awaitable<void> create_streams() {
    const auto roles = client_roles(o_.spec);
    for (std::size_t i = 0; i < roles.size(); ++i) {
      const int id = stream_id(i);
      sys::unique_fd fd;  // (GCC 12 miscompiles co_await inside ?:, hence the if)
      if (o_.spec.proto == measure::protocol::tcp) {
        fd = co_await connect_tcp_stream(to_, o_.spec, cookie_, o_.connect_timeout);
      } else {
        fd = co_await connect_udp_stream(to_, o_.spec, o_.control_timeout);
      }
      const auto endpoint = describe_stream(fd.get(), id);
      connected_.push_back(endpoint);
      if (o_.on_connected) o_.on_connected(endpoint);
      run_.add_flow(
          std::make_unique<traffic::flow>(std::move(fd), to_.protocol().family(),
                                          flow_config_for(o_.spec, id, roles[i], payload_seed_)));
    }
  }

  // The running test: intervals until -t passes (or -n/-k is reached), then TEST_END.
  awaitable<void> run_test(control_channel& ctl) {
    run_.start();
    const auto t0 = run_.t0();
    const bool timed = o_.spec.bytes == 0 && o_.spec.blocks == 0;
    const auto end = t0 + o_.spec.duration + o_.spec.omit;
    const auto step =
        o_.spec.interval.count() > 0 ? o_.spec.interval : std::chrono::milliseconds(0);
    auto next = step.count() > 0 ? t0 + step : clock::time_point::max();
    auto last_sample = t0;
    // -R with -n/-k: this side has no sender to reach the limit; it watches what arrives.
    const bool peer_sends_untimed = !timed && !run_.has_senders();
    std::pair<std::uint64_t, std::uint64_t> got{0, 0};
    auto last_arrival = t0;
    const auto peer_done = [&](clock::time_point now) {
      const auto g = run_.received();
      if (g != got) {
        got = g;
        last_arrival = now;
      }
      if (o_.spec.bytes > 0 && got.first >= o_.spec.bytes) return true;
      if (o_.spec.blocks > 0 && got.second >= o_.spec.blocks) return true;
      return now - last_arrival > (got.first == 0 ? peer_start_quiet : peer_tail_quiet);
    };
    for (;;) {
      const auto now = clock::now();
      if (timed ? now >= end : (peer_sends_untimed ? peer_done(now) : run_.senders_done())) break;
      if (o_.abort != nullptr && o_.abort->load()) {
        throw std::system_error(std::make_error_code(std::errc::operation_canceled),
                                "interrupted; sent CLIENT_TERMINATE to the server");
      }
      if (const auto err = run_.flow_error(); !err.empty()) {
        // A peer that died or gave up resets its data streams and closes the control connection
        // at the same moment; whichever the client notices first, the control connection names
        // the cause (closed, or the server's error state). Only without that is it the stream's.
        if (const auto s = co_await ctl.poll_state(clock::now() + 200ms)) co_await fail_on(*s, ctl);
        throw_flow_error(err);
      }
      const auto wake = std::min({next, timed ? end : clock::time_point::max(), now + 200ms});
      if (const auto s = co_await ctl.poll_state(wake)) co_await fail_on(*s, ctl);
      if (clock::now() >= next) {
        last_sample = clock::now();
        const auto sample = run_.sample_interval(last_sample);
        if (o_.on_interval) o_.on_interval(sample);
        next += step;
      }
    }
    run_.stop_senders();
    if (step.count() > 0 && clock::now() - last_sample > step / 10) {
      const auto sample = run_.sample_interval(clock::now());
      if (o_.on_interval) o_.on_interval(sample);
    }
    if (o_.spec.proto == measure::protocol::udp && !o_.spec.reverse) {
      // A stock server closes its data sockets on TEST_END and never counts what is still in
      // flight: our last datagrams leave this host and land first, so "highest sequence == sent"
      // can hold (host_drain_limit above).
      run_.join_senders();
      const auto give_up = clock::now() + host_drain_limit;
      while (run_.senders_unsent_bytes() > 0 && clock::now() < give_up) {
        if (const auto s = co_await ctl.poll_state(clock::now() + host_drain_poll)) {
          co_await fail_on(*s, ctl);
        }
      }
      const auto drained = clock::now() + udp_drain;
      if (const auto s = co_await ctl.poll_state(drained)) co_await fail_on(*s, ctl);
    }
    co_await ctl.write_state(iperf3::state::test_end);
  }

  [[noreturn]] void throw_flow_error(const std::string& err) const {
    std::string hint;
    if (err.find("Message too long") != std::string::npos) {
      hint = fmt::format(
          " — a {}-byte datagram does not fit the path MTU and don't-fragment is "
          "set: check -l against the interface MTU (payload = MTU − 28 for IPv4)",
          o_.spec.effective_block_len());
    }
    throw std::system_error(std::make_error_code(std::errc::io_error), err + hint);
  }

  measure::test_result result(const iperf3::exchange_results& remote, control_channel& ctl) const {
    measure::test_result r = run_.result(from_exchange(remote));
    r.is_client = true;
    r.remote_host = o_.host;
    r.remote_port = o_.port;
    r.cookie = cookie_.substr(0, iperf3::cookie_size - 1);
    r.payload_seed = payload_seed_;
    r.started = started_;
    r.connected = connected_;
    r.tcp_mss = traffic::tcp_mss(ctl.socket().native_handle());
    if (!run_.flows().empty()) {
      r.sndbuf_actual = traffic::socket_buffer(run_.flows().front()->fd(), true);
      r.rcvbuf_actual = traffic::socket_buffer(run_.flows().front()->fd(), false);
    }
    const std::string local = run_.local_totals().congestion;
    const bool we_send = !o_.spec.reverse;
    r.sender_congestion = we_send ? local : remote.congestion_used;
    r.receiver_congestion = we_send ? remote.congestion_used : local;
    r.server_output_text = remote.server_output_text;
    r.server_output_json = remote.server_output_json;
    return r;
  }

  const client_options& o_;
  tcp::endpoint to_;  // the server's address
  traffic::test_run run_;
  std::string cookie_;  // 36 characters + NUL, as sent
  std::uint64_t payload_seed_ = new_payload_seed();
  std::vector<measure::stream_endpoint> connected_;
  std::chrono::system_clock::time_point started_;
  attempt_state st_;          // of the current attempt (control_connect.hpp)
  bool params_sent_ = false;  // between our parameters and the server's CREATE_STREAMS
};

}  // namespace

measure::test_result run_client(const client_options& options) {
  asio::io_context io;
  client_session session(options, resolve_peer(options.host, options.port));
  return run_to_end(io, session.run());
}

}  // namespace hil::session
