// What Zephyr's zperf shell reads and prints (subsys/net/lib/zperf/zperf_shell.c and the shell
// itself, as docs/console-duts.md describes them), rebuilt from its format strings. Each function
// is pure and returns text with "\n" line ends; the firmware turns them into the shell's CR LF.
//
//   "udp upload 10.0.0.1 5001 10 1024 27M" ─▶ parse_command ─▶ upload{udp, 10.0.0.1, 5001, 10 s,
//                                                                   1024 B, 27000 kbps}
//   upload_start(u) ─▶ "Duration:\t10.00 s\nPacket size:\t1024 bytes\nRate:\t\t27000 kbps\n…"
//   upload_stats(r) ─▶ "-\nUpload completed!\nStatistics:\t\tserver\t(client)\n…"
//   session_end(r)  ─▶ the fprintf calls of a download's report, each printed apart
//                      (asynchronous(): the line erased, the text, the prompt drawn again)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "iperf_args.hpp"

namespace hil::mcu_sim::zperf {

// CONFIG_NET_ZPERF_MAX_PACKET_SIZE's default: a larger upload datagram is cut to it.
constexpr std::uint32_t max_packet_size = 1024;

// `zperf <udp|tcp> upload [options] <ip> [<port> <duration> <packet size>[K] <rate>[K|M]]`.
struct upload {
  run_protocol protocol = run_protocol::udp;
  std::string peer;
  std::uint16_t port = 5001;        // DEF_PORT
  std::uint32_t seconds = 1;        // DEF_DURATION_SECONDS
  std::uint32_t packet_size = 256;  // DEF_PACKET_SIZE
  std::uint32_t rate_kbps = 10;     // DEF_RATE_KBPS
  std::vector<std::string> said;    // what the shell printed while parsing ("Remote port is …")
};
// `zperf <udp|tcp> download [<port>]`.
struct download {
  run_protocol protocol = run_protocol::udp;
  std::uint16_t port = 5001;
};
// `zperf <udp|tcp> download stop`.
struct download_stop {
  run_protocol protocol = run_protocol::udp;
};
// What the shell printed instead of running anything (each line without its end).
struct refusal {
  std::vector<std::string> lines;
};
using command = std::variant<upload, download, download_stop, refusal>;

// The shell's reading of the words after `zperf`.
[[nodiscard]] command parse_command(const std::vector<std::string>& words);

// The figures zperf prints about one upload or download session (struct zperf_results).
struct results {
  std::uint64_t time_in_us = 0;         // the server's (an upload's, from its report) or session's
  std::uint64_t client_time_in_us = 0;  // an upload's own
  std::uint64_t total_len = 0;          // bytes the receiving end counted
  std::uint32_t packets_sent = 0;
  std::uint32_t packets_received = 0;  // an upload: the report's datagram count
  std::uint32_t packets_lost = 0;
  std::uint32_t packets_out_of_order = 0;
  std::uint32_t packets_errors = 0;
  std::uint32_t jitter_us = 0;
  std::uint32_t packet_size = 0;
};

// ESC[1;32m uart:~$ ESC[m: the prompt, green, with its space.
[[nodiscard]] std::string prompt();
// The columns the prompt takes on the terminal.
constexpr int prompt_width = 8;
// What the shell prints for an asynchronous message (another thread's shell_fprintf while the
// prompt and typed_length typed bytes are on the line): the line erased, the text, the prompt
// drawn again with the typed bytes (typed).
[[nodiscard]] std::string asynchronous(std::string_view text, std::string_view typed);
// Coloured as the shell's warnings (yellow) and errors (red) are.
[[nodiscard]] std::string warning(std::string_view text);
[[nodiscard]] std::string error(std::string_view text);

// The boot banner (the build string is invented).
[[nodiscard]] std::string boot_banner();
// "<cmd>: command not found"
[[nodiscard]] std::string command_not_found(std::string_view name);
// A log line as the shell's log backend prints it: "[00:00:05.120,000] <inf> wifi: text".
[[nodiscard]] std::string log_line(std::uint64_t uptime_ms, std::string_view level,
                                   std::string_view module, std::string_view text);

// print_number_64 over the time units: "10.00 s", "250.00 ms", "63 us", "1.05 m".
[[nodiscard]] std::string time_text(std::uint64_t microseconds);
// print_number over the rate units: "27.00 Mbps", "950 Kbps".
[[nodiscard]] std::string rate_text(std::uint32_t kbps);

// The lines an upload prints before it sends (execute_upload).
[[nodiscard]] std::string upload_start(const upload& u);
// An upload's statistics, from "-\nUpload completed!" on (UDP: with "LAST PACKET NOT
// RECEIVED!!!" when no server report came).
[[nodiscard]] std::string upload_stats(run_protocol protocol, const results& r);
// "UDP server started on port 5001"
[[nodiscard]] std::string server_started(run_protocol protocol, std::uint16_t port);
// "New session started." (UDP) or "New TCP session started."
[[nodiscard]] std::string session_started(run_protocol protocol);
// A download session's report as its callback prints it: one piece per shell_fprintf call.
[[nodiscard]] std::vector<std::string> session_end(run_protocol protocol, const results& r);

}  // namespace hil::mcu_sim::zperf
