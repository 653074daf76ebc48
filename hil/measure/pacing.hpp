// Exact UDP pacing from a monotonic clock: the sender's schedule, not its I/O (the traffic engine
// sleeps until next_due and sends). Pure arithmetic on time_points, so it is tested without
// sleeping.
//
// iperf3 paces with an average-since-start throttle (docs/iperf3-protocol.md §9): it sends while
// bytes_sent·8 / (now − start) < rate, so after any stall it bursts back-to-back at line rate
// until the average recovers — the burst is what overflows a router queue. Here datagram k is due
// at a fixed instant and a late sender catches up at a bounded rate:
//
//   ideal(k)          = start + ⌊k · bytes · 8 · 10⁹ / bits_per_second⌋ ns   (128-bit, no drift)
//   next_due(k, last) = max(ideal(k), last + T / catchup_factor),  next_due(0, ·) = start
//
//   time ─►  |  T  |  T  |  T  |←── stall ──►|T/2|T/2|T/2| … |T/2|  T  |  T  |
//            0     1     2     3              4   5   6        n   n+1   n+2
//                                                  behind schedule ─┘ back on ideal(k)
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace hil::measure {

class pacer {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Schedules bytes_per_datagram-byte datagrams at bits_per_second from start; throws
  // std::invalid_argument when the rate or size is 0, the size is absurd (> 2^31 bytes) or
  // catchup_factor is below 1 or NaN (infinity allows iperf3-style back-to-back catch-up).
  pacer(std::uint64_t bits_per_second, std::size_t bytes_per_datagram, time_point start,
        double catchup_factor = 2.0);

  // When datagram k (0-based) is due on the exact schedule; time_point::max() if beyond range.
  [[nodiscard]] time_point ideal(std::uint64_t k) const;

  // When to send datagram k given that datagram k−1 went out at last_send: ideal(k), or later if
  // that would exceed catchup_factor × the rate; start for k == 0.
  [[nodiscard]] time_point next_due(std::uint64_t k, time_point last_send) const;

  // How many datagrams from k on may go out together at now, at most max: each in turn as
  // next_due chains them (the first from last_send, the next from the one before, each at
  // ideal(k) or catchup_spacing after its predecessor), while that is no later than now. A sender
  // that sends them in one batch stays on the schedule and catches up no faster than the factor
  // allows, except that each batch leaves back to back: a burst of at most max datagrams. 0 when
  // datagram k is not due yet.
  [[nodiscard]] std::uint64_t due_in_batch(std::uint64_t k, time_point last_send, time_point now,
                                           std::uint64_t max) const;

  // How many datagrams are due by now (ideal(k) <= now): what a perfect sender has sent; 1 at
  // start (datagram 0 is due then), 0 before it.
  [[nodiscard]] std::uint64_t due_by(time_point now) const;

  // Whole datagrams the rate allows in duration: ⌊duration · rate / (bytes · 8)⌋, 0 if negative.
  [[nodiscard]] std::uint64_t ideal_count(std::chrono::nanoseconds duration) const;

  // The rate in datagrams per second (for reports; the schedule itself uses integers).
  [[nodiscard]] double datagrams_per_second() const;

  // The shortest spacing used while catching up: ⌈T / catchup_factor⌉.
  [[nodiscard]] std::chrono::nanoseconds catchup_spacing() const { return catchup_spacing_; }

  // The schedule's origin, when datagram 0 is due.
  [[nodiscard]] time_point start() const { return start_; }

 private:
  std::uint64_t bits_per_second_;
  std::uint64_t bit_ns_per_datagram_;  // bytes · 8 · 10⁹: T = this / bits_per_second_ ns
  time_point start_;
  std::chrono::nanoseconds catchup_spacing_;
};

}  // namespace hil::measure
