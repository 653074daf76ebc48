// Kind "throughput": the goodput of one TCP or UDP test (TcpThroughput, TxRx, Bidirectional,
// ParallelStreams, Ipv6TcpThroughput). Receiver-side payload bits per second, as iperf3 reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hil::record {

struct throughput_figures {
  std::string protocol = "tcp";       // "tcp" or "udp"
  std::string direction;              // "dut_transmits", "dut_receives" or "both"
  std::string dut_role = "client";    // the DUT ran the test as "client" or "server"
  int ip_version = 4;                 // 4 or 6
  int streams = 1;                    // parallel streams per direction
  double goodput_mbps = 0;            // all streams, the direction(s) measured, Mbit/s
  std::optional<double> out_mbps;     // both ways at once: DUT → peer
  std::optional<double> in_mbps;      // both ways at once: peer → DUT
  std::vector<double> interval_mbps;  // per reporting interval, all streams; may be empty
};

}  // namespace hil::record
