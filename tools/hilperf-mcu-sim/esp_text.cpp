#include "esp_text.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <optional>

namespace hil::mcu_sim::esp {
namespace {

// The options that take a value, short and long (iperf_cmd_register_iperf's argtable).
struct option {
  char letter;  // 0: long only
  std::string_view name;
  bool number;  // arg_int (else arg_str)
};
constexpr std::array<option, 12> value_options{{{'c', "client", false},
                                                {'p', "port", true},
                                                {'B', "bind", false},
                                                {0, "cport", true},
                                                {'l', "len", true},
                                                {'i', "interval", true},
                                                {'t', "time", true},
                                                {'b', "bandwidth", false},
                                                {'f', "format", false},
                                                {'S', "tos", true},
                                                {0, "id", true},
                                                {'P', "parallel", true}}};

const option* value_option(std::string_view word, std::string& attached) {
  for (const auto& o : value_options) {
    if (word.starts_with("--")) {
      const std::string_view rest = word.substr(2);
      if (rest == o.name) return &o;
      if (rest.starts_with(o.name) && rest.size() > o.name.size() && rest[o.name.size()] == '=') {
        attached = std::string(rest.substr(o.name.size() + 1));
        return &o;
      }
    } else if (o.letter != 0 && word.size() >= 2 && word[0] == '-' && word[1] == o.letter) {
      attached = std::string(word.substr(2));
      return &o;
    }
  }
  return nullptr;
}

std::optional<long> whole_number(const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0') return std::nullopt;
  return v;
}

refusal argument_error(std::string text) { return refusal{{"iperf: " + std::move(text)}, {}, 1}; }

// The words as argtable reads them: literal flags and option values, or its error.
struct parsed {
  bool client = false, server = false, udp = false, ipv6 = false, abort = false, help = false;
  std::array<std::optional<std::string>, value_options.size()> values;
};

std::variant<parsed, refusal> read_words(const std::vector<std::string>& words) {
  parsed p;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-s" || w == "--server") {
      p.server = true;
    } else if (w == "-u" || w == "--udp") {
      p.udp = true;
    } else if (w == "-V" || w == "--ipv6_domain") {
      p.ipv6 = true;
    } else if (w == "--abort") {
      p.abort = true;
    } else if (w == "--help") {
      p.help = true;
    } else {
      std::string value;
      const option* o = value_option(w, value);
      if (o == nullptr) return argument_error(fmt::format("invalid option \"{}\"", w));
      if (value.empty()) {
        if (i + 1 >= words.size()) {
          return argument_error(fmt::format("option \"{}\" requires an argument", w));
        }
        value = words[++i];
      }
      if (o->number && !whole_number(value)) {
        return argument_error(fmt::format("invalid argument \"{}\" to option {}", value, w));
      }
      p.values[static_cast<std::size_t>(o - value_options.data())] = value;
      p.client = p.client || o->name == "client";
    }
  }
  return p;
}

const std::optional<std::string>& value_of(const parsed& p, std::string_view name) {
  for (std::size_t i = 0; i < value_options.size(); ++i) {
    if (value_options[i].name == name) return p.values[i];
  }
  static const std::optional<std::string> none;
  return none;
}

int number_of(const parsed& p, std::string_view name, int otherwise) {
  const auto& v = value_of(p, name);
  return v ? static_cast<int>(*whole_number(*v)) : otherwise;
}

}  // namespace

std::int64_t bandwidth_of(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const long long value = std::strtoll(s.c_str(), &end, 10);
  if (value <= 0) return -1;
  std::int64_t base = 1;
  switch (*end) {
    case 'k':
      base = 1000;
      break;
    case 'K':
      base = 1024;
      break;
    case 'm':
      base = 1000 * 1000;
      break;
    case 'M':
      base = 1024 * 1024;
      break;
    case 'g':
      base = 1000 * 1000 * 1000;
      break;
    case 'G':
      base = 1024 * 1024 * 1024;
      break;
    default:
      break;
  }
  // The firmware multiplies in 32 bits: a product past INT32_MAX reads as no limit.
  const std::int64_t bps = value * base;
  return bps > 0x7fffffff ? -1 : bps;
}

command parse_iperf(const std::vector<std::string>& words) {
  const auto read = read_words(words);
  if (const auto* r = std::get_if<refusal>(&read)) return *r;
  const parsed& p = std::get<parsed>(read);
  if (p.help)
    return refusal{{"Usage: iperf [-suV] [--help] [-c <host>] [-p <port>] [-B <host>] "
                    "[--cport=<port>] [-l <length>] [-i <interval>] [-t <time>] "
                    "[-b <bandwidth>] [-f <format>] [-S <tos>] [--id=<id>] [--abort] "
                    "[-P <parallel number>]"},
                   {},
                   0};
  if (p.abort) return abort_all{};
  if (p.client == p.server) return refusal{{}, "should specific client/server mode", 0};
  run r;
  r.role = p.client ? run_role::client : run_role::server;
  r.protocol = p.udp ? run_protocol::udp : run_protocol::tcp;
  if (p.client) {
    r.peer = *value_of(p, "client");
    std::array<unsigned char, 16> address{};
    if (::inet_pton(p.ipv6 ? AF_INET6 : AF_INET, r.peer.c_str(), address.data()) != 1) {
      return refusal{{}, "invalid destination address", 1};
    }
  }
  r.port = static_cast<std::uint16_t>(number_of(p, "port", 5001));
  r.length = number_of(p, "len", 0);
  r.interval = number_of(p, "interval", 3);
  if (r.interval <= 0) r.interval = 3;
  if (value_of(p, "time")) {
    r.time = number_of(p, "time", 30);
    if (r.time <= r.interval) r.time = r.interval;
  }
  if (const auto& b = value_of(p, "bandwidth")) r.bits_per_second = bandwidth_of(*b);
  if (const auto& f = value_of(p, "format"); f && !f->empty()) {
    const char c = (*f)[0];
    if (c == 'k' || c == 'm' || c == 'K' || c == 'M') r.format = c;
  }
  return r;
}

