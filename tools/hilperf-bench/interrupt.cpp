#include "interrupt.hpp"

#include <csignal>

#include <atomic>
#include <stdexcept>
#include <string>

namespace hil::bench_tool {

namespace {

std::atomic<int> stop_signal{0};  // the signal that asked us to stop; 0 = none

extern "C" void on_stop_signal(int sig) { stop_signal = sig; }

}  // namespace

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

std::optional<int> wait_unless_interrupted(sys::child_process& c,
                                           std::chrono::milliseconds timeout) {
  using namespace std::chrono_literals;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (const int sig = stop_signal.load()) {
      throw std::runtime_error("interrupted by signal " + std::to_string(sig));
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= 0ms) return std::nullopt;
    if (const auto status = c.wait(std::min(left, std::chrono::milliseconds(100)))) return status;
  }
}

}  // namespace hil::bench_tool
