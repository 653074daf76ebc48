// Counting a received stream as it arrives, for a session whose event loop waits for the data
// (iperf 2's server: one event loop for every client, no thread per stream).
//
//   session: wait until readable ──▶ stream_receiver::read_available(fd) ──▶ interval_tally
//            (its own loop, asio)       one read, without blocking               per second
//
// The intervals are whole seconds from t0, each closed at the first arrival past its end (a
// quiet second is still reported, with 0 bytes), the last one partial at finish().
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "hil/measure/results.hpp"

namespace hil::traffic {

// Per-second intervals of one received stream (stream id 1), in the engine's terms.
class interval_tally {
 public:
  using clock = std::chrono::steady_clock;

  explicit interval_tally(clock::time_point t0);

  // Counts bytes and packets that arrived at now (not before the last arrival).
  void add(clock::time_point now, std::uint64_t bytes, std::uint64_t packets);
  // The intervals up to end, the last one partial; the tally is spent.
  std::vector<measure::interval_sample> finish(clock::time_point end);

 private:
  void close_until(clock::time_point now);
  void push(clock::time_point end);

  clock::time_point t0_;
  clock::time_point start_;  // of the open interval
  clock::time_point next_;   // its end
  std::uint64_t bytes_ = 0;
  std::uint64_t packets_ = 0;
  std::vector<measure::interval_sample> out_;
};

// A TCP stream received and counted: what the peer sends on fd until it closes.
class stream_receiver {
 public:
  using clock = std::chrono::steady_clock;

  // already: bytes of the stream read before (a protocol's header), counted at t0.
  stream_receiver(clock::time_point t0, std::uint64_t already);

  // One read of what waits on fd (at most 128 KiB), without blocking, counted at its arrival; true
  // once the stream ended (the peer closed it, or it failed), false when more may come. The
  // caller waits for readability between calls (its event loop serves others meanwhile).
  bool read_available(int fd);
  // The bytes received, those counted at t0 included.
  [[nodiscard]] std::uint64_t bytes() const noexcept { return bytes_; }
  // The per-second intervals up to end; the receiver is spent.
  std::vector<measure::interval_sample> finish(clock::time_point end) { return tally_.finish(end); }

 private:
  interval_tally tally_;
  std::uint64_t bytes_ = 0;
  std::vector<std::uint8_t> buf_;
};

}  // namespace hil::traffic
