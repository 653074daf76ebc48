#include "hil/session/bitrate_cap.hpp"

#include "hil/measure/units.hpp"

namespace hil::session {

bitrate_cap::bitrate_cap(std::uint64_t limit_bps, std::chrono::seconds window,
                         clock::time_point start)
    : limit_(limit_bps), window_(window), next_(start + std::chrono::seconds(1)) {
  marks_.push_back({start, 0});
}

std::optional<double> bitrate_cap::exceeded(clock::time_point now, std::uint64_t total_bytes) {
  bool marked = false;
  // A late call (a stalled loop) marks each passed second with what has moved by now: the
  // average can then only be overstated within the window that stalled, never hidden.
  while (now >= next_) {
    marks_.push_back({next_, total_bytes});
    next_ += std::chrono::seconds(1);
    marked = true;
  }
  const auto seconds = static_cast<std::size_t>(window_.count());
  while (marks_.size() > seconds + 1) marks_.pop_front();
  if (!marked || marks_.size() < seconds + 1) return std::nullopt;
  const double average = measure::bits_per_second(marks_.back().bytes - marks_.front().bytes,
                                                  static_cast<double>(window_.count()));
  if (average > static_cast<double>(limit_)) return average;
  return std::nullopt;
}

}  // namespace hil::session
