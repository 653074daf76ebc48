// IPv6 addresses of a link, so that what the kernel drops with them can be put back: an MTU below
// 1280 (RFC 8200's minimum) makes the kernel remove every IPv6 address of the interface, and
// raising the MTU again does not bring them back.
#pragma once

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

}  // namespace hil::link
