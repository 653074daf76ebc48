// Link-layer addresses from the kernel: an interface's own MAC and a neighbour's from the
// neighbour table (ARP for IPv4, NDP for IPv6) through rtnetlink, as `ip neigh` shows them. A frame
// path below the socket layer writes them into the Ethernet header it builds, so they must be the
// ones the kernel itself would use.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>

#include "hil/link/link_control.hpp"

namespace hil::link {

using mac_address = std::array<std::uint8_t, 6>;

// "02:00:5e:10:00:01".
[[nodiscard]] std::string mac_text(const mac_address& mac);

// ifname's own hardware address (IFLA_ADDRESS). Throws ENODEV listing what exists, or EINVAL
// when the link has no 6-byte address (not Ethernet-like).
[[nodiscard]] mac_address interface_mac(link_control& link, const std::string& ifname);

// The MAC the kernel's neighbour table holds for ip (an IPv4 or IPv6 address without prefix) on
// ifname, in a usable state (reachable, stale, delay, probe or permanent). When the table has no
// such entry, one UDP datagram to ip's discard port (9) from a socket bound to ifname makes the
// kernel resolve it, and the table is polled until timeout. ip must be on-link: for a routed
// destination pass the gateway's address. Throws std::system_error: EINVAL for an unparsable
// address, EHOSTUNREACH naming ifname and ip when the neighbour did not answer in time.
[[nodiscard]] mac_address neighbour_mac(
    link_control& link, const std::string& ifname, const std::string& ip,
    std::chrono::milliseconds timeout = std::chrono::milliseconds(3000));

}  // namespace hil::link
