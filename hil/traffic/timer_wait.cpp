#include "hil/traffic/timer_wait.hpp"

#include <time.h>

#include <algorithm>
#include <cerrno>

namespace hil::traffic {

namespace {

// A hint to the CPU that this is a spin loop.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

}  // namespace

void sleep_until(timer_wait::clock::time_point t) {
  const auto ns = t.time_since_epoch().count();
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

std::chrono::nanoseconds timer_wait::next_window(std::chrono::nanoseconds window,
                                                 std::chrono::nanoseconds late) noexcept {
  const auto target = std::clamp(late + margin, min_window, max_window);
  if (target >= window) return target;
  return window - (window - target) / 32;
}

void timer_wait::until(clock::time_point t) {
  if (const auto wake = t - window_; wake > clock::now()) {
    sleep_until(wake);
    window_ = next_window(window_, clock::now() - wake);
  }
  while (clock::now() < t) cpu_relax();
}

}  // namespace hil::traffic
