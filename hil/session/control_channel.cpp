#include "hil/session/control_channel.hpp"

#include <array>

#include <fmt/format.h>

namespace hil::session {
namespace {
using asio::use_awaitable;
}  // namespace

control_channel::control_channel(asio::ip::tcp::socket socket, std::string peer)
    : socket_(std::move(socket)), peer_(std::move(peer)) {
  socket_.set_option(asio::ip::tcp::no_delay(true));
}

iperf3::state control_channel::to_state(std::uint8_t byte) const {
  const auto s = iperf3::state_from_byte(byte);
  if (!s) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            fmt::format("{} sent control byte 0x{:02x}, which is not an iperf3 "
                                        "state (is it an iperf3 server?)",
                                        peer_, byte));
  }
  return *s;
}

awaitable<void> control_channel::write_state(iperf3::state s) {
  const std::array<std::uint8_t, 1> byte{static_cast<std::uint8_t>(s)};
  co_await asio::async_write(socket_, asio::buffer(byte), use_awaitable);
}

awaitable<iperf3::state> control_channel::read_state(std::chrono::milliseconds timeout) {
  std::array<std::uint8_t, 1> byte{};
  co_await read_exact(byte, timeout);
  co_return to_state(byte[0]);
}

awaitable<std::optional<iperf3::state>> control_channel::poll_state(clock::time_point deadline) {
  std::array<std::uint8_t, 1> byte{};
  try {
    if (!co_await until(asio::async_read(socket_, asio::buffer(byte), use_awaitable), deadline)) {
      co_return std::nullopt;
    }
  } catch (const std::system_error& e) {
    if (e.code() == asio::error::eof || e.code() == asio::error::connection_reset) {
      throw std::system_error(e.code(), fmt::format("{} closed the control connection", peer_));
    }
    throw;
  }
  co_return to_state(byte[0]);
}

awaitable<void> control_channel::read_exact(std::span<std::uint8_t> out,
                                            std::chrono::milliseconds timeout) {
  try {
    co_await with_timeout(
        asio::async_read(socket_, asio::buffer(out.data(), out.size()), use_awaitable), timeout,
        fmt::format("no answer from {} within {} s on the control connection", peer_,
                    timeout.count() / 1000.0));
  } catch (const std::system_error& e) {
    if (e.code() == asio::error::eof || e.code() == asio::error::connection_reset) {
      throw std::system_error(e.code(), fmt::format("{} closed the control connection", peer_));
    }
    throw;
  }
}

awaitable<void> control_channel::wait_readable() {
  co_await socket_.async_wait(asio::ip::tcp::socket::wait_read, use_awaitable);
}

awaitable<void> control_channel::throw_unexpected_input(std::string_view during) {
  const auto s = co_await poll_state(clock::now() + std::chrono::milliseconds(100));
  if (!s) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            fmt::format("{} sent a partial message during {}", peer_, during));
  }
  if (*s == iperf3::state::client_terminate) {
    throw std::system_error(
        std::make_error_code(std::errc::connection_aborted),
        fmt::format("{} ended the test (CLIENT_TERMINATE) during {}", peer_, during));
  }
  throw std::system_error(
      std::make_error_code(std::errc::protocol_error),
      fmt::format("{} sent {} during {}", peer_, iperf3::state_name(*s), during));
}

awaitable<void> control_channel::write_bytes(std::span<const std::uint8_t> bytes) {
  co_await asio::async_write(socket_, asio::buffer(bytes.data(), bytes.size()), use_awaitable);
}

awaitable<std::string> control_channel::read_frame(std::size_t max_len,
                                                   std::chrono::milliseconds timeout) {
  iperf3::frame_decoder decoder(max_len);
  std::array<std::uint8_t, 4096> buf{};
  // One deadline for the whole message: a sender trickling bytes cannot stretch it.
  const auto deadline = clock::now() + timeout;
  bool started = false;
  try {
    while (!decoder.complete()) {
      const std::size_t want = std::min(buf.size(), decoder.bytes_needed());
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
      co_await read_exact(std::span(buf.data(), want),
                          std::max(left, std::chrono::milliseconds(1)));
      decoder.feed(reinterpret_cast<const char*>(buf.data()), want);
      started = true;
    }
  } catch (const std::system_error& e) {
    if (e.code() != std::errc::timed_out || !started) throw;
    throw std::system_error(e.code(),
                            fmt::format("a message from {} did not arrive whole within {} s", peer_,
                                        static_cast<double>(timeout.count()) / 1000.0));
  }
  co_return decoder.take();
}

awaitable<void> control_channel::write_frame(std::string_view json) {
  const std::string frame = iperf3::encode_frame(json);
  co_await asio::async_write(socket_, asio::buffer(frame), use_awaitable);
}

void control_channel::send_state_best_effort(iperf3::state s) noexcept {
  const std::array<std::uint8_t, 1> byte{static_cast<std::uint8_t>(s)};
  asio::error_code ignored;
  socket_.non_blocking(false, ignored);
  asio::write(socket_, asio::buffer(byte), ignored);
}

void control_channel::close() noexcept {
  asio::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

bool server_gave_up(iperf3::state s) noexcept {
  return s == iperf3::state::access_denied || s == iperf3::state::server_error ||
         s == iperf3::state::server_terminate;
}

awaitable<void> throw_for_state(control_channel& ctl, iperf3::state s,
                                std::chrono::milliseconds timeout, std::string_view auth_hint) {
  if (s == iperf3::state::access_denied) {
    throw std::system_error(std::make_error_code(std::errc::device_or_resource_busy),
                            fmt::format("{} is busy running a test for another client (iperf3 "
                                        "serves one at a time); try again later",
                                        ctl.peer()));
  }
  if (s == iperf3::state::server_error) {
    // i_errno, then errno; a 3.12 server refusing authentication sends i_errno alone and closes.
    std::array<std::uint8_t, 8> payload{};
    co_await ctl.read_exact(std::span(payload).first<4>(), timeout);
    bool errno_sent = true;
    try {
      co_await ctl.read_exact(std::span(payload).last<4>(), timeout);
    } catch (const std::system_error& e) {
      if (e.code() != asio::error::eof) throw;
      errno_sent = false;
    }
    if (!errno_sent) payload[4] = payload[5] = payload[6] = payload[7] = 0;
    const auto error = iperf3::decode_server_error(payload);
    std::string text =
        fmt::format("server error from {}: {}", ctl.peer(), iperf3::describe_server_error(error));
    if (error.i_errno == iperf3::ie_auth_test && !auth_hint.empty()) {
      text += fmt::format(" — {}", auth_hint);
    }
    throw worded_error(std::make_error_code(std::errc::protocol_error), text);
  }
  if (s == iperf3::state::server_terminate) {
    throw std::system_error(
        std::make_error_code(std::errc::connection_aborted),
        fmt::format("the server at {} was stopped during the test", ctl.peer()));
  }
  throw std::system_error(std::make_error_code(std::errc::protocol_error),
                          fmt::format("unexpected {} from {}", iperf3::state_name(s), ctl.peer()));
}

}  // namespace hil::session
