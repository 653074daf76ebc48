#include "hil/session/iperf2_datagrams.hpp"

#include <algorithm>

#include "hil/traffic/flow.hpp"

namespace hil::session {

iperf2_datagrams::iperf2_datagrams(std::optional<iperf2::client_header> header)
    : wall_offset_(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::system_clock::now().time_since_epoch() -
          std::chrono::steady_clock::now().time_since_epoch())) {
  if (header) header_ = iperf2::encode_header(*header);
}

std::size_t iperf2_datagrams::header_size() const {
  return header_ ? iperf2::udp_header_size : iperf2::prefix_size;
}

void iperf2_datagrams::write(std::span<std::uint8_t> datagram,
                             const traffic::datagram_stamp& s) const {
  const auto wall = std::chrono::seconds(s.sec) + std::chrono::microseconds(s.usec) + wall_offset_;
  const auto sec = std::chrono::duration_cast<std::chrono::seconds>(wall);
  iperf2::encode_prefix(datagram.first<iperf2::prefix_size>(),
                        {static_cast<std::int64_t>(s.seq), static_cast<std::uint32_t>(sec.count()),
                         static_cast<std::uint32_t>((wall - sec).count())});
  if (header_) std::copy(header_->begin(), header_->end(), datagram.begin() + iperf2::prefix_size);
}

std::optional<traffic::datagram_stamp> iperf2_datagrams::read(
    std::span<const std::uint8_t> datagram) const {
  if (datagram.size() < iperf2::prefix_size) return std::nullopt;
  const auto p = iperf2::decode_prefix(datagram.first<iperf2::prefix_size>());
  if (p.seq <= 0) return std::nullopt;  // a FIN
  return traffic::datagram_stamp{p.sec, p.usec, static_cast<std::uint64_t>(p.seq)};
}

std::optional<std::uint64_t> iperf2_datagrams::end_marker(
    std::span<const std::uint8_t> datagram) const {
  if (datagram.size() < iperf2::prefix_size) return std::nullopt;
  const auto p = iperf2::decode_prefix(datagram.first<iperf2::prefix_size>());
  if (p.seq >= 0) return std::nullopt;
  return static_cast<std::uint64_t>(-p.seq - 1);
}

std::vector<std::uint8_t> iperf2_datagrams::fin(std::int64_t sent, std::int64_t extra,
                                                std::size_t len) const {
  std::vector<std::uint8_t> out(std::max(len, header_size()), 0);
  // Stamped now, as a stock sender's FIN is: a stock receiver's jitter filter takes it in too.
  const auto now = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now().time_since_epoch());
  write(out, {static_cast<std::uint32_t>(now.count() / 1'000'000),
              static_cast<std::uint32_t>(now.count() % 1'000'000), 0});
  auto prefix =
      iperf2::decode_prefix(std::span<const std::uint8_t>(out).first<iperf2::prefix_size>());
  prefix.seq = -(sent + 1) - extra;
  iperf2::encode_prefix(std::span(out).first<iperf2::prefix_size>(), prefix);
  return out;
}

std::uint64_t iperf2_payload_seed(std::uint64_t from) {
  std::uint64_t seed = from;
  while (traffic::random_block(1, seed).front() == 0x09) ++seed;
  return seed;
}

}  // namespace hil::session
