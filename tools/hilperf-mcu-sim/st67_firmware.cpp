#include "st67_firmware.hpp"

#include <iostream>
#include <system_error>
#include <variant>

#include "shell_plumbing.hpp"
#include "st67_text.hpp"

namespace hil::mcu_sim {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

}  // namespace

st67_firmware::st67_firmware(firmware_settings s, clock::time_point now)
    : settings_(std::move(s)), boot_(now), last_typed_(now) {
  if (settings_.reset_command.empty()) settings_.reset_command = "reset";
}

std::uint64_t st67_firmware::tick_ms(clock::time_point now) const { return uptime_ms(boot_, now); }

std::string st67_firmware::boot(clock::time_point now) {
  run_.reset();
  ping_.reset();
  held_.clear();
  editor_.clear();
  boot_ = now;
  return "\n" + st67::boot_banner() + st67::prompt();
}

std::string st67_firmware::typed(char c, clock::time_point now) {
  if (ping_) {  // the shell task is blocked in the ping: the UART keeps the bytes
    held_ += c;
    return {};
  }
  last_typed_ = now;
  std::string out;
  if (const auto line = editor_.feed(c, out)) out += run_line(*line, now);
  return out;
}

std::string st67_firmware::run_line(const std::string& line, clock::time_point now) {
  const std::string command = trimmed(line);
  if (command.empty()) return st67::prompt();
  const std::string word = command.substr(0, command.find(' '));
  if (command == settings_.reset_command) return boot(now);
  if (word == "iperf") return run_iperf(command.substr(word.size()), now) + st67::prompt();
  if (word == "ping") return run_ping(command.substr(word.size()), now);
  if (word == "help") {
    return "iperf: iperf performance test (iperf -h for its options)\n"
           "ping: ping <ip> [-c count] [-s size] [-i interval ms]\n" +
           settings_.reset_command + ": reset the board\nhelp: list the commands\n" +
           st67::prompt();
  }
  return st67::command_not_found(word) + '\n' + st67::prompt();
}

std::string st67_firmware::run_iperf(const std::string& arguments, clock::time_point now) {
  const iperf_command c = parse_iperf(arguments);
  if (const auto* refusal = std::get_if<iperf_refusal>(&c)) {
    std::string out;
    for (const auto& l : refusal->lines) out += l + '\n';
    return out;
  }
  if (std::holds_alternative<iperf_abort>(c)) return run_ ? run_->abort() : std::string();
  if (run_ && !run_->finished()) {
    // The firmware refuses a second run with a debug log line only.
    return st67::log_line("DEBUG", tick_ms(now), "ShellTask", "iperf.c:1080", "iperf is running") +
           '\n';
  }
  const run_settings rs = plumbing_.start(settings_, now);
  try {
    run_ = std::make_unique<iperf_run>(std::get<iperf_args>(c), rs, now);
  } catch (const std::system_error& e) {
    std::cerr << "hilperf-mcu-sim: " << e.what() << '\n';
    run_.reset();
    return "[iperf] create task iperf_traffic failed\n";
  }
  return {};
}

std::string st67_firmware::run_ping(const std::string& arguments, clock::time_point now) {
  const ping_command c = parse_ping(arguments);
  if (const auto* refusal = std::get_if<ping_refusal>(&c)) {
    std::string out;
    for (const auto& l : refusal->lines) {
      out += st67::log_line("ERROR", tick_ms(now), "ShellTask", "ping.c:330", l) + '\n';
    }
    return out + st67::prompt();
  }
  try {
    ping_ = std::make_unique<ping_run>(std::get<ping_args>(c), settings_.ping_program, now);
  } catch (const std::system_error& e) {
    std::cerr << "hilperf-mcu-sim: " << e.what() << '\n';
    return st67::log_line("ERROR", tick_ms(now), "ShellTask", "ping.c:340",
                          "Failed to create ping task") +
           '\n' + st67::prompt();
  }
  return {};
}

std::string st67_firmware::poll_ping(clock::time_point now) {
  std::string out;
  for (const auto& l : ping_->poll(now)) {
    out += st67::log_line(l.level, tick_ms(now), "Ping IPv4",
                          l.level == "INFO" ? "ping.c:282" : "ping.c:250", l.text) +
           '\n';
  }
  if (!ping_->finished()) return out;
  ping_.reset();
  out += st67::prompt();
  const std::string held = std::move(held_);
  held_.clear();
  for (const char c : held) out += typed(c, now);
  return out;
}

std::string st67_firmware::other_tasks(clock::time_point now) {
  std::string out;
  if (plumbing_.status_due(settings_, now)) out += "ST67W6X Wi-Fi: station link up, RSSI -48 dBm\n";
  if (plumbing_.error_due(settings_, now)) {
    out += st67::log_line("ERROR", tick_ms(now), "ST67W6XTask", "w61_at_common.c:375",
                          "sem_if_ready not received") +
           '\n';
  }
  return out;
}

std::string st67_firmware::tick(clock::time_point now) {
  if (!editor_.idle() && now < last_typed_ + typing_hold) return {};
  if (ping_) return poll_ping(now);
  if (!run_ || run_->finished()) return {};
  std::string out = other_tasks(now);
  return out + run_->poll(now);
}

}  // namespace hil::mcu_sim
