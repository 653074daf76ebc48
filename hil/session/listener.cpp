#include "hil/session/listener.hpp"

#include <system_error>

#include <fmt/format.h>

#include "hil/sys/port_owner.hpp"

namespace hil::session {

asio::ip::address listen_address(const std::string& bind_address) {
  if (bind_address.empty()) return asio::ip::address_v6::any();
  std::error_code ec;
  const auto a = asio::ip::make_address(bind_address, ec);
  if (ec) {
    throw std::system_error(
        ec, fmt::format("cannot listen on '{}': not an IPv4 or IPv6 address of this host (give "
                        "one numerically, e.g. 192.0.2.1 or ::1)",
                        bind_address));
  }
  return a;
}

void listen_dual_stack(asio::ip::tcp::acceptor& acceptor, const std::string& bind_address,
                       std::uint16_t port, const std::string& hint) {
  const asio::ip::tcp::endpoint at(listen_address(bind_address), port);
  acceptor.open(at.protocol());
  acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true));
  if (at.protocol() == asio::ip::tcp::v6()) acceptor.set_option(asio::ip::v6_only(false));
  std::error_code ec;
  acceptor.bind(at, ec);
  if (ec == asio::error::address_in_use) {
    const auto owner = sys::tcp_port_owner(port);
    throw std::system_error(ec, fmt::format("port {} is already in use{} — {}", port,
                                            owner ? " by " + *owner : "", hint));
  }
  if (ec) {
    throw std::system_error(
        ec, fmt::format("cannot listen on {} port {}", at.address().to_string(), port));
  }
  acceptor.listen(asio::socket_base::max_listen_connections);
}

}  // namespace hil::session
