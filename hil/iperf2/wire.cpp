#include "hil/iperf2/wire.hpp"

#include <algorithm>

namespace hil::iperf2 {
namespace {

void put32(std::span<std::uint8_t> out, std::size_t at, std::uint32_t v) {
  out[at] = static_cast<std::uint8_t>(v >> 24);
  out[at + 1] = static_cast<std::uint8_t>(v >> 16);
  out[at + 2] = static_cast<std::uint8_t>(v >> 8);
  out[at + 3] = static_cast<std::uint8_t>(v);
}

void put16(std::span<std::uint8_t> out, std::size_t at, std::uint16_t v) {
  out[at] = static_cast<std::uint8_t>(v >> 8);
  out[at + 1] = static_cast<std::uint8_t>(v);
}

std::uint32_t get32(std::span<const std::uint8_t> in, std::size_t at) {
  return (std::uint32_t{in[at]} << 24) | (std::uint32_t{in[at + 1]} << 16) |
         (std::uint32_t{in[at + 2]} << 8) | std::uint32_t{in[at + 3]};
}

std::uint16_t get16(std::span<const std::uint8_t> in, std::size_t at) {
  return static_cast<std::uint16_t>((in[at] << 8) | in[at + 1]);
}

std::int32_t signed32(std::uint32_t v) { return static_cast<std::int32_t>(v); }

// A 64-bit count from its high and low words.
std::int64_t join(std::uint32_t high, std::uint32_t low) {
  return static_cast<std::int64_t>((std::uint64_t{high} << 32) | low);
}

// Offsets in the header.
constexpr std::size_t at_flags = 0, at_streams = 4, at_port = 8, at_buffer = 12, at_amount = 20,
                      at_upper = 32, at_version_high = 36, at_version_low = 40, at_rate_low = 48,
                      at_rate_high = 52;
// Offsets in the report datagram.
constexpr std::size_t rp_flags = 16, rp_bytes_high = 20, rp_bytes_low = 24, rp_sec = 28,
                      rp_usec = 32, rp_lost = 36, rp_ooo = 40, rp_datagrams = 44,
                      rp_jitter_sec = 48, rp_jitter_usec = 52, rp_lost_high = 116,
                      rp_ooo_high = 120, rp_datagrams_high = 124;

}  // namespace

std::chrono::milliseconds client_header::duration() const noexcept {
  return timed() ? std::chrono::milliseconds(-std::int64_t{amount} * 10)
                 : std::chrono::milliseconds(0);
}

bool client_header::reverse() const noexcept {
  return (flags & flag_version2) != 0 && (upper_flags & upper_reverse) != 0;
}

bool client_header::full_duplex() const noexcept {
  return (flags & flag_version2) != 0 && (upper_flags & upper_full_duplex) != 0;
}

direction client_header::way() const noexcept {
  if (full_duplex()) return direction::full_duplex;
  return reverse() ? direction::reverse : direction::forward;
}

client_header make_header(bool udp, std::int32_t streams, std::uint16_t port,
                          std::chrono::milliseconds duration, std::uint64_t bytes,
                          std::uint64_t rate_bps, direction way) {
  client_header h;
  const std::size_t length = udp ? udp_header_size : header_size;
  h.flags = flag_extend | flag_length | static_cast<std::uint32_t>(length << 1U);
  if (udp) h.flags |= flag_seqno64;
  if (way != direction::forward) {
    h.flags |= flag_version2 | (udp ? flag_udp_tests : 0);
    h.upper_flags = way == direction::reverse ? upper_reverse : upper_full_duplex;
    if (udp && way == direction::full_duplex) h.upper_flags |= upper_no_udp_fin;
  }
  h.streams = streams;
  h.port = port;
  h.amount = bytes != 0 ? static_cast<std::int32_t>(bytes)
                        : -static_cast<std::int32_t>((duration.count() + 9) / 10);
  h.rate_bps = rate_bps;
  return h;
}

std::array<std::uint8_t, header_size> encode_header(const client_header& h) {
  std::array<std::uint8_t, header_size> out{};
  put32(out, at_flags, h.flags);
  put32(out, at_streams, static_cast<std::uint32_t>(h.streams));
  put32(out, at_port, static_cast<std::uint32_t>(h.port));
  put32(out, at_buffer, static_cast<std::uint32_t>(h.buffer_len));
  put32(out, at_amount, static_cast<std::uint32_t>(h.amount));
  put16(out, at_upper, h.upper_flags);
  put32(out, at_version_high, version_high);
  put32(out, at_version_low, version_low);
  put32(out, at_rate_low, static_cast<std::uint32_t>(h.rate_bps));
  put32(out, at_rate_high, static_cast<std::uint32_t>((h.rate_bps >> 32) << 8));
  return out;
}

std::optional<client_header> decode_header(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < min_header_size) return std::nullopt;
  client_header h;
  h.flags = get32(bytes, at_flags);
  if (!has_header(h.flags)) return std::nullopt;
  h.streams = signed32(get32(bytes, at_streams));
  h.port = signed32(get32(bytes, at_port));
  h.buffer_len = signed32(get32(bytes, at_buffer));
  h.amount = signed32(get32(bytes, at_amount));
  if (bytes.size() >= at_upper + 2) h.upper_flags = get16(bytes, at_upper);
  if (bytes.size() >= at_rate_high + 4) {
    h.rate_bps = get32(bytes, at_rate_low) | (std::uint64_t{get32(bytes, at_rate_high) >> 8} << 32);
  }
  return h;
}

