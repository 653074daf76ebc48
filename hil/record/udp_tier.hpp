// Kind "udp_tier": one UDP zero-loss test at one MTU tier (UdpZeroLoss, Ipv6UdpZeroLoss and the
// UDP TxRx cases): datagrams counted at both ends, exactly as the protocol exchanges them.
#pragma once

#include <cstdint>

namespace hil::record {

struct udp_tier_figures {
  int mtu = 0;                                 // the DUT's MTU during the test
  int ip_version = 4;                          // 4: payload MTU − 28; 6: MTU − 48
  std::int64_t payload_bytes = 0;              // UDP payload per datagram (iperf3's -l)
  std::int64_t datagrams_sent = 0;             // the sender's count
  std::int64_t highest_sequence_received = 0;  // the receiver's highest sequence number
  // Datagrams lost: the receiver's gaps plus those sent above its highest sequence
  // (measure::udp_datagrams_lost), the figure the UdpZeroLoss verdict holds to 0.
  std::int64_t lost = 0;
  double jitter_ms = 0;  // the receiver's RFC 3550 jitter
};

}  // namespace hil::record
