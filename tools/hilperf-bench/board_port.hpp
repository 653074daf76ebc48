// The board table's veth pair made to behave like two hosts' ports rather than a pipe between
// namespaces on one CPU (board_cpu.hpp):
//   - no TCP or UDP segmentation offload (the DUT's CPU cuts every segment, as on a board whose
//     MAC has no TSO/USO), software GRO on receive (as every NAPI driver does);
//   - each end's receive work on its own side's CPU. A veth delivers in the *sender's* context:
//     its softirq runs the other end's receive path on the sending CPU, so the DUT was charged
//     for the peer's receive work when it sent and the peer for the DUT's when it received.
//     Threaded NAPI moves each end's receive path into a kernel thread of its own; the DUT's
//     thread joins the DUT's cgroup (its quota and its CPU count), the peer's stays outside.
// Everything is undone with the bench: the namespaces and the veth go, and the cgroup returns
// the thread it adopted.
#pragma once

#include <sys/types.h>

#include <vector>

#include "hil/bench/sim_bench.hpp"

namespace hil::bench_tool {

// Sets l's offloads as above and turns on threaded NAPI on both ends. Returns the DUT end's NAPI
// kernel threads (one per receive queue). Throws std::runtime_error when ethtool or sysfs refuse
// or no NAPI thread appears for the DUT's end.
[[nodiscard]] std::vector<pid_t> make_ports_board_like(const bench::sim_layout& l);

}  // namespace hil::bench_tool
