#include "hil/session/control_connect.hpp"

#include <fmt/format.h>

#include "hil/session/control_channel.hpp"
#include "hil/session/iperf3_streams.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;
using asio::ip::tcp;
using namespace std::chrono_literals;

// The procedure's "Common Issues" for a control connection that cannot be made.
[[noreturn]] void explain_connect_failure(const std::error_code& ec, const connect_settings& c) {
  throw std::system_error(
      ec, connect_failure_text(
              ec, c.host, c.port, c.connect_timeout,
              fmt::format("is `iperf3 -s -p {}` (or hilperf-peer) running there?", c.port)));
}

}  // namespace

std::string connect_failure_text(const std::error_code& ec, const std::string& host,
                                 std::uint16_t port, std::chrono::milliseconds timeout,
                                 const std::string& what_listens) {
  const std::string where = fmt::format("{}:{}", host, port);
  if (ec == asio::error::connection_refused) {
    return fmt::format("nothing listens on {} — {}", where, what_listens);
  }
  if (ec == std::errc::timed_out || ec == asio::error::timed_out) {
    return fmt::format("no answer from {} within {} s — same subnet? a firewall blocking port {}?",
                       where, timeout.count() / 1000.0, port);
  }
  if (ec == asio::error::network_unreachable || ec == asio::error::host_unreachable) {
    return fmt::format("no route to {} — check the DUT's address and subnet (ip addr, ip route)",
                       host);
  }
  return fmt::format("cannot connect to {}: {}", where, ec.message());
}

tcp::endpoint resolve_peer(const std::string& host, std::uint16_t port) {
  // "[::1]", as an IPv6 literal is written in URLs and by iperf3's -c, is ::1.
  const bool bracketed = host.size() > 2 && host.front() == '[' && host.back() == ']';
  const std::string name = bracketed ? host.substr(1, host.size() - 2) : host;
  asio::io_context io;
  tcp::resolver resolver(io);
  std::error_code ec;
  const auto found =
      resolver.resolve(name, std::to_string(port), tcp::resolver::numeric_service, ec);
  if (ec || found.empty()) {
    throw std::system_error(
        ec ? ec : std::make_error_code(std::errc::address_not_available),
        fmt::format("cannot resolve the server '{}': not an IPv4 or IPv6 address, and the name "
                    "is unknown to this host's resolver (a typo, or no DNS here?)",
                    host));
  }
  return found.begin()->endpoint();
}

asio::awaitable<tcp::socket> connect_control(const connect_settings& c, const tcp::endpoint& to,
                                             const measure::test_spec& spec) {
  const auto give_up = clock::now() + c.refused_retry;
  for (;;) {
    tcp::socket sock(co_await asio::this_coro::executor);
    std::error_code ec;
    try {
      open_for(sock, to, spec);
      co_await with_timeout(sock.async_connect(to, use_awaitable), c.connect_timeout, "connect");
      co_return sock;
    } catch (const std::system_error& e) {
      ec = e.code();
    }
    // Refused, or reset by a stock server closing its old listener with us in its backlog.
    const bool retry = ec == asio::error::connection_refused || ec == asio::error::connection_reset;
    if (!retry || clock::now() >= give_up) {
      explain_connect_failure(ec, c);
    }
    asio::steady_timer pause(co_await asio::this_coro::executor, 100ms);
    co_await pause.async_wait(use_awaitable);
  }
}

bool server_still_busy(const std::system_error& e, bool answered) {
  return e.code() == std::errc::device_or_resource_busy ||
         (e.code() == asio::error::connection_reset && !answered);
}

bool unanswered_close(const std::system_error& e) {
  const auto c = e.code();
  return c == asio::error::eof || c == asio::error::connection_reset ||
         c == std::errc::protocol_error;
}

worded_error name_unanswered(const std::system_error& e) {
  return {e.code(),
          fmt::format("{} (no iperf3 state came on this connection: is the peer an iperf3 server? "
                      "an iperf 2 server, `iperf -s`, treats an iperf3 client this way: if it is "
                      "iperf 2, set peer.server = \"iperf2\" (hilperf: --protocol iperf2))",
                      e.what())};
}

void abandon(control_channel& ctl, const attempt_state& st) {
  if (!st.done) ctl.send_state_best_effort(iperf3::state::client_terminate);
  ctl.close();
}

asio::awaitable<void> busy_retry_pause() {
  asio::steady_timer pause(co_await asio::this_coro::executor, 100ms);
  co_await pause.async_wait(use_awaitable);
}

}  // namespace hil::session