std::string log_line(char level, std::uint64_t uptime_ms, std::string_view tag,
                     std::string_view text) {
  const char* colour = level == 'E' ? "\x1b[0;31m" : level == 'W' ? "\x1b[0;33m" : "\x1b[0;32m";
  return fmt::format("{}{} ({}) {}: {}\x1b[0m", colour, level, uptime_ms, tag, text);
}

std::string instance_tag(int id) { return fmt::format("iperf(id={})", id); }

std::string mode_text(const run& r) {
  const bool server = r.role == run_role::server;
  return fmt::format("mode={}-{} sip=0.0.0.0:{}, dip={}:{}, interval={}, time={}",
                     r.protocol == run_protocol::tcp ? "tcp" : "udp", server ? "server" : "client",
                     server ? r.port : 0, server ? "0.0.0.0" : r.peer, server ? 0 : r.port,
                     r.interval, r.time);
}

std::string connect_info(int id, std::string_view local, std::uint16_t local_port,
                         std::string_view remote, std::uint16_t remote_port) {
  return fmt::format("[{:3}] local {}:{} connected to {}:{}", id, local, local_port, remote,
                     remote_port);
}

std::string traffic_header() { return "\n[ ID] Interval\t\tTransfer\tBandwidth"; }

std::string traffic_line(int id, int start, int end, std::uint64_t bytes, char format) {
  const auto b = static_cast<double>(bytes);
  const bool in_bytes = format == 'K' || format == 'M';
  const char unit = format == 'k' || format == 'K' ? 'K' : 'M';
  const double transfer = format == 'k'   ? b / 1000.0
                          : format == 'K' ? b / 1024.0
                          : format == 'M' ? b / 1024.0 / 1024.0
                                          : b / 1000.0 / 1000.0;
  const int seconds = end - start;
  const double bandwidth = seconds <= 0 ? 0 : transfer / seconds * (in_bytes ? 1 : 8);
  return fmt::format("[{:3}] {:2}.0-{:2}.0 sec\t{:2.2f} {}Bytes\t{:.2f} {}{}s/sec", id, start, end,
                     transfer, unit, bandwidth, unit, in_bytes ? "Byte" : "bit");
}

std::string traffic_task_error(const run& r) {
  const bool tcp = r.protocol == run_protocol::tcp;
  const bool server = r.role == run_role::server;
  // iperf.c's lines of the four ESP_GOTO_ON_ERROR calls in iperf_traffic_task (iperf-cmd 1.0.2).
  const int line = tcp ? (server ? 615 : 617) : (server ? 619 : 621);
  return fmt::format("iperf_traffic_task({}): an error occurred while running {} {}", line,
                     tcp ? "tcp" : "udp", server ? "server" : "client");
}

std::string prompt(std::string_view name) { return fmt::format("{} ", name); }

std::string boot_banner() {
  return "ESP-ROM:esp32c3-api1-20210207\n"
         "rst:0x1 (POWERON),boot:0xc (SPI_FAST_FLASH_BOOT)\n"
         "I (30) boot: ESP-IDF v5.3 2nd stage bootloader (hilperf-mcu-sim)\n"
         "I (312) main_task: Calling app_main()\n"
         "\n ==================================================\n"
         " |       Steps to test WiFi throughput            |\n"
         " |                                                |\n"
         " |  1. Print 'help' to gain overview of commands  |\n"
         " |  2. Configure device to station or soft-AP     |\n"
         " |  3. Setup WiFi connection                      |\n"
         " |  4. Run iperf to test UDP/TCP RX/TX throughput |\n"
         " |                                                |\n"
         " =================================================\n\n"
         "\nType 'help' to get the list of commands.\n"
         "Use UP/DOWN arrows to navigate through command history.\n"
         "Press TAB when typing command name to auto-complete.\n"
         "\x1b[5n"  // linenoiseProbe's device status request; nobody answers
         "\nYour terminal application does not support escape sequences.\n\n"
         "Line editing and history features are disabled.\n\n"
         "On Windows, try using Putty instead.\n";
}

std::string help_text() {
  return "help \n  Print the list of registered commands\n\n"
         "iperf  [-suV] [--help] [-c <host>] [-p <port>] [-l <length>] [-i <interval>] [-t "
         "<time>] [-b <bandwidth>] [-f <format>] [--abort]\n"
         "  iperf command to measure network performance, through TCP or UDP connections.\n\n"
         "restart \n  Software reset of the chip\n\n";
}

}  // namespace hil::mcu_sim::esp
