// Making the control connection, shared by the iperf3 client and the hilperf extension client:
// resolving the peer, connecting with the retries a stock server needs, and the procedure's "Common
// Issues" when it cannot be done.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <system_error>

#include "hil/measure/test_spec.hpp"

namespace hil::iperf3 {

struct connect_settings {
  std::string host;                                   // as the user gave it (for messages)
  std::uint16_t port = 5201;                          // the control port
  std::chrono::milliseconds connect_timeout{10'000};  // per attempt
  std::chrono::milliseconds refused_retry{3'000};     // keep retrying ECONNREFUSED this long
};

// The peer's endpoint; throws std::system_error naming the profile's peer address.
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

// The pause between busy retries (100 ms).
asio::awaitable<void> busy_retry_pause();

}  // namespace hil::iperf3
