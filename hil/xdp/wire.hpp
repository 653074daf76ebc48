// The arithmetic of an Ethernet port as the XDP programs charge it (pure: no BPF, no sockets).
//
// XDP sees a frame without its FCS. On the wire the frame is padded to 60 bytes (64 with the FCS)
// and carries 24 more bytes than XDP sees: FCS 4, preamble 7, start-of-frame delimiter 1 and the
// inter-frame gap 12. So a 64-byte frame (RFC 2544 sizes count the FCS) occupies 84 bytes of wire
// time, 672 ns at 1 Gbit/s: 1,488,095 frames/s; a 1518-byte frame 1538 bytes: 81,274 frames/s.
//
// The port emulation's bucket counts tokens in bits × 10⁹: it refills by rate_bps per elapsed
// nanosecond and charges wire_bits × 10⁹ per frame, both exact integers (hil/xdp/bpf/xdp_abi.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hil::xdp {

inline constexpr std::uint64_t fcs_bytes = 4;
inline constexpr std::uint64_t preamble_sfd_bytes = 8;  // preamble 7 + start-of-frame delimiter 1
inline constexpr std::uint64_t inter_frame_gap_bytes = 12;
// What the bucket charges beyond the frame XDP sees.
inline constexpr std::uint64_t charged_overhead_bytes =
    fcs_bytes + preamble_sfd_bytes + inter_frame_gap_bytes;
// The shortest frame on the wire without its FCS (shorter ones are padded).
inline constexpr std::uint64_t min_frame_bytes_without_fcs = 60;
inline constexpr std::uint64_t ns_per_s = 1'000'000'000;

// Wire bytes of a frame XDP sees as xdp_bytes long (without FCS): max(xdp_bytes, 60) + 24.
[[nodiscard]] constexpr std::uint64_t wire_bytes_of_xdp_frame(std::uint64_t xdp_bytes) {
  return (xdp_bytes < min_frame_bytes_without_fcs ? min_frame_bytes_without_fcs : xdp_bytes) +
         charged_overhead_bytes;
}

// Wire bytes of a frame of frame_bytes counted with its FCS, as RFC 2544 sizes are (64 … 1518).
[[nodiscard]] constexpr std::uint64_t wire_bytes_of_frame(std::uint64_t frame_bytes) {
  return wire_bytes_of_xdp_frame(frame_bytes < fcs_bytes ? 0 : frame_bytes - fcs_bytes);
}

// The bucket's charge for that frame, in its units (wire bits × 10⁹).
[[nodiscard]] constexpr std::uint64_t charge_units(std::uint64_t xdp_bytes) {
  return wire_bytes_of_xdp_frame(xdp_bytes) * 8 * ns_per_s;
}

// The media maximum in whole frames/s: ⌊line_bps / (8 · wire bytes)⌋ for frames of frame_bytes
// with their FCS (1,488,095 at 64 bytes on 1 GbE).
[[nodiscard]] std::uint64_t media_max_fps(std::uint64_t line_bps, std::uint64_t frame_bytes);

// One port emulation's setting, as a user gives it.
struct port_setting {
  std::uint64_t line_bps = 0;      // the port's line rate on the wire
  std::uint64_t bucket_bytes = 0;  // wire bytes the port lets through back-to-back
};

// The port setting as the program's map holds it (hil_port_config without its generation).
struct port_config {
  std::uint64_t rate_bps = 0;
  std::uint64_t bucket_bits = 0;
  std::uint32_t overhead_bytes = static_cast<std::uint32_t>(charged_overhead_bytes);
  std::uint32_t min_frame_bytes = static_cast<std::uint32_t>(min_frame_bytes_without_fcs);
};

// The limits that keep the bucket's integers inside 64 bits (and make a useful port).
inline constexpr std::uint64_t min_line_bps = 1'000;
inline constexpr std::uint64_t max_line_bps = 1'000'000'000'000;  // 1 Tbit/s
inline constexpr std::uint64_t max_bucket_bytes = 125'000'000;    // 10⁹ bits

// Every problem with s, one sentence each (empty when it is valid): a rate outside
// min_line_bps … max_line_bps, a bucket above max_bucket_bytes or below one 64-byte frame.
[[nodiscard]] std::vector<std::string> problems(const port_setting& s);

// The map's configuration for s; throws std::invalid_argument listing problems(s).
[[nodiscard]] port_config config_of(const port_setting& s);

// A bucket for a port of line_bps receiving from a sender that batches: 4 ms of the line rate, at
// least 64 frames of 1538 wire bytes (a batch of a sender plus one NAPI poll of the receiver arrive
// back to back; a 1518-byte frame is the largest RFC 2544 size).
[[nodiscard]] std::uint64_t default_bucket_bytes(std::uint64_t line_bps);

// What the bucket reported (hil_port_state without its lock and generation).
struct bucket_state {
  std::uint64_t tokens = 0;
  std::uint64_t first_ns = 0;
  std::uint64_t last_ns = 0;
  std::uint64_t full_ns = 0;
  std::uint64_t overflow_units = 0;

  [[nodiscard]] std::uint64_t window_ns() const { return last_ns - first_ns; }
};

// True when the bucket's books balance: what it started with and what the window refilled equals
// what it holds, what it charged for passed_wire_bytes and what it threw away while full.
[[nodiscard]] bool bucket_balances(const port_config& c, const bucket_state& b,
                                   std::uint64_t passed_wire_bytes);

// Wire bits the bucket threw away while full (refill it could not hold), rounded down.
[[nodiscard]] std::uint64_t thrown_away_bits(const port_config& c, const bucket_state& b);

// How many frames of xdp_bytes a port passes over b's window when offered more than it carries:
// at most ⌊(bucket + rate · window) / charge⌋, at least ⌊(rate · window − thrown away) / charge⌋.
// Both follow from bucket_balances (the bucket holds between 0 and its capacity at the end).
struct passed_bounds {
  std::uint64_t min_frames = 0;
  std::uint64_t max_frames = 0;
};
[[nodiscard]] passed_bounds bounds_of(const port_config& c, const bucket_state& b,
                                      std::uint64_t xdp_bytes);

}  // namespace hil::xdp
