// The ST67W6X CLI's ping (x-cube-st67w61, the LwIP CLI application's ping.c), as
// docs/console-duts.md describes it.
#include <fmt/format.h>

#include <regex>
#include <stdexcept>

#include "hil/firmware/detail/report_text.hpp"
#include "hil/firmware/ping.hpp"

namespace hil::firmware {
namespace {
namespace st67_ping {  // named apart from other dialects' files in a unity build

using namespace std::chrono_literals;

constexpr std::uint32_t max_payload = 1470;  // the command's usage text
constexpr auto interval = 1000ms;            // its default interval between requests
constexpr auto reply_timeout = 3500ms;       // how long it waits for each reply

std::string command(const ping_request& r) {
  if (r.peer_address.empty()) throw std::invalid_argument("a ping needs the PC's address");
  if (r.count < 1 || r.payload_bytes < 1 || r.payload_bytes > max_payload) {
    throw std::invalid_argument(fmt::format(
        "ST67W6X's ping takes a count of at least 1 and a size of 1 to {} bytes (asked {} of {})",
        max_payload, r.count, r.payload_bytes));
  }
  return fmt::format("ping {} -c {} -s {}", r.peer_address, r.count, r.payload_bytes);
}

// `4 packets transmitted, 4 received, 0% packet loss, time 3ms` (its loss is divided by the
// replies, not the requests, and its "time" is the average round trip: neither is read).
const std::regex summary_line(R"((\d+) packets transmitted, (\d+) received)");
const std::regex reply_line(R"(Ping: (\d+) ms)");
const std::regex error_line(
    R"(Ping timeout|(?:recvfrom|sendto)\(\) failed[^\n]*|No ping received|Invalid IPv4 address[^\n]*|Missing IPv4 address argument|No valid IPv4 address[^\n]*|Default network interface not set|Ping (?:count|size|interval) is invalid[^\n]*|[^\n]*: command not found\.?)");

std::vector<console::pattern> end_markers(const ping_request&) {
  return {console::pattern::regex(R"(\d+ packets transmitted, \d+ received[^\n]*\n)"),
          console::pattern::regex(R"((?:recvfrom|sendto)\(\) failed[^\n]*\n)"),
          console::pattern::literal("No ping received"),
          console::pattern::regex(R"(Invalid IPv4 address[^\n]*\n)"),
          console::pattern::literal("No valid IPv4 address"),
          console::pattern::literal("Default network interface not set"),
          console::pattern::regex(R"(Ping (?:count|size|interval) is invalid)"),
          console::pattern::literal(": command not found")};
}

ping_report parse(std::string_view text) {
  ping_report r;
  for (const auto& m : detail::matches(text, reply_line)) r.rtt_ms.push_back(detail::decimal(m[1]));
  for (const auto& m : detail::matches(text, summary_line)) {
    r.transmitted = static_cast<unsigned>(detail::whole(m[1]));
    r.received = static_cast<unsigned>(detail::whole(m[2]));
  }
  for (const auto& m : detail::matches(text, error_line)) r.errors.push_back(m[0]);
  return r;
}

std::chrono::milliseconds longest(const ping_request& r) {
  return r.count * (interval + reply_timeout);
}

}  // namespace st67_ping
}  // namespace

const ping_dialect& st67w6x_ping() {
  static const ping_dialect p{st67_ping::command, st67_ping::end_markers, st67_ping::parse,
                              st67_ping::longest};
  return p;
}

const ping_dialect* ping_of(std::string_view dialect_name) {
  if (dialect_name == "st67w6x") return &st67w6x_ping();
  return nullptr;
}

}  // namespace hil::firmware
