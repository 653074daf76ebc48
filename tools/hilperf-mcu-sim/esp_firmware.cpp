#include "esp_firmware.hpp"

#include <algorithm>
#include <iostream>
#include <system_error>
#include <variant>

#include "esp_text.hpp"
#include "shell_plumbing.hpp"

namespace hil::mcu_sim {

esp_firmware::esp_firmware(firmware_settings s, clock::time_point now)
    : settings_(std::move(s)), boot_(now), last_typed_(now) {
  if (settings_.reset_command.empty()) settings_.reset_command = "restart";
  if (settings_.prompt.empty()) settings_.prompt = "iperf>";
}

std::uint64_t esp_firmware::uptime_ms(clock::time_point now) const {
  return mcu_sim::uptime_ms(boot_, now);
}

std::string esp_firmware::boot(clock::time_point now) { return crlf(reboot(now)); }

std::string esp_firmware::reboot(clock::time_point now) {
  instances_.clear();
  editor_.clear();
  boot_ = now;
  return esp::boot_banner() + esp::prompt(settings_.prompt);
}

std::string esp_firmware::typed(char c, clock::time_point now) {
  last_typed_ = now;
  std::string out;
  if (const auto line = editor_.feed(c, out)) out += run_line(*line, now);
  return crlf(out);
}

std::string esp_firmware::run_line(const std::string& line, clock::time_point now) {
  const std::vector<std::string> words = words_of(line);
  const std::string prompt = esp::prompt(settings_.prompt);
  if (words.empty()) return prompt;
  if (words == words_of(settings_.reset_command)) return reboot(now);
  if (words[0] == "help") return esp::help_text() + prompt;
  if (words[0] != "iperf") return "Unrecognized command\n" + prompt;
  return run_iperf(std::vector<std::string>(words.begin() + 1, words.end()), now) + prompt;
}

std::string esp_firmware::run_iperf(const std::vector<std::string>& words, clock::time_point now) {
  const esp::command c = esp::parse_iperf(words);
  if (const auto* r = std::get_if<esp::refusal>(&c)) {
    std::string out;
    for (const auto& l : r->lines) out += l + '\n';
    if (!r->error_log.empty()) {
      out += esp::log_line('E', uptime_ms(now), "IPERF", r->error_log) + '\n';
    }
    if (r->returned != 0) {
      out += "Command returned non-zero error code: 0x1 (UNKNOWN ERROR)\n";
    }
    return out;
  }
  if (std::holds_alternative<esp::abort_all>(c)) {
    for (auto& i : instances_) i->stop();
    return esp::log_line('I', uptime_ms(now), "IPERF", "DONE.IPERF_STOP,OK") + '\n';
  }
  const auto& r = std::get<esp::run>(c);
  std::string out = esp::log_line('I', uptime_ms(now), "IPERF", esp::mode_text(r)) + '\n';
  const run_settings rs = runs_.start(settings_, now);
  int id = 1;  // the next free id: one past the largest running
  for (const auto& i : instances_) id = std::max(id, i->id() + 1);
  try {
    instances_.push_back(std::make_unique<esp_instance>(id, r, rs, now));
  } catch (const std::system_error& e) {
    std::cerr << "hilperf-mcu-sim: " << e.what() << '\n';
    out += esp::log_line('E', uptime_ms(now), esp::instance_tag(id),
                         "cannot start iperf-related tasks: could not start traffic task") +
           '\n';
  }
  return out;
}

std::string esp_firmware::other_tasks(clock::time_point now) {
  std::string out;
  if (runs_.status_due(settings_, now)) {
    out += esp::log_line('I', uptime_ms(now), "wifi", "station link up, RSSI -48 dBm") + '\n';
  }
  if (runs_.error_due(settings_, now)) {
    out += esp::log_line('E', uptime_ms(now), "wifi", "beacon timeout, reconnecting") + '\n';
  }
  return out;
}

std::string esp_firmware::tick(clock::time_point now) {
  if (!editor_.idle() && now < last_typed_ + typing_hold) return {};
  if (instances_.empty()) return {};
  std::string out = other_tasks(now);
  for (auto& i : instances_) out += i->poll(now, uptime_ms(now));
  std::erase_if(instances_, [](const auto& i) { return i->over(); });
  return crlf(out);
}

}  // namespace hil::mcu_sim
