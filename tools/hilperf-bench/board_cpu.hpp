// The board-CPU comparison: what each tool reaches when the DUT side has a board's CPU,
// not a runner's. The DUT side — every client, in the DUT namespace — runs in a cgroup capped at a
// share of one core (25 % and 50 % by default: a Cortex-A core busy with other work stands in as
// well as any), which also counts the CPU time it uses; the peer's servers are not capped (a lab
// PC). The two ends run on CPUs of their own when the machine has two or more (cpusets: the DUT
// side on the first, the peer on the rest), as two hosts do: otherwise the scheduler lets one
// end's work take the other's CPU and the figures move by half between runs. Each tool talks to
// its own server, on a bench of its own whose veth pair behaves like a board's port rather than
// like a pipe between namespaces (board_port.hpp: no segmentation offload, software GRO, and each
// end's receive work on its own side — the DUT's inside its cgroups, the peer's in the peer's).
//
// Figures, each the median of `runs` runs with the tools taking turns:
//   TCP goodput each way (the DUT sends; the DUT receives, -R), Gbit/s;
//   UDP datagrams/s the DUT put onto the link (the peer end's rx_packets) of 1472-byte payloads
//   (a 1518-byte frame) and of 18-byte ones (a 64-byte frame), unpaced, with what the tool's
//   server counted and its loss beside them (a server that cannot keep up on the peer's CPU
//   loses datagrams the DUT did send: that is the peer's figure, not the DUT's); and the 1472-byte
//   figure for hilperf's frame path below the socket layer (hil/frame: AF_XDP, else an AF_PACKET
//   ring), sent by a thread that joins the DUT side's cgroup, against the same runs of the others;
//   CPU-seconds the DUT side spent per GB moved through a 1 Gbit/s port (tbf counting Ethernet's
//   framing: the rate is fixed, so what differs is what each tool spends), each way.
// For each figure: hilperf against the best of the other tools, and the target.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace hil::bench_tool {

// One tool under comparison.
struct contender {
  std::string name;                 // what the table calls it: "hilperf", "iperf 3.21 -Z --gsro"
  std::string client;               // the client binary
  std::vector<std::string> flags;   // added to every client run (-Z, --gsro)
  std::vector<std::string> server;  // the server's argv without its port (run in the peer netns)
  std::string ready;                // what the server prints once it listens
};

// A stock iperf3 from "PATH [FLAG …]" (split at spaces): named by the version the binary prints
// (`PATH --version`'s first words, "iperf 3.21") and the flags, served by the same binary.
[[nodiscard]] contender stock_iperf3(const std::string& spec);

struct board_cpu_options {
  std::vector<int> quotas{25, 50};  // percent of one core for the DUT side; 0 = uncapped
  int seconds = 4;                  // per run
  int runs = 3;                     // per tool and figure; the median is printed
};

// Runs the comparison (ours is the first contender) and prints a Markdown table per quota to out.
// Throws std::runtime_error naming the tool and the run that failed.
void compare_on_board_cpu(const std::vector<contender>& tools, const board_cpu_options& o,
                          std::ostream& out);

}  // namespace hil::bench_tool
