// Addresses of the peers a server accepted, as the logs and results name them.
#pragma once

#include <asio.hpp>

namespace hil::session {

// An IPv4 peer reached through a dual-stack listener, as plain IPv4 (::ffff:a.b.c.d → a.b.c.d);
// every other address as it is.
inline asio::ip::address unmapped(const asio::ip::address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  }
  return a;
}

}  // namespace hil::session
