// How a paced sender waits for the instant its next datagram (or block) is due.
//
// A timer wake-up comes late by some microseconds: tens in a VM, a few on a board with
// high-resolution timers, more on a loaded CPU. Sleeping until the instant would send every
// datagram late by that much and add the timer's jitter to the jitter the receiver measures;
// spinning the whole gap would spend a core on waiting — at seed 002's 50 Mbit/s of 1460-byte
// datagrams a fixed 100 µs spin cost 42 % of a core, on a board the engine itself loading the
// DUT. So the waiter sleeps until `window` before the instant and spins only the rest, with the
// window following the lateness this thread's own wake-ups show:
//
//   wake-up late by L:  target = clamp(L + margin, min_window, max_window)
//                       window = target                          if target >= window (at once)
//                       window = window - (window - target) / 32 otherwise (slowly back down)
//
// so one late wake-up widens it at once and it narrows over tens of wake-ups once the timer is
// punctual again. It starts at max_window. One per sending thread (not thread-safe).
#pragma once

#include <chrono>

namespace hil::traffic {

class timer_wait {
 public:
  using clock = std::chrono::steady_clock;

  // Returns at t or just after it (at once when t has passed): CLOCK_MONOTONIC sleep, then spin.
  void until(clock::time_point t);

  // The spin window now.
  [[nodiscard]] std::chrono::nanoseconds window() const noexcept { return window_; }

  // The rule above: the window after a wake-up that came `late` after it was asked for.
  [[nodiscard]] static std::chrono::nanoseconds next_window(std::chrono::nanoseconds window,
                                                            std::chrono::nanoseconds late) noexcept;

  static constexpr std::chrono::nanoseconds max_window = std::chrono::microseconds(100);
  static constexpr std::chrono::nanoseconds margin = std::chrono::microseconds(5);
  static constexpr std::chrono::nanoseconds min_window = margin;

 private:
  std::chrono::nanoseconds window_ = max_window;
};

// Sleeps until t on CLOCK_MONOTONIC (EINTR resumed), without spinning.
void sleep_until(timer_wait::clock::time_point t);

}  // namespace hil::traffic
