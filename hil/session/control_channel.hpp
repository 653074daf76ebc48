// The iperf3 control connection: one-byte states and length-prefixed JSON over TCP, every read
// bounded by a deadline (iperf3 3.12 has none; 3.15+ uses 10 s/30 s). asio C++20 coroutines on a
// single-threaded io_context; data streams live elsewhere (hil/traffic/flow).
#pragma once

#include <asio.hpp>
#include <asio/experimental/awaitable_operators.hpp>

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>

#include "hil/iperf3/wire.hpp"

namespace hil::session {

using asio::awaitable;
using clock = std::chrono::steady_clock;

// A system_error whose what() is exactly the words given, with no errno text appended: for an
// error the peer reported itself (iperf3's SERVER_ERROR, in the server's words) or a message that
// already names its cause.
class worded_error : public std::system_error {
 public:
  worded_error(std::error_code code, std::string what)
      : std::system_error(code, what), what_(std::move(what)) {}
  [[nodiscard]] const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

class control_channel {
 public:
  // peer names the other end in messages ("192.168.1.195:5002").
  control_channel(asio::ip::tcp::socket socket, std::string peer);

  // Writes one state byte.
  awaitable<void> write_state(iperf3::state s);
  // Reads one state byte; throws timed_out after timeout, and on EOF or an unknown byte.
  awaitable<iperf3::state> read_state(std::chrono::milliseconds timeout);
  // Reads one state byte if it arrives before deadline; nullopt when the deadline passes first.
  awaitable<std::optional<iperf3::state>> poll_state(clock::time_point deadline);
  // Reads exactly out.size() bytes within timeout.
  awaitable<void> read_exact(std::span<std::uint8_t> out, std::chrono::milliseconds timeout);
  // Writes all bytes.
  awaitable<void> write_bytes(std::span<const std::uint8_t> bytes);
  // Reads one length-prefixed JSON message of at most max_len bytes, all of it within timeout.
  awaitable<std::string> read_frame(std::size_t max_len, std::chrono::milliseconds timeout);
  // Writes one length-prefixed JSON message.
  awaitable<void> write_frame(std::string_view json);
  // Completes once the other end has sent something or closed (the socket turned readable);
  // consumes nothing. For the phases in which it should be silent.
  awaitable<void> wait_readable();
  // After wait_readable() in a silent phase (`during`, e.g. "stream creation"): throws what the
  // other end did — closed the connection (eof), CLIENT_TERMINATE (connection_aborted), or sent
  // another state (protocol_error).
  awaitable<void> throw_unexpected_input(std::string_view during);
  // Sends a state byte without waiting and ignores errors (aborting: CLIENT_TERMINATE, 0xFF).
  void send_state_best_effort(iperf3::state s) noexcept;
  // Half-closes and closes; never throws.
  void close() noexcept;

  [[nodiscard]] asio::ip::tcp::socket& socket() noexcept { return socket_; }
  [[nodiscard]] const std::string& peer() const noexcept { return peer_; }

 private:
  // Converts a state byte, throwing protocol_error for a value that is not on the wire.
  [[nodiscard]] iperf3::state to_state(std::uint8_t byte) const;

  asio::ip::tcp::socket socket_;  // the control connection
  std::string peer_;              // for messages
};

// True for the states after which the server expects nothing more from the client (ACCESS_DENIED,
// SERVER_ERROR, SERVER_TERMINATE): no CLIENT_TERMINATE is owed.
[[nodiscard]] bool server_gave_up(iperf3::state s) noexcept;

// Throws the error a state that ends a test early stands for, with the likely cause: busy
// (device_or_resource_busy), SERVER_ERROR (its 8 bytes, or the 4 of a 3.12 server refusing
// authentication, read within timeout; protocol_error), the
// server stopped (connection_aborted); any other state is "unexpected" (protocol_error).
// auth_hint follows the server's words when they are iperf3's "test authorization failed".
awaitable<void> throw_for_state(control_channel& ctl, iperf3::state s,
                                std::chrono::milliseconds timeout, std::string_view auth_hint = {});

namespace detail {
// op's outcome without throwing: asio's `||` waits for the first operation to *succeed*, so an
// operation that fails (EOF, reset) must complete normally for its failure to be seen at once.
template <typename T>
struct outcome {
  std::exception_ptr error;
  std::optional<T> value;
};
template <>
struct outcome<void> {
  std::exception_ptr error;
};

template <typename T>
awaitable<outcome<T>> capture(awaitable<T> op) {
  outcome<T> out;
  try {
    if constexpr (std::is_void_v<T>) {
      co_await std::move(op);
    } else {
      out.value.emplace(co_await std::move(op));
    }
  } catch (...) {
    out.error = std::current_exception();
  }
  co_return out;
}
}  // namespace detail

// Runs op and returns its result (rethrowing its error); if deadline passes first, op is cancelled
// and nullopt (void: false) is returned.
template <typename T>
awaitable<std::conditional_t<std::is_void_v<T>, bool, std::optional<T>>> until(
    awaitable<T> op, clock::time_point deadline) {
  using namespace asio::experimental::awaitable_operators;
  asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
  auto result = co_await (detail::capture(std::move(op)) || timer.async_wait(asio::use_awaitable));
  if (result.index() == 1)
    co_return std::conditional_t<std::is_void_v<T>, bool, std::optional<T>>{};
  auto& out = std::get<0>(result);
  if (out.error) std::rethrow_exception(out.error);
  if constexpr (std::is_void_v<T>) {
    co_return true;
  } else {
    co_return std::move(out.value);
  }
}

// Runs op, or throws std::errc::timed_out with message `what` when timeout passes first.
template <typename T>
awaitable<T> with_timeout(awaitable<T> op, std::chrono::milliseconds timeout, std::string what) {
  auto done = co_await until(std::move(op), clock::now() + timeout);
  if (!done) throw std::system_error(std::make_error_code(std::errc::timed_out), what);
  if constexpr (!std::is_void_v<T>) co_return std::move(*done);
}

}  // namespace hil::session
