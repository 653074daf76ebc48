// The board table's veth pair made to behave like two hosts' ports rather than a pipe between
// namespaces on one CPU (board_cpu.hpp):
//   - no TCP or UDP segmentation offload (the DUT's CPU cuts every segment, as on a board whose
//     MAC has no TSO/USO), software GRO on receive (as every NAPI driver does);
//   - each end's receive work on its own side's CPU. A veth delivers in the *sender's* context:
//     its softirq runs the other end's receive path on the sending CPU, so the DUT was charged
//     for the peer's receive work when it sent and the peer for the DUT's when it received.
//     Threaded NAPI moves each end's receive path into a kernel thread of its own; the DUT's
//     thread joins the DUT's cgroup (its quota and its CPU count), the peer's stays outside.
// Everything is undone with the bench: the namespaces and the veth go, and the cgroups return
// the threads they adopted.
//
// What crossed the link is read off the peer end's counters (peer_link), not off either tool's
// report: a receiving program that cannot keep up loses datagrams the DUT did put on the wire.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hil/bench/sim_bench.hpp"
#include "hil/link/link_control.hpp"

namespace hil::bench_tool {

// Each end's NAPI kernel threads (one per receive queue).
struct port_threads {
  std::vector<pid_t> dut;
  std::vector<pid_t> peer;
};

// Sets l's offloads as above and turns on threaded NAPI on both ends. Throws std::runtime_error
// when ethtool or sysfs refuse or no NAPI thread appears for an end.
[[nodiscard]] port_threads make_ports_board_like(const bench::sim_layout& l);

// The peer end's interface counters, read through a netlink socket in the peer's namespace.
class peer_link {
 public:
  // Throws std::system_error when the namespace or its netlink socket cannot be opened.
  explicit peer_link(const bench::sim_layout& l);
  // Packets the peer end has received so far (IFLA_STATS64 rx_packets).
  [[nodiscard]] std::uint64_t rx_packets();

 private:
  std::string interface_;
  link::link_control control_;
};

}  // namespace hil::bench_tool
