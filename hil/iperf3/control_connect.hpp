// Making the control connection, shared by the iperf3 client and the hilperf extension client:
// resolving the peer, connecting with the retries a stock server needs, and the seed's "Common
// Issues" when it cannot be done.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <cstdint>
#include <string>

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

}  // namespace hil::iperf3
