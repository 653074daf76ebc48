// ICMP echo through one interface, as the procedure's first step `ping -I eth0 <peer>` (IPv4).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hil::traffic {

struct echo_result {
  int sent = 0;
  int received = 0;
  std::vector<std::chrono::microseconds> rtts;  // one per reply, in order
};

// Sends count echo requests (56-byte payload, like ping) to host through ifname, interval apart,
// each waiting up to timeout for its reply. Throws std::system_error when the socket cannot be
// opened or bound (root is needed for a raw ICMP socket).
echo_result icmp_echo(const std::string& host, const std::string& ifname, int count,
                      std::chrono::milliseconds interval, std::chrono::milliseconds timeout);

}  // namespace hil::traffic
