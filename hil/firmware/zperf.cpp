// Zephyr's zperf shell (subsys/net/lib/zperf/zperf_shell.c), as docs/console-duts.md describes
// it: positional upload arguments, a blocking upload whose statistics follow `Upload completed!`,
// a download whose session report follows `End of session!` (UDP) or `TCP session ended`.
#include <fmt/format.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/firmware/detail/report_text.hpp"
#include "hil/firmware/dialect.hpp"

namespace hil::firmware {
namespace {
namespace zp {  // named apart from other dialects' files in a unity build

// zperf's largest datagram by default (CONFIG_NET_ZPERF_MAX_PACKET_SIZE): the size an upload
// names when the request leaves it to the firmware (the positional rate needs a size before it).
constexpr std::uint32_t default_datagram = 1024;

const char* proto(const iperf_request& r) {
  return r.protocol == iperf_protocol::udp ? "udp" : "tcp";
}

std::string command(const iperf_request& r) {
  if (r.duration.count() <= 0) throw std::invalid_argument("a zperf run of no time");
  if (r.role == iperf_role::server) return fmt::format("zperf {} download {}", proto(r), r.port);
  if (r.peer_address.empty()) throw std::invalid_argument("a zperf upload needs a server");
  const std::uint32_t size = r.datagram_bytes != 0 ? r.datagram_bytes : default_datagram;
  std::string line = fmt::format("zperf {} upload {} {} {} {}", proto(r), r.peer_address, r.port,
                                 r.duration.count(), size);
  if (r.protocol == iperf_protocol::udp) {
    line += " " + detail::decimal_rate(r.bitrate_bps, 'M', 'K', "zperf");
  }
  return line;
}

std::string abort(const iperf_request& r) {
  // An upload blocks the shell until it ends; a download is stopped by name.
  return r.role == iperf_role::server ? fmt::format("zperf {} download stop", proto(r)) : "";
}

// The report's last line: an upload's `Rate:` after `Upload completed!`, a download's ` rate:`
// after its session's end; or a failure.
std::vector<console::pattern> end_markers(const iperf_request& r) {
  const char* done = r.role == iperf_role::client        ? "Upload completed!"
                     : r.protocol == iperf_protocol::udp ? "End of session!"
                                                         : "TCP session ended";
  return {
      console::pattern::regex(fmt::format(R"({}[\s\S]*?[Rr]ate:[^\n]*\n)", done)),
      console::pattern::regex(
          R"((?:UDP|TCP) upload failed \(-?\d+\)|UDP session error\.|UDP server already started!|TCP server already started!)"),
      // A download stopped (`zperf udp download stop`), or found already over by the stop.
      console::pattern::regex(R"((?:UDP|TCP) server (?:stopped|not running!))")};
}

// A download's server bound: `UDP server started on port 5001` (zperf_shell.c), then the prompt.
std::vector<console::pattern> ready(const iperf_request& r) {
  if (r.role != iperf_role::server) return {};
  return {console::pattern::literal(fmt::format(
      "{} server started on port {}", r.protocol == iperf_protocol::udp ? "UDP" : "TCP", r.port))};
}

// `Rate:\t\t\t1.01 Mbps\t(1.01 Mbps)` (the server's, then the client's) or ` rate:\t\t27.70 Mbps`
// (`N Kbps` below a megabit); `Duration:\t\t10.01 s` (or ms, us).
const std::regex rate_line(R"([Rr]ate:\s+([\d.]+) ([MK])bps)");
const std::regex duration_line(R"([Dd]uration:\s+([\d.]+) (s|ms|us))");
const std::regex upload_counts(R"(Num packets:\s+(\d+)[\s\S]*?Num packets lost:\s+(\d+))");
const std::regex download_counts(R"(received packets:\s+(\d+)[\s\S]*?nb packets lost:\s+(\d+))");
const std::regex error_line(
    R"((?:UDP|TCP) upload failed \(-?\d+\)|UDP session error\.|(?:UDP|TCP) server already started!|LAST PACKET NOT RECEIVED!!!)");

// A download's report is printed by another thread through the shell, which draws its prompt
// again around each print, so with the colours taken out a figure reads
// ` rate:\t\t\tuart:~$ 26.99 Mbps`: the prompt's text is taken out before the figures are read.
std::string without_prompts(std::string_view text) {
  static const std::regex redrawn(R"(uart:~\$ ?)");
  return std::regex_replace(std::string(text), redrawn, "");
}

firmware_report parse(std::string_view raw) {
  firmware_report r;
  const std::string text = without_prompts(raw);
  if (const auto rates = detail::matches(text, rate_line); !rates.empty()) {
    // The last `Rate:` line: an upload's statistics come after the rate it announced, and
    // their line gives the server's figure first.
    const auto& m = rates.back();
    r.mbit_per_second = m[2] == "K" ? detail::decimal(m[1]) / 1000 : detail::decimal(m[1]);
  }
  if (const auto d = detail::matches(text, duration_line); !d.empty()) {
    const auto& m = d.back();
    const double per_second = m[2] == "s" ? 1 : m[2] == "ms" ? 1e3 : 1e6;
    r.seconds = detail::decimal(m[1]) / per_second;
  }
  for (const auto& m : detail::matches(text, upload_counts)) {
    r.total = detail::whole(m[1]);
    r.lost = detail::whole(m[2]);
  }
  for (const auto& m : detail::matches(text, download_counts)) {
    r.lost = detail::whole(m[2]);
    r.total = detail::whole(m[1]) + *r.lost;
  }
  for (const auto& m : detail::matches(text, error_line)) r.errors.push_back(m[0]);
  return r;
}

}  // namespace zp
}  // namespace

const dialect& zperf() {
  static const dialect d{"zperf",   console::pattern::literal("uart:~$"),
                         "\n",      zp::command,
                         zp::abort, zp::end_markers,
                         zp::parse, zp::ready};
  return d;
}

}  // namespace hil::firmware
