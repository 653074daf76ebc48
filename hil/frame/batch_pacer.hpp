// Pacing by batches against the monotonic clock: frame i of a trial is due at t0 + i / rate; a
// batch of B frames is released when its first frame is due (a late sender catching up: no sooner
// than half a batch period after the last release, twice the rate at most), the time before it
// slept (when longer than 200 µs) then busy-waited, and the NIC drains each batch back to back —
// micro-bursts of B frames at the minimum gap, then a pause; at the media maximum that is constant
// bit rate. B is part of every result, since a DUT's RX ring sees bursts of B at lower loads.
//
// What was offered is counted, never computed from the rate: `accepted` is what the path's ring or
// syscall took within the trial's window, and the interface's tx_packets growth (read through
// netlink before and after, once the path drained) is the second witness.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "hil/frame/frame_sender.hpp"
#include "hil/link/link_control.hpp"

namespace hil::frame {

inline constexpr double schedule_tolerance = 1e-3;  // an RFC 2544 trial's: 0.1 %

struct pace_plan {
  double frames_per_second = 0;  // 0: unpaced, as fast as the path takes them
  std::uint32_t batch = 32;      // frames per release (and per send call)
  std::chrono::nanoseconds duration = std::chrono::seconds(1);
  std::uint64_t frame_limit = 0;  // stop once this many were accepted (0: the duration decides)
};

struct pace_result {
  std::string path;  // path_name(): a record's value
  std::string mode;  // the path's mode words
  std::uint32_t batch = 0;
  double frames_per_second = 0;    // the rate asked for; 0 unpaced
  std::uint64_t scheduled = 0;     // frames the schedule called for in the window (0 unpaced)
  std::uint64_t accepted = 0;      // frames the path took within the window
  std::uint64_t completed = 0;     // of those, completed once drained
  std::uint64_t refused = 0;       // given back unsent by the kernel
  std::uint64_t tx_packets = 0;    // the interface's tx_packets growth, drained
  std::uint64_t tx_dropped = 0;    // and its tx_dropped growth
  double seconds = 0;              // the window, measured
  double cpu_seconds = 0;          // the sending thread's user + system CPU in the window
  std::uint64_t batches = 0;       // send calls
  std::uint64_t late_batches = 0;  // released more than one batch period after their due time
  // Paced: the most frames the schedule had due but not yet accepted at a batch's release (a
  // sender that fell behind catches up back to back, above the rate, by up to this many). 0
  // unpaced.
  std::uint64_t most_overdue = 0;
  bool drained = false;  // every accepted frame completed within the drain time

  // Frames per second the path took.
  [[nodiscard]] double accepted_per_second() const;
  // Frames per second the interface counted onto the link.
  [[nodiscard]] double link_per_second() const;
  // CPU-seconds per million frames accepted.
  [[nodiscard]] double cpu_per_million() const;
  // Paced: accepted and tx_packets both at least scheduled · (1 − tolerance). False unpaced.
  [[nodiscard]] bool schedule_kept(double tolerance = schedule_tolerance) const;
};

// The frame i of a schedule at rate frames/s is due this long after the start.
[[nodiscard]] std::chrono::nanoseconds due_after(std::uint64_t i, double rate);

// Runs one trial on sender and reads sender.interface()'s counters through link (a control in
// the sender's namespace). Throws what the sender throws.
[[nodiscard]] pace_result run_paced(frame_sender& sender, link::link_control& link,
                                    const pace_plan& plan);

}  // namespace hil::frame
