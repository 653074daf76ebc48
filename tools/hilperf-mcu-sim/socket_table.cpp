#include "socket_table.hpp"

#include <fmt/format.h>

#include <sstream>
#include <string>

#include "hil/sys/text_file.hpp"

namespace hil::mcu_sim {

bool table_has_port(std::string_view table, std::uint16_t port, bool listening) {
  // "  0: 00000000:1389 00000000:0000 0A …": slot, local address:port (hex), remote, state
  // (0A: LISTEN); the first line is the header.
  const std::string local_port = fmt::format(":{:04X}", port);
  std::istringstream lines{std::string(table)};
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    if (!(fields >> slot >> local >> remote >> state)) continue;
    if (local.size() <= local_port.size()) continue;
    if (local.compare(local.size() - local_port.size(), local_port.size(), local_port) != 0) {
      continue;
    }
    if (!listening || state == "0A") return true;
  }
  return false;
}

bool port_open(bool tcp, std::uint16_t port) {
  for (const char* v : {"", "6"}) {
    try {
      const std::string path = fmt::format("/proc/self/net/{}{}", tcp ? "tcp" : "udp", v);
      if (table_has_port(sys::read_text_file(path, 1 << 22), port, tcp)) return true;
    } catch (const std::exception&) {
      // an IPv6-less kernel has no tcp6/udp6
    }
  }
  return false;
}

}  // namespace hil::mcu_sim
