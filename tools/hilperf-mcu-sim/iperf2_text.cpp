#include "iperf2_text.hpp"

#include <regex>
#include <string>

namespace hil::mcu_sim {
namespace {

const std::regex figures_line(
    R"(^\[\s*\d+\]\s+(\d+\.\d+)-\s*(\d+\.\d+) sec\s+(\d+) Bytes\s+(\d+) bits/sec)"
    R"((?:\s+(\d+\.\d+) ms\s+(-?\d+)/\s*(\d+)\s*\()?)");

// iPerf 2's failures that end a run: a refused or unreachable peer, a port in use. ("read failed"
// is a UDP client's wait for a server report that does not come: the run itself went well.)
const std::regex failure_line(R"((?:connect|bind|listen) failed: .*)");
const std::regex connection_line(R"(local (\S+) port (\d+) connected with (\S+) port (\d+))");
const std::regex sent_line(R"(Sent (\d+) datagrams)");
const std::regex out_of_order_line(R"((\d+) datagrams received out-of-order)");

std::uint16_t port_of(const std::string& text) {
  return static_cast<std::uint16_t>(std::stoul(text));
}

}  // namespace

std::optional<iperf2_figures> read_figures(std::string_view line) {
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(line.begin(), line.end(), m, figures_line)) return std::nullopt;
  iperf2_figures f;
  f.start_seconds = std::stod(m[1].str());
  f.end_seconds = std::stod(m[2].str());
  f.bytes = std::stoull(m[3].str());
  f.bits_per_second = std::stoull(m[4].str());
  if (m[5].matched) {
    f.jitter_ms = std::stod(m[5].str());
    const long long lost = std::stoll(m[6].str());
    f.lost = lost < 0 ? 0 : static_cast<std::uint64_t>(lost);
    f.total = std::stoull(m[7].str());
  }
  return f;
}

iperf2_run_text read_run_text(std::string_view output) {
  iperf2_run_text r;
  std::size_t at = 0;
  for (std::size_t end; (end = output.find('\n', at)) != std::string_view::npos; at = end + 1) {
    const std::string_view line = output.substr(at, end - at);
    if (const auto f = read_figures(line)) {
      (f->lost ? r.udp : r.own).push_back(*f);
    } else if (line.find("connected with") != std::string_view::npos) {
      r.connected = true;
      std::match_results<std::string_view::const_iterator> m;
      if (std::regex_search(line.begin(), line.end(), m, connection_line)) {
        r.connections.push_back({m[1].str(), port_of(m[2].str()), m[3].str(), port_of(m[4].str())});
      }
    } else if (std::match_results<std::string_view::const_iterator> m;
               std::regex_search(line.begin(), line.end(), m, sent_line)) {
      r.sent = std::stoull(m[1].str());
    } else if (std::regex_search(line.begin(), line.end(), m, out_of_order_line)) {
      r.out_of_order = std::stoull(m[1].str());
    } else if (!r.failure && std::regex_search(line.begin(), line.end(), failure_line)) {
      r.failure = std::string(line);
    }
  }
  return r;
}

}  // namespace hil::mcu_sim
