// IPv6 addresses of a link, so that what the kernel drops with them can be put back: an MTU below
// 1280 (RFC 8200's minimum) makes the kernel remove every IPv6 address of the interface, and
// raising the MTU again does not bring them back.
#pragma once

#include <chrono>

#include <string>
#include <vector>

#include "hil/link/link_control.hpp"

namespace hil::link {

// The global-scope IPv6 addresses of ifname as "addr/prefix" (e.g. "2001:2::10/64").
std::vector<std::string> ipv6_addresses(link_control& link, const std::string& ifname);

// Adds each of cidrs that ifname lacks (no duplicate address detection: the address was in use a
// moment ago). Throws std::system_error naming the address that could not be added.
void restore_ipv6_addresses(link_control& link, const std::string& ifname,
                            const std::vector<std::string>& cidrs);

// Waits until no IPv6 address of ifname is tentative (duplicate address detection running), for
// at most timeout; true when none is. A link-local address the kernel re-creates after the MTU
// went below 1280 and back is tentative for about a second, and until it is not the link cannot
// resolve its IPv6 neighbours: a UDP test starting then loses its first second on the sender.
bool wait_ipv6_settled(link_control& link, const std::string& ifname,
                       std::chrono::milliseconds timeout);

}  // namespace hil::link
