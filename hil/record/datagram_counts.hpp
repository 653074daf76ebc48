// Kind "datagram_counts": datagrams sent at each MTU tier at one bit rate and duration
// (DatagramCounts), each against the ideal rate·t/(8·payload) (docs/checks.md).
#pragma once

#include <cstdint>
#include <vector>

namespace hil::record {

struct tier_datagrams {
  int mtu = 0;
  std::int64_t payload_bytes = 0;
  std::int64_t datagrams = 0;  // what the sender sent
  double expected = 0;         // rate·t/(8·payload)
};

struct datagram_count_figures {
  double rate_mbps = 0;               // payload rate of every tier's test (-b)
  double seconds = 0;                 // each test's duration (-t)
  std::vector<tier_datagrams> tiers;  // in the order measured (rising MTU)
};

}  // namespace hil::record
