// The stock iPerf 2 command line (Debian's `iperf`) that plays a run of the zperf and ESP-IDF
// firmwares: what each firmware's command asks, in iPerf 2's options. Figures are printed in bytes
// and bits/s (-f b) so the firmware's report is computed from exact numbers. Pure.
//
//   {client, udp, 10.0.0.1:5001, 10 s, 27 Mbit/s, 1024 B}
//     ─▶ {"iperf","-c","10.0.0.1","-p","5001","-t","10","-f","b","-u","-b","27000000","-l","1024"}
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iperf_args.hpp"

namespace hil::mcu_sim {

struct stock_plan {
  run_role role = run_role::client;
  run_protocol protocol = run_protocol::tcp;
  std::string peer;                   // a client's server
  std::uint16_t port = 5001;          // a client's server port, a server's own
  int seconds = 10;                   // a client's time
  std::uint64_t bits_per_second = 0;  // a UDP client's rate (0: iPerf 2's own 1 Mbit/s)
  int length = 0;                     // a client's write (UDP: datagram payload); 0: iPerf 2's
  int interval = 0;                   // seconds between interval lines (0: none)
  // No end-of-test exchange: a UDP client sends its negative-id datagram once and waits for no
  // report, a UDP server answers none (--no-udp-fin).
  bool no_udp_fin = false;
};

// The command (program first) that plays plan.
[[nodiscard]] std::vector<std::string> stock_argv(const stock_plan& plan,
                                                  const std::string& program);

}  // namespace hil::mcu_sim
