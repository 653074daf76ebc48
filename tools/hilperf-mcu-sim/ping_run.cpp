#include "ping_run.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <regex>

#include "hil/sys/process.hpp"
#include "shell_plumbing.hpp"

namespace hil::mcu_sim {
namespace {

using namespace std::chrono_literals;

constexpr auto reply_timeout = 3500ms;  // how long the firmware waits for each reply
constexpr int max_size = 1470;          // its usage text's largest payload
constexpr auto stop_grace = 1000ms;

// A whole positive number, or 0 when the word is not one.
int positive(const std::string& word) {
  int value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size() || value < 1) return 0;
  return value;
}

// iputils' reply line: "64 bytes from 198.18.0.195: icmp_seq=1 ttl=64 time=0.045 ms".
const std::regex reply_line(R"(bytes from [^:]+: icmp_seq=\d+ ttl=\d+ time=([0-9.]+) ms)");

}  // namespace

ping_command parse_ping(std::string_view arguments) {
  const auto words = words_of(std::string(arguments));
  if (words.empty()) return ping_refusal{{"Missing IPv4 address argument"}};
  in_addr address{};
  if (::inet_pton(AF_INET, words[0].c_str(), &address) != 1) {
    return ping_refusal{{"Invalid IPv4 address " + words[0]}};
  }
  ping_args a;
  a.peer = words[0];
  for (std::size_t i = 1; i < words.size(); i += 2) {
    const std::string& option = words[i];
    const int value = i + 1 < words.size() ? positive(words[i + 1]) : 0;
    if (option == "-c") {
      if (value == 0) return ping_refusal{{"Ping count is invalid"}};
      a.count = value;
    } else if (option == "-s") {
      if (value == 0 || value > max_size) return ping_refusal{{"Ping size is invalid"}};
      a.size = value;
    } else if (option == "-i") {
      if (value == 0) return ping_refusal{{"Ping interval is invalid"}};
      a.interval = std::chrono::milliseconds(value);
    } else {
      return ping_refusal{{"Invalid argument " + option}};
    }
  }
  return a;
}

ping_run::ping_run(ping_args args, const std::string& program, clock::time_point now)
    : args_(std::move(args)), start_(now) {
  // -W: iputils' own wait for the last reply, beyond the firmware's, so the firmware's timer
  // (poll) decides; the interval in seconds as iputils reads it.
  child_ = std::make_unique<sys::child_process>(std::vector<std::string>{
      program, "-n", "-c", std::to_string(args_.count), "-s", std::to_string(args_.size), "-i",
      fmt::format("{:.3f}", std::chrono::duration<double>(args_.interval).count()), "-W", "5",
      args_.peer});
  std::cerr << "hilperf-mcu-sim: started " << sys::quote_command(child_->argv()) << std::endl;
}

ping_run::~ping_run() {
  if (child_) (void)child_->stop(stop_grace);
}

std::vector<ping_run::line> ping_run::end(std::vector<line> lines) {
  if (child_) {
    (void)child_->stop(stop_grace);
    child_.reset();
  }
  finished_ = true;
  return lines;
}

std::vector<ping_run::line> ping_run::poll(clock::time_point now) {
  if (finished_) return {};
  std::vector<line> out;
  const std::string text = child_->output();
  std::size_t seen = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), reply_line);
       it != std::sregex_iterator(); ++it, ++seen) {
    if (seen < rtt_ms_.size()) continue;
    rtt_ms_.push_back(std::floor(std::stod((*it)[1].str())));
    out.push_back({"INFO", fmt::format("Ping: {:.0f} ms", rtt_ms_.back())});
  }
  const auto replies = static_cast<int>(rtt_ms_.size());
  if (replies == args_.count) {
    double sum = 0;
    for (const double r : rtt_ms_) sum += r;
    out.push_back({"INFO", fmt::format("{0} packets transmitted, {0} received, 0% packet loss, "
                                       "time {1:.0f}ms",
                                       args_.count, sum / replies)});
    return end(std::move(out));
  }
  // The request whose reply is awaited went out replies intervals after the start.
  if (now >= start_ + replies * args_.interval + reply_timeout) {
    if (child_->wait(0ms).has_value()) {
      std::cerr << "hilperf-mcu-sim: ping ended with " << replies << " of " << args_.count
                << " replies; its output:\n"
                << text;
    }
    out.push_back({"ERROR", "Ping timeout"});
    out.push_back({"ERROR", "recvfrom() failed: 9"});
    return end(std::move(out));
  }
  return out;
}

}  // namespace hil::mcu_sim
