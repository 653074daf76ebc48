// ICMP echo through one interface, as the procedure's first step `ping -I eth0 <peer>` (IPv4),
// and ICMPv6 echo (ping -6) when the host is an IPv6 address.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace hil::traffic {

struct echo_result {
  int sent = 0;
  int received = 0;
  std::vector<std::chrono::microseconds> rtts;  // one per counted reply, as they arrived
};

struct echo_options {
  int count = 1;
  std::chrono::milliseconds interval{1000};  // from one request's send to the next
  std::chrono::milliseconds timeout{1000};   // each request's wait for its reply
  std::size_t payload_bytes = 56;            // ping's -s: the echo's data after its 8-byte header
  // No request is sent at or after this instant, even with count not reached (the default: none).
  std::chrono::steady_clock::time_point stop_sending_at =
      std::chrono::steady_clock::time_point::max();
};

// Sends o.count echo requests to host through ifname, o.interval apart whatever the replies do
// (as ping -i), and counts each reply that comes within o.timeout of its request, timed by the
// kernel's receive stamp (a late reply or a duplicate is not counted); returns o.timeout after the
// last request at the latest. Throws std::invalid_argument for a count outside 0 … 65,535, a
// payload above 65,507 bytes or a host that is neither an IPv4 nor an IPv6 address,
// std::system_error when the socket cannot be opened or bound (root is needed for a raw ICMP
// socket).
echo_result icmp_echo(const std::string& host, const std::string& ifname, const echo_options& o);

// As above with ping's 56-byte payload.
echo_result icmp_echo(const std::string& host, const std::string& ifname, int count,
                      std::chrono::milliseconds interval, std::chrono::milliseconds timeout);

}  // namespace hil::traffic
