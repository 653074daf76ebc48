// Units: bits per second from bytes and seconds, the one place it is written out; iperf3's
// number suffixes: rates are decimal (-b 100M = 100,000,000 bit/s), sizes are binary
// (-l 128K = 131,072 bytes), as iperf3 parses them (src/units.c).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace hil::measure {

// The largest UDP payload over IPv4: 65,535 bytes of IP datagram less 20 of IP and 8 of UDP header.
inline constexpr std::uint32_t max_udp_payload = 65507;

// Bits per second of `bytes` carried in `seconds`; 0 when no time elapsed (never inf or nan).
template <typename Bytes>
requires std::is_arithmetic_v<Bytes>
[[nodiscard]] constexpr double bits_per_second(Bytes bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) * 8.0 / seconds : 0.0;
}

// "100M" -> 100000000; accepts k/K, m/M, g/G, t/T and a fraction ("1.5G"). nullopt when malformed.
std::optional<std::uint64_t> parse_rate(std::string_view text);

// "128K" -> 131072; accepts k/K, m/M, g/G, t/T (powers of 1024). nullopt when malformed.
std::optional<std::uint64_t> parse_size(std::string_view text);

}  // namespace hil::measure
