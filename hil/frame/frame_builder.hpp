// Ethernet + IPv4/IPv6 + UDP frames built once per trial, for the frame paths below the socket
// layer (AF_XDP, AF_PACKET): pure functions over bytes, no sockets.
//
//   frame (RFC 2544 size, FCS included; the NIC appends the FCS, so the bytes are 4 fewer)
//   ┌──────────────┬───────────────────────┬─────────┬─────────────────────────────────────┐
//   │ Ethernet 14  │ IPv4 20 / IPv6 40     │ UDP 8   │ payload: [stamp 12] zeros …         │
//   │ dst src type │ DF, TTL, header csum  │ csum    │ sec usec seq (iperf3's UDP header)  │
//   └──────────────┴───────────────────────┴─────────┴─────────────────────────────────────┘
//
// The stamp is iperf3's UDP datagram header with 32-bit counters — seconds, microseconds and the
// sequence number, each a big-endian 32-bit word — so an iperf3 server counting the flow sees
// datagrams it understands. Stamping a frame touches those 12 bytes and the UDP checksum only:
// the checksum is the template's partial sum plus the stamp's words (RFC 1071 arithmetic), not a
// pass over the frame.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hil::frame {

// An IPv4 (the first 4 bytes used) or IPv6 address in network byte order.
struct ip_address {
  int version = 4;
  std::array<std::uint8_t, 16> bytes{};
  friend bool operator==(const ip_address&, const ip_address&) = default;
};

// Parses "198.18.0.10" or "2001:2::10" (no prefix). Throws std::invalid_argument.
[[nodiscard]] ip_address parse_ip(const std::string& text);

// What a frame's payload starts with.
enum class stamp_kind {
  none,    // zeros: every frame identical (a counting peer that needs no sequence)
  iperf3,  // sec, usec, 32-bit sequence (iperf3's UDP header, 12 bytes)
};

inline constexpr std::size_t stamp_bytes = 12;

struct frame_spec {
  std::array<std::uint8_t, 6> src_mac{};
  std::array<std::uint8_t, 6> dst_mac{};
  ip_address src_ip;  // both of one version
  ip_address dst_ip;
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = 0;
  std::uint32_t frame_bytes = 64;  // the RFC 2544 size: Ethernet header to FCS
  std::uint8_t ttl = 64;           // IPv4 TTL / IPv6 hop limit
  stamp_kind stamp = stamp_kind::iperf3;
};

// The RFC 1071 checksum of bytes (the complement of the folded one's complement sum).
[[nodiscard]] std::uint16_t internet_checksum(std::span<const std::byte> bytes);

// The one's complement sum of bytes as big-endian 16-bit words (an odd last byte padded with
// zero), unfolded: partial sums add.
[[nodiscard]] std::uint64_t ones_sum(std::span<const std::byte> bytes);

// One flow's frame, built once; copies are stamped per frame.
class frame_template {
 public:
  // Throws std::invalid_argument when the addresses' versions differ, or the frame is below 64
  // bytes, above 9018, or too small for the headers and the stamp (IPv6 with a stamp needs 78).
  explicit frame_template(const frame_spec& spec);

  // The frame without its FCS (frame_bytes − 4), stamp fields zero.
  [[nodiscard]] std::span<const std::byte> bytes() const { return bytes_; }
  [[nodiscard]] std::size_t size() const { return bytes_.size(); }
  [[nodiscard]] const frame_spec& spec() const { return spec_; }
  // Where the UDP payload starts in bytes(), and its length.
  [[nodiscard]] std::size_t payload_offset() const { return payload_offset_; }
  [[nodiscard]] std::size_t payload_size() const { return bytes_.size() - payload_offset_; }

  // Writes the stamp (sequence seq, time sec/usec) and the UDP checksum that goes with it into
  // frame, a copy of bytes() (only those 14 bytes are written). No-op for stamp_kind::none.
  void stamp(std::byte* frame, std::uint32_t seq, std::uint32_t sec, std::uint32_t usec) const;

  // The same for a bare UDP payload (a socket sends it; the kernel computes the checksum).
  void stamp_payload(std::byte* payload, std::uint32_t seq, std::uint32_t sec,
                     std::uint32_t usec) const;

  // The sequence number a stamped frame carries (for counting peers and tests); 0 for none.
  [[nodiscard]] std::uint32_t sequence_of(std::span<const std::byte> frame) const;

 private:
  frame_spec spec_;
  std::vector<std::byte> bytes_;
  std::size_t payload_offset_ = 0;
  std::size_t udp_checksum_offset_ = 0;
  std::uint64_t udp_partial_sum_ = 0;  // pseudo-header + UDP header + payload, stamp zero
};

}  // namespace hil::frame
