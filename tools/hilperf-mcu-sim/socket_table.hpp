// Whether a port is open in this network namespace, read from the kernel's socket tables
// (/proc/self/net/{tcp,tcp6,udp,udp6}): a run's stock iPerf 2 server prints its banner before it
// binds (from another thread), so the firmware's "Server listening" line waits for the socket
// itself, and a host that starts its client on that line finds the port open.
#pragma once

#include <cstdint>
#include <string_view>

namespace hil::mcu_sim {

// True when table (one of those files' text) has a socket on local port: for TCP (listening
// true) one in state LISTEN, for UDP any bound one. Pure.
[[nodiscard]] bool table_has_port(std::string_view table, std::uint16_t port, bool listening);

// table_has_port over this namespace's IPv4 and IPv6 tables of the protocol (tcp: listening).
// False when a table cannot be read.
[[nodiscard]] bool port_open(bool tcp, std::uint16_t port);

}  // namespace hil::mcu_sim
