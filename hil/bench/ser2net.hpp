// Debian's ser2net serving a serial device (the simulated MCU's pseudo-terminal) on TCP in a
// network namespace, as a lab's console server does: raw (its `tcp` accepter, for a tcp://
// console, the line fixed at 921600 8N1) or RFC 2217 (its `telnet(rfc2217)` accepter, for an
// rfc2217:// console, whose client sets the line).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "hil/sys/child_process.hpp"

namespace hil::bench {

enum class console_protocol { raw, rfc2217 };

// True when something accepts TCP connections at host:port in network namespace netns within
// timeout (peer_answers, from that namespace).
bool answers_in(const std::string& netns, const std::string& host, std::uint16_t port,
                std::chrono::milliseconds timeout);

// RAII: ser2net, started in netns serving device on host:port, stopped on destruction.
class ser2net_server {
 public:
  // Writes ser2net's configuration to config (a path in a directory the caller owns), starts it
  // and waits (5 s at most) until it answers at host:port. Throws std::runtime_error quoting
  // ser2net's output when it does not.
  ser2net_server(const std::string& netns, const std::string& host, std::uint16_t port,
                 const std::filesystem::path& device, console_protocol protocol,
                 const std::filesystem::path& config);

  // Everything ser2net printed so far.
  [[nodiscard]] std::string output() const { return process_->output(); }

 private:
  std::unique_ptr<sys::child_process> process_;
};

}  // namespace hil::bench
