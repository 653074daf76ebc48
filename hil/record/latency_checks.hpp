// Kinds "latency_under_load" (LatencyUnderLoad: request/response latency idle, then with the link
// loaded both ways) and "icmp_latency" (IcmpLatency: paced ICMP echoes, the procedure's ping).
#pragma once

#include <cstdint>

#include "hil/record/latency.hpp"

namespace hil::record {

struct latency_under_load_figures {
  latency_distribution idle;
  latency_distribution loaded;
  double load_up_mbps = 0;    // the load's goodput DUT → peer while loaded was measured
  double load_down_mbps = 0;  // peer → DUT
  int load_streams = 0;       // load streams each way
};

struct icmp_latency_figures {
  std::int64_t sent = 0;      // echo requests
  std::int64_t received = 0;  // echo replies
  latency_distribution latency;
};

}  // namespace hil::record
