// What the ST67W6X firmware's `iperf` command makes of its arguments (Utils/Performance/
// iperf_shell.c, as docs/console-duts.md describes it), and the stock iPerf 2 command line that
// plays the run. Pure: no I/O.
//
//   "iperf -c 10.0.0.1 -u -b 50M -t 10" ─▶ parse_iperf ─▶ iperf_args{client, udp, 50 Mbit/s, 10 s}
//                                                            │
//   {"iperf","-c","10.0.0.1","-u","-b","50000000",…} ◀── stock_argv (× rate_factor for a client)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace hil::mcu_sim {

enum class run_role { client, server };
enum class run_protocol { tcp, udp };

// A run the firmware accepted.
struct iperf_args {
  run_role role = run_role::client;
  run_protocol protocol = run_protocol::tcp;
  std::string peer;           // a client's server address (IPv4)
  std::uint16_t port = 5001;  // -p
  int mbit = 1;               // -b read with atoi; a UDP client's rate (1 when not given)
  int seconds = 10;           // -t; ends a client only
  int length = 1470;          // -l; a UDP datagram's payload
  int interval = 0;           // -i; 0: no interval lines
};

// `iperf -a`: stop the run in progress.
struct iperf_abort {};

// What the shell printed instead of starting a run: its lines, each without its line end.
struct iperf_refusal {
  std::vector<std::string> lines;
};

using iperf_command = std::variant<iperf_args, iperf_abort, iperf_refusal>;

// The firmware's reading of the arguments after `iperf` (split at spaces). Options are exactly
// two characters; numbers are read with atoi ("50M" is 50, "x" is 0). Refusals, as the firmware
// prints them: `Unknown argument. Usage: …` (an unknown option or one without its value, -h too),
// `client/server required`, `Invalid server address` (a -c address that is not IPv4). -S, -P and
// -n are accepted and have no effect (a run always ends by its time); -V and -d are unknown.
[[nodiscard]] iperf_command parse_iperf(std::string_view arguments);

// The usage text the firmware prints after `Unknown argument. Usage: `.
[[nodiscard]] std::vector<std::string> iperf_usage();

// The stock iPerf 2 command (program first) that plays args: a client sends for args.seconds
// (UDP at rate_factor × args.mbit Mbit/s, args.length bytes a datagram), a server listens on
// args.port (and runs until stopped). Figures are printed in bytes and bits/s (-f b).
[[nodiscard]] std::vector<std::string> stock_argv(const iperf_args& args,
                                                  const std::string& program, double rate_factor);

}  // namespace hil::mcu_sim
