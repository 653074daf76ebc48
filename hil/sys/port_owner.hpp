// Who holds a TCP port: for the procedure's "Address already in use" issue, the message names the
// process (as `netstat -tlnp` would) instead of leaving the user to find it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hil::sys {

// "iperf3 (pid 1234)" for the process with a listening TCP socket on port (IPv4 or IPv6), found
// through /proc/net/tcp{,6} and /proc/<pid>/fd; nullopt when /proc does not show it.
std::optional<std::string> tcp_port_owner(std::uint16_t port);

}  // namespace hil::sys