std::uint32_t decode_flags(std::span<const std::uint8_t, flags_size> first) noexcept {
  return get32(first, at_flags);
}

bool has_header(std::uint32_t flags) noexcept {
  return (flags & (flag_version1 | flag_version2 | flag_extend)) != 0;
}

std::size_t header_length(std::uint32_t flags) noexcept {
  if ((flags & flag_length) != 0) {
    return std::clamp<std::size_t>((flags & length_mask) >> 1U, min_header_size, 256);
  }
  // Without a length: the v1 part, and the extension when EXTEND or VERSION2 says it is there.
  return (flags & (flag_extend | flag_version2)) != 0 ? header_size : min_header_size;
}

std::array<std::uint8_t, ack_size> encode_header_ack() {
  std::array<std::uint8_t, ack_size> out{};
  put32(out, 0, 2);  // CLIENTHDRACK
  put32(out, 4, ack_size);
  put32(out, 12, version_high);
  put32(out, 16, version_low);
  return out;
}

bool wants_ack(const client_header& h) noexcept {
  return ((h.flags & flag_extend) != 0 && (h.flags & flag_version2) == 0) ||
         (h.flags & flag_peer_detect) != 0;
}

void encode_prefix(std::span<std::uint8_t, prefix_size> out, const datagram_prefix& p) {
  const auto seq = static_cast<std::uint64_t>(p.seq);
  put32(out, 0, static_cast<std::uint32_t>(seq));
  put32(out, 4, p.sec);
  put32(out, 8, p.usec);
  put32(out, 12, static_cast<std::uint32_t>(seq >> 32));
}

datagram_prefix decode_prefix(std::span<const std::uint8_t, prefix_size> in) {
  return {join(get32(in, 12), get32(in, 0)), get32(in, 4), get32(in, 8)};
}

std::array<std::uint8_t, report_size> encode_report(const server_report& r) {
  std::array<std::uint8_t, report_size> out{};
  put32(out, rp_flags, flag_version1 | flag_seqno64);
  put32(out, rp_bytes_high, static_cast<std::uint32_t>(r.bytes >> 32));
  put32(out, rp_bytes_low, static_cast<std::uint32_t>(r.bytes));
  const auto us = r.duration.count();
  put32(out, rp_sec, static_cast<std::uint32_t>(us / 1'000'000));
  put32(out, rp_usec, static_cast<std::uint32_t>(us % 1'000'000));
  const auto put64 = [&](std::size_t low, std::size_t high, std::int64_t v) {
    const auto u = static_cast<std::uint64_t>(v);
    put32(out, low, static_cast<std::uint32_t>(u));
    put32(out, high, static_cast<std::uint32_t>(u >> 32));
  };
  put64(rp_lost, rp_lost_high, r.lost);
  put64(rp_ooo, rp_ooo_high, r.out_of_order);
  put64(rp_datagrams, rp_datagrams_high, r.datagrams);
  const auto jitter = r.jitter.count();
  put32(out, rp_jitter_sec, static_cast<std::uint32_t>(jitter / 1'000'000));
  put32(out, rp_jitter_usec, static_cast<std::uint32_t>(jitter % 1'000'000));
  return out;
}

std::optional<server_report> decode_report(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < rp_jitter_usec + 4) return std::nullopt;
  if (!std::all_of(datagram.begin(), datagram.begin() + prefix_size,
                   [](std::uint8_t b) { return b == 0; })) {
    return std::nullopt;  // data, a FIN, or a server's echo of one
  }
  const std::uint32_t flags = get32(datagram, rp_flags);
  if ((flags & flag_version1) == 0) return std::nullopt;
  const bool wide = (flags & flag_seqno64) != 0 && datagram.size() >= report_size;
  const auto count = [&](std::size_t low, std::size_t high) {
    return wide ? join(get32(datagram, high), get32(datagram, low))
                : std::int64_t{get32(datagram, low)};
  };
  server_report r;
  r.bytes = static_cast<std::uint64_t>(
      join(get32(datagram, rp_bytes_high), get32(datagram, rp_bytes_low)));
  r.duration = std::chrono::microseconds(std::int64_t{get32(datagram, rp_sec)} * 1'000'000 +
                                         get32(datagram, rp_usec));
  r.lost = count(rp_lost, rp_lost_high);
  r.out_of_order = count(rp_ooo, rp_ooo_high);
  r.datagrams = count(rp_datagrams, rp_datagrams_high);
  r.jitter = std::chrono::microseconds(std::int64_t{get32(datagram, rp_jitter_sec)} * 1'000'000 +
                                       get32(datagram, rp_jitter_usec));
  return r;
}

first_byte_kind classify_first_byte(std::uint8_t b) noexcept {
  const bool cookie = (b >= 'a' && b <= 'z') || (b >= '2' && b <= '7');
  return cookie ? first_byte_kind::iperf3 : first_byte_kind::iperf2;
}

}  // namespace hil::iperf2
