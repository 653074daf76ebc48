// ESP-IDF's iperf command (espressif/iperf-cmd: iperf_cmd.c, iperf.c, iperf_report.c), as
// docs/console-duts.md describes it: iPerf 2's options, -b with its own suffixes, a report every
// -i seconds (30 s and 3 s by default, whatever its help text says) and no end-of-run line: the
// summary from 0.0 to the run's length is the end.
#include <fmt/format.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/firmware/detail/report_text.hpp"
#include "hil/firmware/dialect.hpp"

namespace hil::firmware {
namespace {
namespace esp {  // named apart from other dialects' files in a unity build

std::string command(const iperf_request& r) {
  std::string line = detail::iperf2_style_head(r);
  // Lower case: k and m are 10^3 and 10^6 there, K and M 2^10 and 2^20 (-b 50M is 52.4 Mbit/s).
  if (r.protocol == iperf_protocol::udp && r.role == iperf_role::client) {
    line += " -b " + detail::decimal_rate(r.bitrate_bps, 'm', 'k', "ESP-IDF");
  }
  if (r.datagram_bytes != 0) line += fmt::format(" -l {}", r.datagram_bytes);
  // One report, of the whole run: -i as long as -t.
  line += fmt::format(" -t {} -i {}", r.duration.count(), r.duration.count());
  if (r.port != 5001) line += fmt::format(" -p {}", r.port);
  return line;
}

std::string abort(const iperf_request&) { return "iperf --abort"; }

// A server's socket, logged by its task: `I (1234) iperf(id=1): [UDP Server] Socket created`.
std::vector<console::pattern> ready(const iperf_request& r) {
  if (r.role != iperf_role::server) return {};
  return {console::pattern::literal(r.protocol == iperf_protocol::udp
                                        ? "[UDP Server] Socket created"
                                        : "[TCP Server] Socket created")};
}

// The summary of the whole run; the abort's answer; a traffic task that gave up (its E line
// after the socket's W line, and no summary follows); a command the console does not know.
std::vector<console::pattern> end_markers(const iperf_request& r) {
  return {
      console::pattern::regex(
          fmt::format(R"(\[\s*\d+\]\s+0\.0-\s*{}\.0 sec[^\n]*\n)", r.duration.count())),
      console::pattern::literal("DONE.IPERF_STOP,OK"),
      console::pattern::regex(R"(an error occurred while running (?:tcp|udp) (?:server|client))"),
      console::pattern::literal("Unrecognized command")};
}

// `[  1]  0.0-10.0 sec\t32.42 MBytes\t27.20 Mbits/sec` (the format's %c: M or K bits).
const std::regex summary_line(
    R"(\[\s*\d+\]\s+0\.0-\s*(\d+\.\d+) sec\s+[\d.]+ [KMG]?Bytes\s+([\d.]+) ([KMG])bits/sec)");
// A socket's failure, logged as a warning: `W (1234) iperf: udp client send error, error code:
// 12, reason: Out of memory`; the traffic task's `E (1240) iperf: iperf_traffic_task(621): an
// error occurred while running udp client` after it; the console's refusals.
const std::regex error_line(
    R"([^\n]*error, error code: \d+[^\n]*|an error occurred while running (?:tcp|udp) (?:server|client)|Unrecognized command|Command not found[^\n]*)");

firmware_report parse(std::string_view text) {
  firmware_report r;
  for (const auto& m : detail::matches(text, summary_line)) {
    const double end = detail::decimal(m[1]);
    if (r.seconds && end < *r.seconds) continue;
    r.seconds = end;
    const double v = detail::decimal(m[2]);
    r.mbit_per_second = m[3] == "K" ? v / 1000 : m[3] == "G" ? v * 1000 : v;
  }
  for (const auto& m : detail::matches(text, error_line)) r.errors.push_back(m[0]);
  return r;
}

}  // namespace esp
}  // namespace

const dialect& esp_idf() {
  static const dialect d{"esp-idf",  console::pattern::literal("iperf>"),
                         "\n",       esp::command,
                         esp::abort, esp::end_markers,
                         esp::parse, esp::ready};
  return d;
}

}  // namespace hil::firmware
