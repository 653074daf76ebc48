// A firmware's iperf, as its serial console speaks it: one table per firmware of what to type,
// how its units read, what marks the end of a run and how its report lines read. The table is
// data and pure functions; the session that types at a console (and the engine's iPerf 2 end
// that meets the firmware's traffic) use it, and tests check it on console text rebuilt from the
// firmware's format strings, split across reads and interleaved with its log lines.
//
//   case ─▶ command(request) ──typed──▶ DUT console ─▶ … prompt … report lines … end marker
//                                                           │
//   firmware_report ◀── parse(the run's text through its end marker) ◀─┘
//
// The verdict never rests on what the firmware printed: hilperf's own end counts the traffic
// exactly; the firmware's figures are recorded beside them as a cross-check (some firmwares print
// them with known defects: docs/console-duts.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hil/console/pattern.hpp"

namespace hil::firmware {

// What the DUT runs, from the DUT's side: it sends (client) or receives (server).
enum class iperf_role { client, server };
enum class iperf_protocol { tcp, udp };

struct iperf_request {
  iperf_role role = iperf_role::client;
  iperf_protocol protocol = iperf_protocol::udp;
  std::string peer_address;          // a client's server (the PC); unused by a server
  std::uint16_t port = 5001;         // iPerf 2's
  std::uint64_t bitrate_bps = 0;     // a UDP client's rate; 0: the firmware's default
  std::uint32_t datagram_bytes = 0;  // a UDP client's payload; 0: the firmware's default
  std::chrono::seconds duration{10};
};

// What the firmware printed about one run, as it printed it; a figure it did not print is absent.
struct firmware_report {
  std::optional<double> seconds;          // the summary's interval: 0.0 to this
  std::optional<double> mbit_per_second;  // its bandwidth (10^6 bits/s)
  std::optional<std::uint64_t> lost;      // datagrams (a UDP summary)
  std::optional<std::uint64_t> total;
  std::vector<std::string> errors;      // iperf's own error lines, quoted: the run failed
  std::vector<std::string> log_errors;  // other tasks' error log lines, quoted: context only
};

struct dialect {
  std::string name;
  console::pattern prompt;
  std::string line_ending;  // what ends a typed line
  // The command line for request; throws std::invalid_argument naming what the firmware cannot
  // be asked (a rate its units cannot express, an empty peer address).
  std::function<std::string(const iperf_request&)> command;
  // What stops request's run in progress; empty when nothing can (a run that blocks the shell).
  std::function<std::string(const iperf_request&)> abort;
  // What ends request's run on the console, ended well or not (its report's last line, a failure
  // line): a run's text reaches through the first of them.
  std::function<std::vector<console::pattern>(const iperf_request&)> end_markers;
  // The report in a run's text (from the typed command through its end marker).
  std::function<firmware_report(std::string_view)> parse;
  // What says request's run is under way and its peer may start (a server listening on its
  // port); an empty function or none: the run is under way once its command is typed.
  std::function<std::vector<console::pattern>(const iperf_request&)> ready;
};

// STMicroelectronics' ST67W6X network driver CLI (x-cube-st67w61): prompt `w61/>`, `-b` in whole
// Mbit/s, the run's lines after the prompt, `iperf exit` at the end, `iperf -a` to abort.
[[nodiscard]] const dialect& st67w6x();

// Zephyr's zperf shell: prompt `uart:~$`, `zperf udp upload <ip> <port> <s> <size> <rate>`
// (rates with K or M, decimal), a blocking upload ending in `Upload completed!` and its
// statistics, a download (the DUT receiving) ending in `End of session!` or `TCP session ended`.
[[nodiscard]] const dialect& zperf();

// ESP-IDF's iperf command (espressif/iperf-cmd): prompt `iperf>`, `-b` with k/m as 10^3/10^6
// (M and K are binary there), reports every -i seconds (given as the whole run, so one summary),
// the summary from 0.0 to the run's length as its end; no loss counts (it counts bytes only).
[[nodiscard]] const dialect& esp_idf();

// Whether d's UDP server answers the end of a test with iPerf 2's server report (its count of what
// arrived). ESP-IDF's does not: what a DUT of that firmware received over UDP is known only from
// its own console, which is no count a verdict can rest on.
[[nodiscard]] bool sends_udp_server_report(const dialect& d);

// The dialect named name ("st67w6x", "zperf", "esp-idf"); nullptr for an unknown one.
[[nodiscard]] const dialect* dialect_named(std::string_view name);

}  // namespace hil::firmware
