// The lines the ST67W6X firmware prints, rebuilt from its format strings (iperf.c, shell.c,
// logging.c, as docs/console-duts.md and its notes give them), its known defects included: a
// UDP server's megabytes with one decimal digit printed through %02u, a UDP client's jitter
// scaled the wrong way, the loss percentage an integer on the client and with one decimal on the
// server. Each function returns one line without its line end. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "iperf_args.hpp"

namespace hil::mcu_sim::st67 {

// ESC[36m w61/> ESC[0m: the coloured prompt (no space after it).
[[nodiscard]] std::string prompt();
// The lines a board prints when it boots, before its first prompt (invented: the real banner
// differs, docs/console-duts.md "The simulated MCU").
[[nodiscard]] std::string boot_banner();

[[nodiscard]] std::string command_not_found(std::string_view command);

// "------------------------------------------------------------"
[[nodiscard]] std::string dashes();
// "[UDP] Server listening on port 5001" or "[TCP] Client connecting to 10.0.0.1, port 5001".
[[nodiscard]] std::string run_banner(const iperf_args& args);
// "Sending 1470 bytes datagrams" (a UDP client).
[[nodiscard]] std::string sending_line(int length);
// "[ ID] Interval       Transfer        Bandwidth"
[[nodiscard]] std::string report_header();

// The summary "[  1]  0.0-10.0 sec  32.42 MBytes    27.2 Mbits/sec" (seconds and tenths of
// seconds, MBytes of 2^20 bytes with two decimals, Mbit/s of 10^6 with one; udp_server: the
// megabytes misprinted as that firmware does).
[[nodiscard]] std::string summary_line(double seconds, std::uint64_t bytes,
                                       std::uint64_t bits_per_second, bool udp_server);
// An interval line "[  1] 1.0-2.0 sec   3.30 MBytes    27.7 Mbits/sec" (-i N).
[[nodiscard]] std::string interval_line(double start, double end, std::uint64_t bytes,
                                        std::uint64_t bits_per_second);
// A UDP server's "[ ID]                Lost/Total Datagrams" and "[  1]                  12/ 23563
// ( 0.0%)".
[[nodiscard]] std::string server_loss_header();
[[nodiscard]] std::string server_loss_line(std::uint64_t lost, std::uint64_t total);
// A UDP client's, from the server's report: "[ ID]  Jitter        Lost/Total Datagrams" and
// "[  1] 0.11000 ms    0/ 854 (0%)" (jitter seconds and microseconds each times 1000).
[[nodiscard]] std::string client_loss_header();
[[nodiscard]] std::string client_loss_line(double jitter_ms, std::uint64_t lost,
                                           std::uint64_t total);

// The traffic task's failure line for what stock iPerf 2 printed ("tcp connect failed:
// Connection refused" → "[iperf] Socket unable to connect: errno 111").
[[nodiscard]] std::string failure_line(std::string_view iperf2_line);

// A log line of another task, as the logger prefixes it: "[ERROR] [4000] [ST67W6XTask]
// (w61_at_common.c:375) sem_if_ready not received" (level "ERROR", "DEBUG", …).
[[nodiscard]] std::string log_line(std::string_view level, std::uint64_t tick_ms,
                                   std::string_view task, std::string_view where,
                                   std::string_view text);

}  // namespace hil::mcu_sim::st67
