#include "hil/frame/frame_builder.hpp"

#include <arpa/inet.h>

#include <cstring>
#include <stdexcept>

namespace hil::frame {
namespace {

constexpr std::size_t ethernet_header = 14;
constexpr std::size_t ethernet_fcs = 4;
constexpr std::size_t udp_header = 8;
constexpr std::uint32_t largest_frame = 9018;  // a 9000-byte MTU
constexpr std::uint8_t udp_protocol = 17;

void put16(std::byte* at, std::uint16_t v) {
  at[0] = static_cast<std::byte>(v >> 8);
  at[1] = static_cast<std::byte>(v & 0xff);
}

void put32(std::byte* at, std::uint32_t v) {
  put16(at, static_cast<std::uint16_t>(v >> 16));
  put16(at + 2, static_cast<std::uint16_t>(v & 0xffff));
}

std::uint16_t fold(std::uint64_t sum) {
  while ((sum >> 16) != 0) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(sum);
}

// UDP's checksum field: the complement of the folded sum, 0xffff for a computed 0 (RFC 768; 0
// means "none" over IPv4 and is invalid over IPv6).
std::uint16_t udp_field(std::uint64_t sum) {
  const auto c = static_cast<std::uint16_t>(~fold(sum));
  return c == 0 ? 0xffff : c;
}

std::uint64_t word_sum(std::uint32_t v) { return (v >> 16) + (v & 0xffff); }

std::size_t ip_header_bytes(int version) { return version == 6 ? 40 : 20; }

}  // namespace

ip_address parse_ip(const std::string& text) {
  ip_address a;
  if (::inet_pton(AF_INET, text.c_str(), a.bytes.data()) == 1) return a;
  if (::inet_pton(AF_INET6, text.c_str(), a.bytes.data()) == 1) {
    a.version = 6;
    return a;
  }
  throw std::invalid_argument("'" + text + "' is not an IPv4 or IPv6 address");
}

std::uint64_t ones_sum(std::span<const std::byte> bytes) {
  std::uint64_t sum = 0;
  std::size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2) {
    sum += (std::to_integer<std::uint64_t>(bytes[i]) << 8) |
           std::to_integer<std::uint64_t>(bytes[i + 1]);
  }
  if (i < bytes.size()) sum += std::to_integer<std::uint64_t>(bytes[i]) << 8;
  return sum;
}

std::uint16_t internet_checksum(std::span<const std::byte> bytes) {
  return static_cast<std::uint16_t>(~fold(ones_sum(bytes)));
}

frame_template::frame_template(const frame_spec& spec) : spec_(spec) {
  const int v = spec.src_ip.version;
  if (v != spec.dst_ip.version || (v != 4 && v != 6)) {
    throw std::invalid_argument("a frame's source and destination must both be IPv4 or IPv6");
  }
  const std::size_t ip_bytes = ip_header_bytes(v);
  const std::size_t headers = ethernet_header + ip_bytes + udp_header;
  const std::size_t least = spec.stamp == stamp_kind::iperf3 ? stamp_bytes : 0;
  if (spec.frame_bytes < 64 || spec.frame_bytes > largest_frame ||
      spec.frame_bytes < headers + least + ethernet_fcs) {
    throw std::invalid_argument("a " + std::to_string(spec.frame_bytes) + "-byte IPv" +
                                std::to_string(v) + " frame cannot carry the headers and a " +
                                std::to_string(least) + "-byte stamp (64 to 9018 bytes, at least " +
                                std::to_string(headers + least + ethernet_fcs) + ")");
  }
  bytes_.assign(spec.frame_bytes - ethernet_fcs, std::byte{0});
  std::byte* p = bytes_.data();
  std::memcpy(p, spec.dst_mac.data(), 6);
  std::memcpy(p + 6, spec.src_mac.data(), 6);
  put16(p + 12, v == 6 ? 0x86dd : 0x0800);
  std::byte* ip = p + ethernet_header;
  const auto udp_len = static_cast<std::uint16_t>(bytes_.size() - ethernet_header - ip_bytes);
  const std::size_t addr_len = v == 6 ? 16 : 4;
  if (v == 4) {
    ip[0] = std::byte{0x45};
    put16(ip + 2, static_cast<std::uint16_t>(ip_bytes + udp_len));
    put16(ip + 6, 0x4000);  // DF: frames are never fragments
    ip[8] = static_cast<std::byte>(spec.ttl);
    ip[9] = static_cast<std::byte>(udp_protocol);
    std::memcpy(ip + 12, spec.src_ip.bytes.data(), 4);
    std::memcpy(ip + 16, spec.dst_ip.bytes.data(), 4);
    put16(ip + 10, internet_checksum({ip, ip_bytes}));
  } else {
    ip[0] = std::byte{0x60};
    put16(ip + 4, udp_len);
    ip[6] = static_cast<std::byte>(udp_protocol);
    ip[7] = static_cast<std::byte>(spec.ttl);
    std::memcpy(ip + 8, spec.src_ip.bytes.data(), 16);
    std::memcpy(ip + 24, spec.dst_ip.bytes.data(), 16);
  }
  std::byte* udp = ip + ip_bytes;
  put16(udp, spec.src_port);
  put16(udp + 2, spec.dst_port);
  put16(udp + 4, udp_len);
  payload_offset_ = ethernet_header + ip_bytes + udp_header;
  udp_checksum_offset_ = ethernet_header + ip_bytes + 6;
  // The pseudo-header (RFC 768 / RFC 8200 §8.1): both addresses, the protocol, the UDP length.
  udp_partial_sum_ = ones_sum({ip + (v == 6 ? 8 : 12), 2 * addr_len}) + udp_protocol + udp_len +
                     ones_sum({udp, udp_len});
  put16(udp + 6, udp_field(udp_partial_sum_));
}

void frame_template::stamp(std::byte* frame, std::uint32_t seq, std::uint32_t sec,
                           std::uint32_t usec) const {
  if (spec_.stamp == stamp_kind::none) return;
  stamp_payload(frame + payload_offset_, seq, sec, usec);
  const std::uint64_t sum = udp_partial_sum_ + word_sum(sec) + word_sum(usec) + word_sum(seq);
  put16(frame + udp_checksum_offset_, udp_field(sum));
}

void frame_template::stamp_payload(std::byte* payload, std::uint32_t seq, std::uint32_t sec,
                                   std::uint32_t usec) const {
  if (spec_.stamp == stamp_kind::none) return;
  put32(payload, sec);
  put32(payload + 4, usec);
  put32(payload + 8, seq);
}

std::uint32_t frame_template::sequence_of(std::span<const std::byte> frame) const {
  if (spec_.stamp == stamp_kind::none || frame.size() < payload_offset_ + stamp_bytes) return 0;
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    v = (v << 8) | std::to_integer<std::uint32_t>(frame[payload_offset_ + 8 + i]);
  }
  return v;
}

}  // namespace hil::frame
