// The server's total-bitrate limit while a test runs (iperf3 -s --server-bitrate-limit
// RATE[/SECS]): the bytes all of a test's streams moved, both directions together, averaged over a
// sliding window of whole seconds; the limit is exceeded once a full window averages above it. Fed
// by the server's watch (every ≤ 200 ms); pure arithmetic, no clock of its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

namespace hil::session {

class bitrate_cap {
 public:
  using clock = std::chrono::steady_clock;

  // limit_bps > 0; window >= 1 s (iperf3's default averaging interval is 5 s). start is t0.
  bitrate_cap(std::uint64_t limit_bps, std::chrono::seconds window, clock::time_point start);

  // total_bytes: what the test's streams moved since start (monotone). Returns the window's
  // average (bit/s) once it exceeds the limit, nullopt otherwise (also before a full window).
  [[nodiscard]] std::optional<double> exceeded(clock::time_point now, std::uint64_t total_bytes);

  [[nodiscard]] std::uint64_t limit() const noexcept { return limit_; }
  [[nodiscard]] std::chrono::seconds window() const noexcept { return window_; }

 private:
  struct mark {
    clock::time_point at;
    std::uint64_t bytes;
  };
  std::uint64_t limit_;
  std::chrono::seconds window_;
  clock::time_point next_;  // the next whole-second mark
  std::deque<mark> marks_;  // one per whole second since start, at most window + 1 kept
};

}  // namespace hil::session
