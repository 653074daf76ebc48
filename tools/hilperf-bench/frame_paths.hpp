// The frame paths side by side (hil/frame): the UDP socket path, the AF_PACKET TX ring and
// AF_XDP, each at 64, 128, 512 and 1518 bytes, in one run on the bench's veth pair:
//   - unpaced: frames/s onto the link (the DUT end's tx_packets) and onto the peer (its
//     rx_packets), and the sending thread's CPU-seconds per million frames;
//   - paced at the 1 GbE media maximum for the size, batches of 32: the schedule kept to 0.1 %
//     (what the path took and the DUT's tx_packets, against rate × time) and the peer's count.
// A stock iperf3 -u -b 0 row (the table's caller runs it) gives the socket tool's own figure.
// On veth the peer's receive path runs in the sender's context, so the CPU figures include it for
// every path alike; the peer drops the flow at its ingress (tc flower), as a counting peer would,
// so that is small (its rx_packets still counts every frame).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hil/bench/sim_bench.hpp"

namespace hil::bench_tool {

struct path_figures {
  std::string name;                  // "af_xdp (copy …)", or the stock tool's
  double unpaced_link_fps = 0;       // DUT tx_packets / s
  double unpaced_peer_fps = 0;       // peer rx_packets / s
  double cpu_per_million = 0;        // CPU-seconds per million frames, unpaced
  double paced_rate = 0;             // frames/s asked for (0: not run)
  double paced_link_fps = 0;         // DUT tx_packets / s in the paced trial
  double paced_schedule_pct = 0;     // accepted / scheduled, %
  bool paced_kept = false;           // accepted and tx_packets ≥ scheduled · (1 − 0.1 %)
  std::int64_t paced_peer_diff = 0;  // peer rx_packets − DUT tx_packets in the paced trial
  std::uint32_t batch = 0;
  std::string unavailable;  // why the path did not run here
};

// The three paths at frame_bytes on l (its DUT and peer namespaces), seconds per trial.
[[nodiscard]] std::vector<path_figures> measure_frame_paths(const bench::sim_layout& l,
                                                            std::uint32_t frame_bytes, int seconds);

// One size's table; ratios against the first row that ran (the socket path).
void print_frame_paths(std::ostream& out, std::uint32_t frame_bytes,
                       const std::vector<path_figures>& rows);

}  // namespace hil::bench_tool
