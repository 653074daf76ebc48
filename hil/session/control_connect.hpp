// Making the control connection, shared by the iperf3 client and the hilperf extension client:
// resolving the peer, connecting with the retries a stock server needs, and the procedure's "Common
// Issues" when it cannot be done.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "hil/measure/test_spec.hpp"
#include "hil/session/control_channel.hpp"

namespace hil::session {

struct connect_settings {
  std::string host;                                   // as the user gave it (for messages)
  std::uint16_t port = 5201;                          // the control port
  std::chrono::milliseconds connect_timeout{10'000};  // per attempt
  std::chrono::milliseconds refused_retry{3'000};     // keep retrying ECONNREFUSED this long
};

// The procedure's "Common Issues" for a connection to host:port that could not be made, as one
// sentence: refused ("nothing listens on … — " + what_listens, which says what to start), no
// answer within timeout, no route, or the error itself.
[[nodiscard]] std::string connect_failure_text(const std::error_code& ec, const std::string& host,
                                               std::uint16_t port,
                                               std::chrono::milliseconds timeout,
                                               const std::string& what_listens);

// The server's endpoint: host is a name, an IPv4 or IPv6 address, or "[v6]". Throws
// std::system_error naming host when it does not resolve.
asio::ip::tcp::endpoint resolve_peer(const std::string& host, std::uint16_t port);

// Connects the control socket (bound as spec asks: -B, device), retrying ECONNREFUSED and
// ECONNRESET for a while: a stock server re-creates its listener between tests. Throws
// std::system_error with the likely cause (nothing listening, no answer, no route).
asio::awaitable<asio::ip::tcp::socket> connect_control(const connect_settings& c,
                                                       const asio::ip::tcp::endpoint& to,
                                                       const measure::test_spec& spec);

// Busy retries: a server that has just finished a test can answer "busy" (a stock 3.12 server
// tearing the last test down, or ours saying goodbye), or reset a connection it accepted before
// it said anything. Both clients retry such an attempt for a while (their busy_retry), pausing
// busy_retry_pause() between attempts; any other failure ends the run.
//
// True when the failed attempt e was one of those moments; answered: whether the server sent
// anything on this connection.
bool server_still_busy(const std::system_error& e, bool answered);

// True when e ends a connection on which the server never sent a state (it closed, reset, or
// sent a byte that is no iperf3 state): whatever listens there is not an iperf3 server.
[[nodiscard]] bool unanswered_close(const std::system_error& e);

// e, worded for such a connection: an iperf 2 `iperf -s` reads the cookie as its own header and
// closes, the usual cause.
[[nodiscard]] worded_error name_unanswered(const std::system_error& e);

// The pause between busy retries (100 ms).
asio::awaitable<void> busy_retry_pause();

// What one attempt on a control connection has seen, for the retry loop below.
struct attempt_state {
  bool done = false;      // the server no longer expects anything from us
  bool answered = false;  // the server sent its first state on this connection
};

// Tells the server CLIENT_TERMINATE unless it expects nothing more from us (st.done), so a stock
// server never stays busy with an attempt that ended early; then closes.
void abandon(control_channel& ctl, const attempt_state& st);

// Runs a client's session coroutine on io until it ends: its result, or its exception rethrown.
// The session the task belongs to must outlive the call.
template <typename T>
T run_to_end(asio::io_context& io, asio::awaitable<T> task) {
  std::optional<T> result;
  std::exception_ptr error;
  asio::co_spawn(io, std::move(task), [&](std::exception_ptr e, T r) {
    error = e;
    if (!e) result = std::move(r);
  });
  io.run();
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

// The one connect, attempt, abandon, busy-retry loop of every client: connects (connect_control),
// runs attempt(ctl) and returns its result; when the attempt fails, abandons the connection and
// tries again while the server was still busy with its last test (server_still_busy) and
// busy_retry has not passed, else rethrows. st is reset before each new attempt.
template <typename T, typename Attempt>
asio::awaitable<T> with_busy_retry(connect_settings how, asio::ip::tcp::endpoint to,
                                   const measure::test_spec& bind,
                                   std::chrono::milliseconds busy_retry, attempt_state& st,
                                   Attempt attempt) {
  const auto give_up = std::chrono::steady_clock::now() + busy_retry;
  for (;;) {
    control_channel ctl(co_await connect_control(how, to, bind),
                        how.host + ":" + std::to_string(how.port));
    try {
      co_return co_await attempt(ctl);
    } catch (const std::system_error& e) {
      abandon(ctl, st);
      if (!server_still_busy(e, st.answered) || std::chrono::steady_clock::now() >= give_up) {
        if (!st.answered && unanswered_close(e)) throw name_unanswered(e);
        throw;
      }
    } catch (...) {
      abandon(ctl, st);
      throw;
    }
    st = {};
    co_await busy_retry_pause();
  }
}

}  // namespace hil::session
