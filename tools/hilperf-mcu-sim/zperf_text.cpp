#include "zperf_text.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <strings.h>

#include <array>
#include <cstdlib>
#include <optional>

namespace hil::mcu_sim::zperf {
namespace {

constexpr std::string_view green = "\x1b[1;32m";
constexpr std::string_view yellow = "\x1b[1;33m";
constexpr std::string_view red = "\x1b[1;31m";
constexpr std::string_view colours_off = "\x1b[m";

// print_number: the value in the first unit it reaches, with two decimals (truncated), or in the
// last unit whole.
template <typename T, std::size_t N>
std::string number_text(std::uint64_t value, const std::array<T, N>& divisors,
                        const std::array<const char*, N>& units) {
  std::size_t i = 0;
  while (value < divisors[i]) ++i;
  if (divisors[i] == 0) return fmt::format("{} {}", value, units[i]);
  const std::uint64_t dec = (value % divisors[i]) * 100 / divisors[i];
  return fmt::format("{}.{:02} {}", value / divisors[i], dec, units[i]);
}

// parse_number: leading digits (strtoul), times 10^6 for an M suffix, 10^3 for K (either case).
std::uint64_t parse_number(const std::string& text) {
  char* suffix = nullptr;
  const std::uint64_t value = std::strtoul(text.c_str(), &suffix, 10);
  if (::strncasecmp(suffix, "M", 1) == 0) return value * 1'000'000;
  if (::strncasecmp(suffix, "K", 1) == 0) return value * 1'000;
  return value;
}

run_protocol protocol_of(const std::string& word) {
  return word == "udp" ? run_protocol::udp : run_protocol::tcp;
}

const char* name_of(run_protocol p) { return p == run_protocol::udp ? "UDP" : "TCP"; }

bool is_address(const std::string& text) {
  std::array<unsigned char, 16> buf{};
  return ::inet_pton(AF_INET, text.c_str(), buf.data()) == 1 ||
         ::inet_pton(AF_INET6, text.c_str(), buf.data()) == 1;
}

// An option's number (-S 5 or -S5), as parse_arg reads it; nullopt when there is none.
std::optional<long> option_value(const std::vector<std::string>& words, std::size_t& i) {
  std::string text = words[i].substr(2);
  if (text.empty()) {
    if (i + 1 >= words.size()) return std::nullopt;
    text = words[++i];
  }
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, text.starts_with("0x") ? 16 : 10);
  if (end == text.c_str()) return std::nullopt;
  return v;
}

// The options of an upload (shell_cmd_upload): the index of the first positional word, or the
// refusal.
std::variant<std::size_t, refusal> upload_options(const std::vector<std::string>& words, bool udp) {
  std::size_t i = 2;
  for (; i < words.size() && words[i].starts_with("-") && words[i].size() > 1; ++i) {
    const std::string& w = words[i];
    switch (w[1]) {
      case 'S':
      case 'p':
      case 'i': {
        if (w[1] == 'i' && udp) return refusal{{warning("UDP does not support -i option")}};
        const auto v = option_value(words, i);
        if (!v || *v < 0 || *v > (w[1] == 'i' ? 65535 : 255)) {
          return refusal{{warning("Parse error: " + words[i])}};
        }
        break;
      }
      case 'a':
        break;  // asynchronous: played blocking all the same (docs/console-duts.md)
      case 'n':
        if (udp) return refusal{{warning("UDP does not support -n option")}};
        break;
      case 'I':
        if (++i >= words.size()) return refusal{{warning("-I <interface name>")}};
        break;
      default:
        return refusal{{warning("Unrecognized argument: " + w)}};
    }
  }
  return i;
}

command parse_upload(const std::vector<std::string>& words) {
  upload u;
  u.protocol = protocol_of(words[0]);
  const bool udp = u.protocol == run_protocol::udp;
  const auto first = upload_options(words, udp);
  if (const auto* r = std::get_if<refusal>(&first)) return *r;
  const std::vector<std::string> p(words.begin() + static_cast<long>(std::get<std::size_t>(first)),
                                   words.end());
  if (p.empty()) return refusal{{warning("Not enough parameters.")}};
  if (p.size() > 1) u.said.push_back("Remote port is " + p[1]);
  if (p.size() > 1) u.port = static_cast<std::uint16_t>(std::strtoul(p[1].c_str(), nullptr, 10));
  if (!is_address(p[0]) || u.port == 0) {
    refusal r{u.said};
    if (u.port == 0) {
      r.lines.push_back(warning("Invalid port " + p[1]));
    } else {
      r.lines.push_back(warning("Invalid IP address " + p[0]));
    }
    r.lines.push_back(warning("Please specify the IP address of the remote server."));
    return r;
  }
  u.peer = p[0];
  u.said.push_back("Connecting to " + p[0]);
  if (p.size() > 2) u.seconds = static_cast<std::uint32_t>(std::strtoul(p[2].c_str(), nullptr, 10));
  if (p.size() > 3) u.packet_size = static_cast<std::uint32_t>(parse_number(p[3]));
  if (p.size() > 4) {
    u.rate_kbps = static_cast<std::uint32_t>((parse_number(p[4]) + 999) / 1000);
    if (!udp) u.said.push_back(warning("TCP upload will ignore <baud rate> argument"));
  }
  return u;
}

command parse_download(const std::vector<std::string>& words) {
  const run_protocol proto = protocol_of(words[0]);
  if (words.size() > 2 && words[2] == "stop") return download_stop{proto};
  download d{proto, 5001};
  std::size_t i = 2;
  for (; i < words.size() && words[i].starts_with("-"); ++i) {
    if (words[i] != "-I") {
      return refusal{
          {warning("Unrecognized argument: " + words[i]), warning("Unable to parse option.")}};
    }
    if (++i >= words.size()) {
      return refusal{{warning("-I <interface name>"), warning("Unable to parse option.")}};
    }
  }
  if (i < words.size()) {
    d.port = static_cast<std::uint16_t>(std::strtoul(words[i].c_str(), nullptr, 10));
  }
  return d;
}

}  // namespace

