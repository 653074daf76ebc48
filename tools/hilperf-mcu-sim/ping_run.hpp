// The ST67W6X firmware's `ping <ip> [-c count] [-s size] [-i interval]` (its LwIP CLI
// application, as docs/console-duts.md "Connectivity" describes it), its echo requests sent by
// the system's ping (iputils, in this process's network namespace) and its lines printed as the
// firmware's log task prints them. Owns the child: stopped and reaped on destruction.
//
//   start ─▶ per reply: "[INFO] … Ping: N ms" (whole milliseconds)
//         ─▶ every reply in: "N packets transmitted, N received, 0% packet loss, time Tms"
//   a reply missing 3.5 s after its request ─▶ "Ping timeout", "recvfrom() failed: 9", no summary
//
// The shell blocks while the ping runs (st67_firmware holds what is typed meanwhile).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hil/sys/child_process.hpp"

namespace hil::mcu_sim {

// A ping the firmware accepted.
struct ping_args {
  std::string peer;                          // IPv4
  int count = 4;                             // -c
  int size = 64;                             // -s: each request's ICMP payload
  std::chrono::milliseconds interval{1000};  // -i, in milliseconds
};

// What the shell printed instead of pinging: its log lines' texts.
struct ping_refusal {
  std::vector<std::string> lines;
};

using ping_command = std::variant<ping_args, ping_refusal>;

// The firmware's reading of the arguments after `ping` (split at spaces): the address first, then
// -c, -s, -i with their values. Refusals as it words them: "Missing IPv4 address argument",
// "Invalid IPv4 address <a>", "Ping count is invalid", "Ping size is invalid" (1 to 1470),
// "Ping interval is invalid".
[[nodiscard]] ping_command parse_ping(std::string_view arguments);

class ping_run {
 public:
  using clock = std::chrono::steady_clock;

  // Starts the system's ping (program, e.g. "ping") for args at now. Throws std::system_error
  // when it cannot start.
  ping_run(ping_args args, const std::string& program, clock::time_point now);
  ~ping_run();  // stops the child, never throws
  ping_run(const ping_run&) = delete;
  ping_run& operator=(const ping_run&) = delete;

  // The log lines' texts (without prefix or line end) the ping prints by now, each with its level
  // ("INFO", "ERROR").
  struct line {
    std::string level;
    std::string text;
  };
  [[nodiscard]] std::vector<line> poll(clock::time_point now);
  // True once it printed its summary or its failure.
  [[nodiscard]] bool finished() const noexcept { return finished_; }

 private:
  std::vector<line> end(std::vector<line> lines);

  ping_args args_;
  clock::time_point start_;
  std::unique_ptr<sys::child_process> child_;
  std::vector<double> rtt_ms_;  // the replies read so far
  bool finished_ = false;
};

}  // namespace hil::mcu_sim
