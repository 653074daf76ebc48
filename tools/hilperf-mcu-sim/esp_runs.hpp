// One instance of ESP-IDF's iperf (iperf-cmd 1.0 runs several side by side, each with its id),
// its traffic played by stock iPerf 2 in a child process (stock_iperf.hpp) with the firmware's
// wire habits as far as iPerf 2 allows: a UDP client sends no end-of-test exchange and a UDP
// server answers none (--no-udp-fin). Owns its child: stopped on destruction.
//
//   client: start ─▶ iPerf 2 exits ─▶ connect info, header, period lines, summary ─▶ over
//   server: start ─▶ bound: "[UDP Server] Socket created" ─▶ first packet: connect info, header
//           ─▶ -t seconds later (its timer starts at the first packet) and iPerf 2's count in:
//              period line, summary ─▶ over
//           no packet within the receive timeout (UDP) or no connection within 5 s (TCP):
//              the socket's error, the traffic task's error ─▶ over
//   error_line: +1 s ─▶ the line as a warning of the instance, the traffic task's error ─▶ over
//   never_end: no report, never over, deaf to --abort
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "esp_text.hpp"
#include "firmware.hpp"
#include "hil/sys/child_process.hpp"

namespace hil::mcu_sim {

class esp_instance {
 public:
  using clock = std::chrono::steady_clock;

  // Throws std::system_error when iPerf 2 cannot start.
  esp_instance(int id, esp::run r, run_settings settings, clock::time_point now);
  ~esp_instance();
  esp_instance(const esp_instance&) = delete;
  esp_instance& operator=(const esp_instance&) = delete;

  // What the instance's tasks print by now ("\n" line ends; uptime_ms stamps its log lines).
  [[nodiscard]] std::string poll(clock::time_point now, std::uint64_t uptime_ms);
  // `iperf --abort`: stopped without a word (never_end: not at all).
  void stop() noexcept;
  [[nodiscard]] bool over() const noexcept { return over_; }
  [[nodiscard]] int id() const noexcept { return id_; }

 private:
  std::string poll_client(clock::time_point now, std::uint64_t uptime_ms);
  std::string poll_server(clock::time_point now, std::uint64_t uptime_ms);
  // The instance's end by error: the socket's line at level (when any), the traffic task's.
  std::string failed(std::uint64_t uptime_ms, const std::string& socket_line, char level = 'W');
  void end() noexcept;

  int id_;
  esp::run run_;
  run_settings settings_;
  clock::time_point start_;
  std::unique_ptr<sys::child_process> child_;  // null with error_line, once over
  bool created_ = false;                       // a server's "Socket created" was printed
  std::optional<clock::time_point> first_;     // a server's first packet
  bool over_ = false;
};

}  // namespace hil::mcu_sim
