// What ESP-IDF's console with the iperf command (espressif/iperf-cmd 1.0: iperf_cmd.c, iperf.c,
// iperf_report.c; esp_console's REPL in line-editor "dumb" mode, as docs/console-duts.md
// describes them) reads and prints, rebuilt from its format strings. Pure; "\n" line ends (the
// console's output goes out as CR LF).
//
//   "-c 10.0.0.1 -u -b 27m -t 10 -i 10" ─▶ parse_iperf ─▶ run{client, udp, 27 000 000 bit/s, 10 s}
//   log_line('I', 5230, "IPERF", "mode=udp-client sip=0.0.0.0:0, dip=10.0.0.1:5001, …")
//   traffic_line(1, 0, 10, 33030000, 'm') ─▶ "[  1]  0.0-10.0 sec\t33.03 MBytes\t26.42 Mbits/sec"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "iperf_args.hpp"

namespace hil::mcu_sim::esp {

// An iperf run the command accepted (defaults: IPERF_DEFAULT_* of iperf.h).
struct run {
  run_role role = run_role::client;
  run_protocol protocol = run_protocol::tcp;
  std::string peer;                   // a client's destination (IPv4)
  std::uint16_t port = 5001;          // a server's own, a client's destination port
  int length = 0;                     // -l; 0: the default (UDP 1470, TCP 2880)
  int interval = 3;                   // -i; <= 0 reads as 3
  int time = 30;                      // -t; raised to the interval when not above it
  std::int64_t bits_per_second = -1;  // -b; -1: no limit
  char format = 'm';                  // -f: 'k', 'm', 'K', 'M'
};
// `iperf --abort`: every instance stopped.
struct abort_all {};
// What the command printed instead of starting a run.
struct refusal {
  std::vector<std::string> lines;  // printed as is (argtable's errors)
  std::string error_log;  // an E line of the IPERF tag ("should specific client/server mode")
  int returned = 0;       // the command's return value (non-zero: the REPL says so)
};
using command = std::variant<run, abort_all, refusal>;

// The command's reading of the words after `iperf`.
[[nodiscard]] command parse_iperf(const std::vector<std::string>& words);

// The bandwidth -b names: digits and a suffix k/m/g (10^3, 10^6, 10^9) or K/M/G (2^10, 2^20,
// 2^30); no suffix: bits/s; zero, negative or no digits: no limit (-1).
[[nodiscard]] std::int64_t bandwidth_of(std::string_view text);

// A log line: colour, "I (5230) IPERF: text", colour off ('I', 'W', 'E').
[[nodiscard]] std::string log_line(char level, std::uint64_t uptime_ms, std::string_view tag,
                                   std::string_view text);
// "iperf(id=1)": an instance's log tag.
[[nodiscard]] std::string instance_tag(int id);
// "mode=udp-client sip=0.0.0.0:0, dip=10.0.0.1:5001, interval=10, time=10"
[[nodiscard]] std::string mode_text(const run& r);
// "[  1] local 10.0.0.2:5001 connected to 10.0.0.1:40000"
[[nodiscard]] std::string connect_info(int id, std::string_view local, std::uint16_t local_port,
                                       std::string_view remote, std::uint16_t remote_port);
// "\n[ ID] Interval\t\tTransfer\tBandwidth"
[[nodiscard]] std::string traffic_header();
// A period or summary line: bytes over [start, end] seconds in format's units.
[[nodiscard]] std::string traffic_line(int id, int start, int end, std::uint64_t bytes,
                                       char format);
// "iperf_traffic_task(619): an error occurred while running udp server"
[[nodiscard]] std::string traffic_task_error(const run& r);

// The prompt in the line editor's dumb mode: the name and a space, no colour.
[[nodiscard]] std::string prompt(std::string_view name);
// What the board prints from reset to its first prompt (the ROM and bootloader lines are
// invented; the application banner and the console's are iperf-cmd's and esp_console's).
[[nodiscard]] std::string boot_banner();
// `help`
[[nodiscard]] std::string help_text();

}  // namespace hil::mcu_sim::esp