command parse_command(const std::vector<std::string>& words) {
  if (words.size() < 2) {
    if (!words.empty() && words[0] != "udp" && words[0] != "tcp") {
      return refusal{{error(command_not_found(words[0]))}};
    }
    return refusal{{error("Please specify a subcommand.")}};
  }
  if (words[0] != "udp" && words[0] != "tcp") return refusal{{error(command_not_found(words[0]))}};
  if (words[1] == "upload") return parse_upload(words);
  if (words[1] == "download") return parse_download(words);
  return refusal{{error(command_not_found(words[1]))}};
}

std::string prompt() { return fmt::format("{}uart:~$ {}", green, colours_off); }

std::string asynchronous(std::string_view text, std::string_view typed) {
  return fmt::format("\x1b[{}D\x1b[J{}{}{}", prompt_width + typed.size(), text, prompt(), typed);
}

std::string warning(std::string_view text) {
  return fmt::format("{}{}{}", yellow, text, colours_off);
}

std::string error(std::string_view text) { return fmt::format("{}{}{}", red, text, colours_off); }

std::string boot_banner() {
  return "*** Booting Zephyr OS build v3.7.0 (hilperf-mcu-sim) ***\n"
         "[00:00:00.010,000] <inf> net_config: Initializing network\n";
}

std::string command_not_found(std::string_view name) {
  return fmt::format("{}: command not found", name);
}

std::string log_line(std::uint64_t uptime_ms, std::string_view level, std::string_view module,
                     std::string_view text) {
  const std::uint64_t s = uptime_ms / 1000;
  return fmt::format("[{:02}:{:02}:{:02}.{:03},000] <{}> {}: {}", s / 3600, s / 60 % 60, s % 60,
                     uptime_ms % 1000, level, module, text);
}

