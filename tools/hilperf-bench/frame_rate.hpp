// The RFC 2544 sender benchmark: the highest rate of 64-byte Ethernet frames (18-byte
// UDP payloads over IPv4) each tool's sender offers, side by side in one run. Ours is paced and
// must keep its schedule — sent ≥ offered · duration · (1 − 0.1 %), what an RFC 2544 trial
// demands — found by a binary search over -b; a stock iperf3 is run at `-l 18 -b 0` (its best:
// unpaced, as fast as it can, no schedule at all). The target is the 1 GbE media maximum,
// 1,488,095 frames/s.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hil/report/iperf3_json.hpp"

namespace hil::bench_tool {

// Runs one client test with these iperf3 arguments (after -c host -J) and parses its -J output.
using client_run = std::function<report::iperf3_summary(const std::vector<std::string>& args)>;

struct frame_rate {
  double sent_per_s = 0;      // datagrams the sender sent per second
  double received_per_s = 0;  // datagrams that arrived per second
  double offered_per_s = 0;   // the paced rate asked for; 0 for an unpaced run
};

// The highest paced rate our sender keeps (binary search to 1 % between 10,000 and 4,000,000
// frames/s with runs of `seconds`).
[[nodiscard]] frame_rate scheduled_frame_rate(const client_run& run, int seconds);

// One unpaced run at -l 18 -b 0.
[[nodiscard]] frame_rate unpaced_frame_rate(const client_run& run, int seconds);

}  // namespace hil::bench_tool
