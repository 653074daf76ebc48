// The ST67W6X CLI's iperf (x-cube-st67w61, Utils/Performance/iperf_shell.c and iperf.c), as
// docs/console-duts.md describes it: what the shell parses, and the lines the report task prints.
#include <fmt/format.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/firmware/detail/report_text.hpp"
#include "hil/firmware/dialect.hpp"

namespace hil::firmware {
namespace {
namespace st67 {  // named apart from other dialects' files in a unity build

// -b is read with atoi as Mbit/s: only whole Mbit/s can be asked, and omitted it is 1 Mbit/s.
std::string rate_option(std::uint64_t bitrate_bps) {
  if (bitrate_bps == 0) {
    throw std::invalid_argument(
        "ST67W6X's iperf sends UDP at 1 Mbit/s unless -b is given: name the rate");
  }
  if (bitrate_bps % 1'000'000 != 0) {
    throw std::invalid_argument(fmt::format(
        "ST67W6X's iperf takes -b in whole Mbit/s: {:g} Mbit/s cannot be asked (use {} or {})",
        static_cast<double>(bitrate_bps) / 1e6, bitrate_bps / 1'000'000,
        bitrate_bps / 1'000'000 + 1));
  }
  return fmt::format(" -b {}", bitrate_bps / 1'000'000);
}

std::string command(const iperf_request& r) {
  std::string line = detail::iperf2_style_head(r);
  if (r.protocol == iperf_protocol::udp && r.role == iperf_role::client) {
    line += rate_option(r.bitrate_bps);
  }
  line += fmt::format(" -t {}", r.duration.count());
  if (r.port != 5001) line += fmt::format(" -p {}", r.port);
  return line;
}

// `[  1]  0.0-10.0 sec  51.20 MBytes    42.9 Mbits/sec` (an interval line with -i has the same
// shape: the summary is the one from 0.0 that ends last).
const std::regex summary_line(
    R"(\[\s*\d+\]\s+0\.0-\s*(\d+\.\d+) sec\s+\S+ MBytes\s+(\d+\.\d+) Mbits/sec)");
// `[  1]                  12/ 4256 ( 0.2%)` (server) or `[  1] 1.234 ms    12/ 4256 (0%)` (client,
// from the peer's report).
const std::regex loss_line(R"(\[\s*\d+\][^/\n]*?(\d+)/\s*(\d+)\s*\()");
// The iperf command's own failures (the shell's, the handler's, the traffic task's).
const std::regex error_line(
    R"((?:tcp|udp) (?:server recv|client send) error, error code:[^\n]*|\[iperf\][^\n]*|[^\n]*: command not found\.?|Unknown argument[^\n]*|client/server required|Invalid server address|iperf aborting[^\n]*)");
const std::regex log_error_line(R"(\[ERROR\][^\n]*)");

// A server's banner line, printed once its socket is bound: `[UDP] Server listening on port 5001`.
std::vector<console::pattern> ready(const iperf_request& r) {
  if (r.role != iperf_role::server) return {};
  return {console::pattern::literal(fmt::format("[{}] Server listening on port {}",
                                                r.protocol == iperf_protocol::udp ? "UDP" : "TCP",
                                                r.port))};
}

firmware_report parse(std::string_view text) {
  firmware_report r;
  for (const auto& m : detail::matches(text, summary_line)) {
    const double end = detail::decimal(m[1]);
    if (!r.seconds || end >= *r.seconds) {
      r.seconds = end;
      r.mbit_per_second = detail::decimal(m[2]);
    }
  }
  for (const auto& m : detail::matches(text, loss_line)) {
    r.lost = detail::whole(m[1]);
    r.total = detail::whole(m[2]);
  }
  for (const auto& m : detail::matches(text, error_line)) r.errors.push_back(m[0]);
  for (const auto& m : detail::matches(text, log_error_line)) r.log_errors.push_back(m[0]);
  return r;
}

}  // namespace st67
}  // namespace

const dialect& st67w6x() {
  static const dialect d{
      "st67w6x", console::pattern::literal("w61/>"),
      // The shell runs a line at CR and at LF alike: CR LF would run it and then an empty line
      // (a second prompt).
      "\n", st67::command, [](const iperf_request&) { return std::string("iperf -a"); },
      [](const iperf_request&) {
        return std::vector<console::pattern>{console::pattern::literal("iperf exit")};
      },
      st67::parse, st67::ready};
  return d;
}

}  // namespace hil::firmware
