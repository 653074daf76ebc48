#include "hil/firmware/detail/report_text.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

namespace hil::firmware::detail {

double decimal(std::string_view text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::uint64_t whole(std::string_view text) {
  std::uint64_t v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::vector<std::vector<std::string>> matches(std::string_view text, const std::regex& line) {
  std::vector<std::vector<std::string>> out;
  for (std::cregex_iterator it(text.data(), text.data() + text.size(), line), end; it != end;
       ++it) {
    std::vector<std::string> groups;
    for (const auto& g : *it) groups.push_back(g.str());
    out.push_back(std::move(groups));
  }
  return out;
}

std::string iperf2_style_head(const iperf_request& r) {
  if (r.duration.count() <= 0) throw std::invalid_argument("an iperf run of no time");
  if (r.role == iperf_role::server) {
    return r.protocol == iperf_protocol::udp ? "iperf -s -u" : "iperf -s";
  }
  if (r.peer_address.empty()) throw std::invalid_argument("an iperf client needs a server");
  return "iperf -c " + r.peer_address + (r.protocol == iperf_protocol::udp ? " -u" : "");
}

std::string decimal_rate(std::uint64_t bitrate_bps, char mega, char kilo,
                         std::string_view firmware) {
  if (bitrate_bps == 0) {
    throw std::invalid_argument(fmt::format("{}'s iperf needs the UDP rate named", firmware));
  }
  if (bitrate_bps % 1'000'000 == 0) return fmt::format("{}{}", bitrate_bps / 1'000'000, mega);
  if (bitrate_bps % 1'000 == 0) return fmt::format("{}{}", bitrate_bps / 1'000, kilo);
  throw std::invalid_argument(fmt::format("{}'s iperf takes whole kbit/s: {} bit/s cannot be asked",
                                          firmware, bitrate_bps));
}

}  // namespace hil::firmware::detail
