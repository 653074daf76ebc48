#include "zperf_firmware.hpp"

#include <iostream>
#include <system_error>
#include <variant>

#include "shell_plumbing.hpp"
#include "zperf_text.hpp"

namespace hil::mcu_sim {
namespace {

std::size_t index_of(run_protocol p) { return p == run_protocol::udp ? 0 : 1; }

}  // namespace

zperf_firmware::zperf_firmware(firmware_settings s, clock::time_point now)
    : settings_(std::move(s)), boot_(now), editor_(256, true), last_typed_(now) {
  if (settings_.reset_command.empty()) settings_.reset_command = "kernel reboot cold";
}

std::uint64_t zperf_firmware::uptime_ms(clock::time_point now) const {
  return mcu_sim::uptime_ms(boot_, now);
}

std::string zperf_firmware::boot(clock::time_point now) { return crlf(reboot(now)); }

std::string zperf_firmware::reboot(clock::time_point now) {
  upload_.reset();
  for (auto& d : downloads_) d.reset();
  binding_ = -1;
  held_.clear();
  editor_.clear();
  boot_ = now;
  return "\n" + zperf::boot_banner() + "\n" + zperf::prompt();
}

std::string zperf_firmware::typed(char c, clock::time_point now) {
  last_typed_ = now;
  return crlf(take(c, now));
}

std::string zperf_firmware::take(char c, clock::time_point now) {
  if (blocked()) {
    held_ += c;  // the shell thread is in a command: its input waits
    return {};
  }
  std::string out;
  if (const auto line = editor_.feed(c, out)) out += run_line(*line, now);
  return out;
}

std::string zperf_firmware::run_line(const std::string& line, clock::time_point now) {
  const std::vector<std::string> words = words_of(line);
  if (words.empty()) return zperf::prompt();
  if (words == words_of(settings_.reset_command)) return reboot(now);
  if (words[0] == "zperf") {
    return run_zperf(std::vector<std::string>(words.begin() + 1, words.end()), now);
  }
  if (words[0] == "help") {
    return "Available commands:\n  help    : Prints the help message.\n  kernel  : Kernel "
           "commands\n  zperf   : Zperf commands\n" +
           zperf::prompt();
  }
  return zperf::error(zperf::command_not_found(words[0])) + "\n" + zperf::prompt();
}

std::string zperf_firmware::run_zperf(const std::vector<std::string>& words,
                                      clock::time_point now) {
  const zperf::command c = zperf::parse_command(words);
  if (const auto* r = std::get_if<zperf::refusal>(&c)) {
    std::string out;
    for (const auto& l : r->lines) out += l + '\n';
    return out + zperf::prompt();
  }
  if (const auto* stop = std::get_if<zperf::download_stop>(&c)) {
    auto& d = downloads_[index_of(stop->protocol)];
    const char* name = stop->protocol == run_protocol::udp ? "UDP" : "TCP";
    const bool running = d && !d->gone();
    d.reset();
    return (running ? std::string(name) + " server stopped\n"
                    : zperf::warning(std::string(name) + " server not running!") + "\n") +
           zperf::prompt();
  }
  try {
    if (const auto* u = std::get_if<zperf::upload>(&c)) {
      std::string out;
      for (const auto& l : u->said) out += l + '\n';
      out += zperf::upload_start(*u);
      if (u->packet_size > zperf::max_packet_size) {
        out += zperf::log_line(uptime_ms(now), "wrn", "net_zperf",
                               "Packet size too large! max size: 1024") +
               '\n';
      }
      upload_ = std::make_unique<zperf_upload_run>(*u, runs_.start(settings_, now), now);
      return out;  // the shell blocks until the upload ends
    }
    const auto& d = std::get<zperf::download>(c);
    auto& slot = downloads_[index_of(d.protocol)];
    if (slot && !slot->gone()) {
      const char* name = d.protocol == run_protocol::udp ? "UDP" : "TCP";
      return zperf::warning(std::string(name) + " server already started!") + "\n" +
             zperf::prompt();
    }
    slot = std::make_unique<zperf_download_run>(d, runs_.start(settings_, now), now);
    binding_ = static_cast<int>(index_of(d.protocol));
    return {};  // its bind is awaited before "… server started on port …" and the prompt
  } catch (const std::system_error& e) {
    std::cerr << "hilperf-mcu-sim: " << e.what() << '\n';
    return zperf::error("Failed to start the zperf run") + "\n" + zperf::prompt();
  }
}

std::string zperf_firmware::unblock(std::string last_words, clock::time_point now) {
  std::string out = std::move(last_words) + zperf::prompt();
  const std::string pending = std::move(held_);
  held_.clear();
  for (const char c : pending) out += take(c, now);
  return out;
}

std::string zperf_firmware::from_another_thread(const std::string& text) const {
  if (blocked()) return text;  // a command runs: printed as is, no prompt to redraw
  return zperf::asynchronous(text, editor_.line());
}

std::string zperf_firmware::other_tasks(clock::time_point now) {
  std::string out;
  if (runs_.status_due(settings_, now)) {
    out += from_another_thread(
        zperf::log_line(uptime_ms(now), "inf", "wifi", "station link up, RSSI -48 dBm") + "\n");
  }
  if (runs_.error_due(settings_, now)) {
    out += from_another_thread(
        zperf::log_line(uptime_ms(now), "err", "wifi", "beacon loss, roaming") + "\n");
  }
  return out;
}

std::string zperf_firmware::tick(clock::time_point now) {
  std::string out;
  if (upload_) {
    if (auto last = upload_->poll(now)) {
      upload_.reset();
      out += unblock(std::move(*last), now);
    }
  }
  if (binding_ >= 0 && downloads_[static_cast<std::size_t>(binding_)]->settled(now)) {
    auto& d = downloads_[static_cast<std::size_t>(binding_)];
    const bool udp = binding_ == 0;
    std::string said;
    if (d->failed_to_bind()) {
      said =
          zperf::error(udp ? "Failed to start UDP server!" : "Failed to start TCP server!") + "\n";
      d.reset();
    } else {
      said = zperf::server_started(udp ? run_protocol::udp : run_protocol::tcp, d->port());
    }
    binding_ = -1;
    out += unblock(said, now);
  }
  if (!editor_.idle() && now < last_typed_ + typing_hold) return crlf(out);
  const bool running = upload_ || downloads_[0] || downloads_[1];
  if (running) out += other_tasks(now);
  for (auto& d : downloads_) {
    if (!d || binding_ >= 0) continue;
    for (const auto& piece : d->poll(now)) out += from_another_thread(piece);
  }
  return crlf(out);
}

}  // namespace hil::mcu_sim
