#include "st67_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace hil::mcu_sim::st67 {
namespace {

constexpr int stream_id = 1;  // the firmware runs one stream: always "[  1]"

// Whole tenths of x (the firmware's integer arithmetic truncates).
std::uint64_t tenths(double x) { return static_cast<std::uint64_t>(std::floor(x * 10 + 1e-6)); }

// "%2u.%02u MBytes" of bytes in 2^20-byte megabytes; udp_server: tenths printed through %02u.
std::string megabytes(std::uint64_t bytes, bool udp_server) {
  const std::uint64_t whole = bytes >> 20;
  const std::uint64_t rest = bytes & ((1U << 20) - 1);
  const std::uint64_t fraction = udp_server ? (rest * 10) >> 20 : (rest * 100) >> 20;
  return fmt::format("{:2}.{:02} MBytes", whole, fraction);
}

// "%2u.%u Mbits/sec" of bits_per_second in 10^6 bits.
std::string megabits(std::uint64_t bits_per_second) {
  const std::uint64_t t = bits_per_second / 100'000;
  return fmt::format("{:2}.{} Mbits/sec", t / 10, t % 10);
}

// The errno a Linux strerror text stands for (what the firmware's lwIP would have reported).
int errno_of(std::string_view reason) {
  struct known {
    std::string_view text;
    int number;
  };
  static constexpr known table[] = {{"Connection refused", 111},     {"No route to host", 113},
                                    {"Network is unreachable", 101}, {"Connection timed out", 110},
                                    {"Address already in use", 98},  {"Connection reset", 104}};
  for (const auto& k : table) {
    if (reason.find(k.text) != std::string_view::npos) return k.number;
  }
  return -1;
}

}  // namespace

std::string prompt() { return "\x1b[36mw61/>\x1b[0m"; }

std::string boot_banner() {
  return "#### ST67W6X CLI (LwIP on the host MCU) - hilperf-mcu-sim ####\n"
         "Type 'help' to list the commands\n";
}

std::string command_not_found(std::string_view command) {
  return fmt::format("{}: command not found.", command);
}

std::string dashes() { return std::string(60, '-'); }

std::string run_banner(const iperf_args& args) {
  const char* proto = args.protocol == run_protocol::udp ? "[UDP]" : "[TCP]";
  if (args.role == run_role::server) {
    return fmt::format("{} Server listening on port {}", proto, args.port);
  }
  return fmt::format("{} Client connecting to {}, port {}", proto, args.peer, args.port);
}

std::string sending_line(int length) { return fmt::format("Sending {} bytes datagrams", length); }

std::string report_header() { return "[ ID] Interval       Transfer        Bandwidth"; }

std::string summary_line(double seconds, std::uint64_t bytes, std::uint64_t bits_per_second,
                         bool udp_server) {
  const std::uint64_t t = tenths(seconds);
  return fmt::format("[{:3}]  0.0-{}.{} sec  {}    {}", stream_id, t / 10, t % 10,
                     megabytes(bytes, udp_server), megabits(bits_per_second));
}

std::string interval_line(double start, double end, std::uint64_t bytes,
                          std::uint64_t bits_per_second) {
  return fmt::format("[{:3}] {}.0-{}.0 sec  {}    {}", stream_id, tenths(start) / 10,
                     tenths(end) / 10, megabytes(bytes, false), megabits(bits_per_second));
}

std::string server_loss_header() { return "[ ID]                Lost/Total Datagrams"; }

std::string server_loss_line(std::uint64_t lost, std::uint64_t total) {
  const std::uint64_t permille = total == 0 ? 0 : lost * 1000 / total;
  return fmt::format("[{:3}]                  {}/ {} ({:2}.{}%)", stream_id, lost, total,
                     permille / 10, permille % 10);
}

std::string client_loss_header() { return "[ ID]  Jitter        Lost/Total Datagrams"; }

std::string client_loss_line(double jitter_ms, std::uint64_t lost, std::uint64_t total) {
  const auto us = static_cast<std::uint64_t>(std::llround(jitter_ms * 1000));
  const std::uint64_t percent = total == 0 ? 0 : lost * 100 / total;
  return fmt::format("[{:3}] {}.{:03} ms    {}/ {} ({}%)", stream_id, us / 1'000'000 * 1000,
                     us % 1'000'000 * 1000, lost, total, percent);
}

std::string failure_line(std::string_view iperf2_line) {
  const auto colon = iperf2_line.find("failed:");
  const std::string_view reason =
      colon == std::string_view::npos ? iperf2_line : iperf2_line.substr(colon + 7);
  const int number = errno_of(reason);
  if (iperf2_line.find("connect") != std::string_view::npos) {
    return fmt::format("[iperf] Socket unable to connect: errno {}", number);
  }
  if (iperf2_line.find("bind") != std::string_view::npos) {
    return fmt::format("[iperf] Socket unable to bind: errno {}", number);
  }
  return fmt::format("[iperf] Unable to accept connection: errno {}", number);
}

std::string log_line(std::string_view level, std::uint64_t tick_ms, std::string_view task,
                     std::string_view where, std::string_view text) {
  return fmt::format("[{}] [{}] [{}] ({}) {}", level, tick_ms, task, where, text);
}

}  // namespace hil::mcu_sim::st67
