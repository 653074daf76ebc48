// What one throughput test asks for, whatever protocol carries it: the traffic engine, every
// session (iperf3, iperf 2, netperf) and the reports share it. The comments name the iperf3 -c
// flag that asks each, as a reader knows them; what only iperf3 asks (its extra flags, the
// version it announces) is the iperf3 codec's (hil/iperf3/params.hpp, test_params).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hil::measure {

enum class protocol { tcp, udp };

struct test_spec {
  protocol proto = protocol::tcp;            // -u selects udp
  std::chrono::seconds duration{10};         // -t; ignored when bytes or blocks is set
  std::uint64_t bytes = 0;                   // -n: stop after this many payload bytes (0 = unset)
  std::uint64_t blocks = 0;                  // -k: stop after this many blocks (0 = unset)
  std::chrono::seconds omit{0};              // -O: seconds excluded from the results
  std::chrono::milliseconds interval{1000};  // -i: report period (0 = no intervals)
  int parallel = 1;                          // -P: streams per direction, 1..128
  bool reverse = false;                      // -R: the server sends
  bool bidirectional = false;                // --bidir: both send
  std::uint32_t block_len = 0;    // -l: bytes per write; 0 = default (TCP 128 KiB, UDP 1460)
  std::uint64_t bitrate_bps = 0;  // -b: payload bits/s per stream; 0 = unlimited
  bool bitrate_given = false;     // -b was given; UDP without it runs at 1 Mbit/s
  int window = 0;                 // -w: SO_SNDBUF/SO_RCVBUF bytes (0 = kernel default)
  // -w past net.core.wmem_max/rmem_max on our own sockets (SO_SNDBUFFORCE/SO_RCVBUFFORCE, which
  // need CAP_NET_ADMIN; without it, capped as -w is). Not on the wire: the peer's are its own.
  bool force_window = false;
  int mss = 0;                 // -M: TCP_MAXSEG (0 = default)
  bool nodelay = false;        // -N: TCP_NODELAY on data sockets
  int tos = 0;                 // -S: IP TOS / IPv6 traffic class (DSCP << 2)
  bool dont_fragment = false;  // UDP: IP_PMTUDISC_DO, an oversize datagram fails loudly
  std::string bind_device;     // SO_BINDTODEVICE, as `ping -I eth0`
  std::string bind_address;    // -B: local address

  // The block length in effect: block_len, or the protocol default.
  [[nodiscard]] std::uint32_t effective_block_len() const {
    if (block_len != 0) return block_len;
    return proto == protocol::tcp ? 128U * 1024U : 1460U;
  }
  // The per-stream rate in effect (0 = unlimited): bitrate_bps, or iperf3's UDP default of
  // 1 Mbit/s when -b was not given.
  [[nodiscard]] std::uint64_t effective_bitrate() const {
    const bool udp_default = proto == protocol::udp && !bitrate_given && bitrate_bps == 0;
    return udp_default ? 1024ULL * 1024ULL : bitrate_bps;
  }
};

}  // namespace hil::measure
