// Socket options a test asks for (iperf3's -w, -M, -N, -S, --dont-fragment, and `ping -I`'s bind to
// a device), and TCP_INFO as typed values. Thin wrappers over setsockopt/getsockopt on raw fds, so
// both asio sockets (native_handle) and plain fds use them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hil/measure/test_spec.hpp"

namespace hil::traffic {

// Applies the data-socket options of spec to fd (window, MSS, nodelay, TOS, don't-fragment, bind
// to device). family is AF_INET or AF_INET6. Throws std::system_error naming the option.
void apply_data_options(int fd, int family, const measure::test_spec& spec);

// SO_BINDTODEVICE, as `ping -I eth0`: traffic leaves through that interface only.
void bind_to_device(int fd, const std::string& ifname);

// Blocking-call timeouts so data threads notice a stop request (SO_SNDTIMEO / SO_RCVTIMEO).
void set_io_timeouts(int fd, int milliseconds);

// The TCP_MAXSEG of a connected socket, 0 when unknown.
int tcp_mss(int fd);

// What TCP_INFO says about a sending socket; fields -1 when the kernel does not report them.
struct tcp_info_sample {
  std::int64_t total_retrans = -1;
  std::int64_t snd_cwnd_bytes = -1;
  std::int64_t snd_wnd_bytes = -1;
  std::int64_t rtt_us = -1;
  std::int64_t rttvar_us = -1;
  std::int64_t pmtu = -1;
};
std::optional<tcp_info_sample> read_tcp_info(int fd);

// The effective SO_SNDBUF / SO_RCVBUF of fd (iperf3's sndbuf_actual / rcvbuf_actual).
int socket_buffer(int fd, bool send);

// The TCP congestion control algorithm of fd ("cubic"), empty when unknown.
std::string tcp_congestion(int fd);

}  // namespace hil::traffic
