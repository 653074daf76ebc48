#include "shell_plumbing.hpp"

#include <sstream>

namespace hil::mcu_sim {

std::string crlf(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::uint64_t uptime_ms(std::chrono::steady_clock::time_point boot,
                        std::chrono::steady_clock::time_point now) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now - boot).count());
}

run_settings run_plumbing::start(const firmware_settings& s, clock::time_point now) {
  run_settings rs = s.run;
  ++runs_started_;
  if (s.error_runs > 0 && runs_started_ > s.error_runs) rs.error_line.reset();
  run_start_ = now;
  next_log_ = now + s.log_every;
  error_logged_ = false;
  return rs;
}

bool run_plumbing::status_due(const firmware_settings& s, clock::time_point now) {
  if (s.log_every.count() <= 0 || now < next_log_) return false;
  next_log_ = now + s.log_every;
  return true;
}

bool run_plumbing::error_due(const firmware_settings& s, clock::time_point now) {
  if (!s.log_error || error_logged_ || now < run_start_ + error_log_delay) return false;
  error_logged_ = true;
  return true;
}

}  // namespace hil::mcu_sim
