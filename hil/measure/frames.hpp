// Ethernet frames for RFC 2544: a frame size counts the Ethernet header (14 bytes), the payload and
// the FCS (4), as RFC 2544 and every tester quote it (64 … 1518, jumbo 9000); on the wire each
// frame also takes a preamble with start delimiter (8) and the inter-frame gap (12), which is why
// a 1 Gbit/s port carries at most 1,488,095 frames/s of 64 bytes. Untagged frames only (no VLAN).
//
//   frame 64 = 14 Ethernet + 20 IPv4 + 8 UDP + 18 payload + 4 FCS        (IPv6: 40, payload -2:
//   too small; the smallest IPv6 UDP frame with a payload is 66)
#pragma once

#include <cstdint>
#include <optional>

namespace hil::measure {

inline constexpr std::uint32_t ethernet_header = 14;
inline constexpr std::uint32_t ethernet_fcs = 4;
inline constexpr std::uint32_t ethernet_preamble_and_gap = 8 + 12;
inline constexpr std::uint32_t min_frame = 64;

// The UDP payload that makes a frame of frame_bytes; nullopt when the frame cannot carry one of
// at least min_payload bytes (the sender's own header) or is below Ethernet's 64.
[[nodiscard]] std::optional<std::uint32_t> udp_payload_for_frame(std::uint32_t frame_bytes,
                                                                 bool ipv6,
                                                                 std::uint32_t min_payload = 0);

// The frame a UDP datagram of payload bytes makes (padded to 64 as Ethernet does).
[[nodiscard]] std::uint32_t frame_for_udp_payload(std::uint32_t payload_bytes, bool ipv6);

// The most frames/s a link of line_bps carries at frame_bytes: line / ((frame + 20) × 8).
[[nodiscard]] double media_max_fps(std::uint64_t line_bps, std::uint32_t frame_bytes);

// Bits/s of frames at fps counted as frames (frame × 8 × fps: RFC 2544's and testers' "Mbit/s",
// without preamble and gap), and as on the wire (with them; line rate at the media maximum).
[[nodiscard]] double frame_bps(double fps, std::uint32_t frame_bytes);
[[nodiscard]] double wire_bps(double fps, std::uint32_t frame_bytes);

}  // namespace hil::measure