std::string time_text(std::uint64_t microseconds) {
  static constexpr std::array<std::uint64_t, 4> divisors{60'000'000, 1'000'000, 1'000, 0};
  static constexpr std::array<const char*, 4> units{"m", "s", "ms", "us"};
  return number_text(microseconds, divisors, units);
}

std::string rate_text(std::uint32_t kbps) {
  static constexpr std::array<std::uint64_t, 2> divisors{1000, 0};
  static constexpr std::array<const char*, 2> units{"Mbps", "Kbps"};
  return number_text(kbps, divisors, units);
}

std::string upload_start(const upload& u) {
  std::string out =
      fmt::format("Duration:\t{}\nPacket size:\t{} bytes\nRate:\t\t{} kbps\nStarting...\n",
                  time_text(std::uint64_t{u.seconds} * 1'000'000), u.packet_size, u.rate_kbps);
  if (u.protocol == run_protocol::udp) {
    const std::uint64_t per_packet =
        u.rate_kbps == 0 ? 0
                         : std::uint64_t{u.packet_size} * 8 * 1'000'000 / (u.rate_kbps * 1024ULL);
    out += fmt::format("Rate:\t\t{}\n", rate_text(u.rate_kbps));
    out += per_packet > 1000 ? fmt::format("Packet duration {} ms\n", per_packet / 1000)
                             : fmt::format("Packet duration {} us\n", per_packet);
  }
  return out;
}

namespace {

std::uint32_t kbps_of(std::uint64_t bytes, std::uint64_t microseconds) {
  return microseconds == 0
             ? 0
             : static_cast<std::uint32_t>(bytes * 8 * 1'000'000 / (microseconds * 1000));
}

}  // namespace

std::string upload_stats(run_protocol protocol, const results& r) {
  const std::uint32_t client_kbps =
      kbps_of(std::uint64_t{r.packets_sent} * r.packet_size, r.client_time_in_us);
  std::string out = "-\nUpload completed!\n";
  if (protocol == run_protocol::tcp) {
    return out + fmt::format(
                     "Duration:\t{}\nNum packets:\t{}\nNum errors:\t{} (retry or fail)\n"
                     "Rate:\t\t{}\n",
                     time_text(r.client_time_in_us), r.packets_sent, r.packets_errors,
                     rate_text(client_kbps));
  }
  const std::uint32_t server_kbps = kbps_of(r.total_len, r.time_in_us);
  if (server_kbps == 0) out += error("LAST PACKET NOT RECEIVED!!!\n");
  out += fmt::format("Statistics:\t\tserver\t(client)\nDuration:\t\t{}\t({})\n",
                     time_text(r.time_in_us), time_text(r.client_time_in_us));
  out +=
      fmt::format("Num packets:\t\t{}\t({})\nNum packets out order:\t{}\nNum packets lost:\t{}\n",
                  r.packets_received, r.packets_sent, r.packets_out_of_order, r.packets_lost);
  out += fmt::format("Jitter:\t\t\t{}\nRate:\t\t\t{}\t({})\n", time_text(r.jitter_us),
                     rate_text(server_kbps), rate_text(client_kbps));
  return out;
}

std::string server_started(run_protocol protocol, std::uint16_t port) {
  return fmt::format("{} server started on port {}\n", name_of(protocol), port);
}

std::string session_started(run_protocol protocol) {
  return protocol == run_protocol::udp ? "New session started.\n" : "New TCP session started.\n";
}

std::vector<std::string> session_end(run_protocol protocol, const results& r) {
  const std::string rate = rate_text(kbps_of(r.total_len, r.time_in_us));
  if (protocol == run_protocol::tcp) {
    return {"TCP session ended\n",
            " Duration:\t\t",
            time_text(r.time_in_us),
            "\n",
            " rate:\t\t\t",
            rate,
            "\n"};
  }
  return {"End of session!\n",
          " duration:\t\t",
          time_text(r.time_in_us),
          "\n",
          fmt::format(" received packets:\t{}\n", r.packets_received),
          fmt::format(" nb packets lost:\t{}\n", r.packets_lost),
          fmt::format(" nb packets outorder:\t{}\n", r.packets_out_of_order),
          " jitter:\t\t\t",
          time_text(r.jitter_us),
          "\n",
          " rate:\t\t\t",
          rate,
          "\n"};
}

}  // namespace hil::mcu_sim::zperf
