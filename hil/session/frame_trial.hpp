// One RFC 2544 trial as an iperf3 UDP test (measure/rfc2544_search.hpp's trial): datagrams sized
// so each makes an Ethernet frame of frame_bytes (measure/frames.hpp), offered at fps for a whole
// number of seconds, against hilperf-peer or any stock iperf3 -s. iperf3's exchange gives exact
// counts both ways: what the sender sent, and what the receiver got (its highest sequence number
// less the gaps), so frames lost after the last arrival count as lost too.
#pragma once

#include <chrono>
#include <cstdint>

#include "hil/measure/rfc2544_search.hpp"
#include "hil/session/iperf3_client.hpp"

namespace hil::session {

// How the engine's sender shapes a trial's bursts, for the record (traffic::flow's paced UDP).
inline constexpr const char* frame_trial_pacing =
    "each datagram to its own instant up to 10,000 frames/s; above, every datagram due when the "
    "sender wakes goes out in one sendmmsg burst of at most 64, back to back; a late sender "
    "catches up at no more than twice the offered rate";

// How the peer shapes them when it sends (iperf3 -R): hilperf-peer's engine as above, a stock
// iperf3 server by its own -b pacing.
inline constexpr const char* peer_frame_pacing =
    "sent by the peer (iperf3 -R): hilperf-peer paces as the DUT's engine does (each datagram to "
    "its own instant up to 10,000 frames/s, above in sendmmsg bursts of at most 64); a stock "
    "iperf3 server by its own -b pacing";

struct frame_trial_options {
  client_options base;  // server, port, credentials, timeouts; the spec's bind, -R and counters
  std::uint32_t frame_bytes = 64;
  bool ipv6 = false;  // the frame's IP header: 40 bytes instead of 20
};

// The UDP payload of o's frames (iperf3's -l). Throws std::invalid_argument when the frame is too
// small to carry iperf3's datagram header (12 bytes; 16 with 64-bit counters) over its IP version.
[[nodiscard]] std::uint32_t trial_payload(const frame_trial_options& o);

// Runs the trial: -u -l trial_payload(o) -b fps × payload × 8 -t duration (rounded up to whole
// seconds, as iperf3's -t), -w 8M unless the spec sets -w. Throws what run_client throws; a test
// the server failed is thrown as std::system_error with its error text.
[[nodiscard]] measure::trial_outcome run_frame_trial(const frame_trial_options& o, double fps,
                                                     std::chrono::milliseconds duration);

// Runs one back-to-back burst (measure/rfc2544_burst.hpp's burst): as run_frame_trial, but
// -k frames instead of -t: exactly `frames` datagrams at fps, then the test ends. Throws as
// run_frame_trial; std::invalid_argument for frames == 0.
[[nodiscard]] measure::trial_outcome run_frame_burst(const frame_trial_options& o, double fps,
                                                     std::uint64_t frames);

}  // namespace hil::session
