// The TCP listening socket both servers open: every address, IPv4 and IPv6 on one socket, unless
// one address is named.
#pragma once

#include <asio.hpp>

#include <cstdint>
#include <string>

namespace hil::session {

// Opens, binds and listens acceptor on bind_address (empty: every address, dual-stack) and port
// (0: any free one). Throws std::system_error; a port in use names the process holding it and
// ends with hint ("choose another port with -p").
void listen_dual_stack(asio::ip::tcp::acceptor& acceptor, const std::string& bind_address,
                       std::uint16_t port, const std::string& hint);

// The address to bind for bind_address: the IPv6 wildcard (dual-stack) when empty. Throws
// std::system_error naming bind_address when it is not a numeric address.
[[nodiscard]] asio::ip::address listen_address(const std::string& bind_address);

}  // namespace hil::session
