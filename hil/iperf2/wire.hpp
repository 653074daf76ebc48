// iperf 2's wire format (2.1.8, Debian 12's `iperf`), as hilperf speaks it
// (docs/iperf2-protocol.md). All integers big-endian. There is no control connection: each data
// stream carries the test's settings in a client header, and a UDP server answers the end of a test
// with its report.
//
//   TCP   client ── connect ── header (60 B) ── data … ── shutdown(WR) ─▶ server
//         server ── header ack (28 B) ── … ── close after EOF ─▶ client   (no figures back)
//
//   UDP   every datagram: prefix (16 B) = seq low32 | sec | usec | seq high32, then the header
//         end: the sequence negated (FIN), repeated every 10 ms until the report arrives
//         server ── report (128 B) = 16 zero bytes | flags | bytes | duration | lost | ooo |
//                                    datagrams | jitter | latency block | high words ─▶ client
//
//   header (60 B, at 0 of a TCP stream, at 16 of a datagram):
//     flags | streams | port | buffer len | 0 | amount | type | length | upper16 lower16 |
//     version hi | version lo | 0 tos | rate lo | rate hi << 8 | 0
//     flags: EXTEND | LEN_BIT | (length << 1), + SEQNO64B for UDP (TCP 0x40010078, UDP 0x48010098)
//     amount: −(duration in 10 ms) for a timed test, bytes (-n) otherwise
//
// Pure functions over bytes; nothing here touches a socket.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace hil::iperf2 {

inline constexpr std::uint16_t default_port = 5001;

// The header's flags word (iperf 2's include/payloads.h).
inline constexpr std::uint32_t flag_version1 = 0x80000000;     // legacy dual test (-d, -r)
inline constexpr std::uint32_t flag_extend = 0x40000000;       // extended header follows
inline constexpr std::uint32_t flag_udp_tests = 0x20000000;    // UDP: upper flags are valid
inline constexpr std::uint32_t flag_seqno64 = 0x08000000;      // UDP: 64-bit sequence numbers
inline constexpr std::uint32_t flag_version2 = 0x04000000;     // -R, --full-duplex, -X
inline constexpr std::uint32_t flag_peer_detect = 0x02000000;  // -X: the client awaits the ack
inline constexpr std::uint32_t flag_length = 0x00010000;       // length in bits 1..8
inline constexpr std::uint32_t length_mask = 0x000001FE;
// The upper flags (16 bits).
inline constexpr std::uint16_t upper_no_udp_fin = 0x0008;   // UDP: one FIN, no report
inline constexpr std::uint16_t upper_reverse = 0x0400;      // -R
inline constexpr std::uint16_t upper_full_duplex = 0x0800;  // --full-duplex

inline constexpr std::size_t header_size = 60;  // the header as a 2.1.8 client sends it
inline constexpr std::size_t prefix_size = 16;  // a datagram's sequence and timestamp
inline constexpr std::size_t udp_header_size = prefix_size + header_size;  // 76
inline constexpr std::size_t min_header_size = 24;  // flags … amount: enough to run a test
inline constexpr std::size_t ack_size = 28;
inline constexpr std::size_t report_size = 128;

// The version a hilperf end announces: iperf 2.1.8 release, whose behaviour it follows.
inline constexpr std::uint32_t version_high = 0x00020001;
inline constexpr std::uint32_t version_low = 0x00080003;

// Which way a test's data goes on each stream (the same connection or UDP 5-tuple either way).
enum class direction {
  forward,      // client → server (the default)
  reverse,      // -R: server → client
  full_duplex,  // --full-duplex: both at once
};

// A test's settings, as a client header carries them.
struct client_header {
  std::uint32_t flags = 0;
  std::int32_t streams = 1;     // -P
  std::int32_t port = 0;        // the server's port (or the client's -L)
  std::int32_t buffer_len = 0;  // -l when given, else 0
  std::int32_t amount = 0;      // < 0: −duration in 10 ms units; > 0: bytes (-n)
  std::uint16_t upper_flags = 0;
  std::uint64_t rate_bps = 0;  // -b

  [[nodiscard]] bool timed() const noexcept { return amount < 0; }
  // VERSION1: a legacy dual test (-d, -r), where the server would connect back.
  [[nodiscard]] bool dual_test() const noexcept { return (flags & flag_version1) != 0; }
  // The test's duration when timed(), else zero.
  [[nodiscard]] std::chrono::milliseconds duration() const noexcept;
  [[nodiscard]] bool reverse() const noexcept;
  [[nodiscard]] bool full_duplex() const noexcept;
  [[nodiscard]] direction way() const noexcept;
};

// The header for a test of duration (or bytes when non-zero) at rate_bps, flags as 2.1.8 sets
// them for TCP or UDP in that direction (-R and --full-duplex: VERSION2, and for UDP the
// upper-flags bit; a UDP --full-duplex also says no-udp-fin). Precondition: duration below
// 2^31 × 10 ms, bytes below 2^31.
[[nodiscard]] client_header make_header(bool udp, std::int32_t streams, std::uint16_t port,
                                        std::chrono::milliseconds duration, std::uint64_t bytes,
                                        std::uint64_t rate_bps, direction way = direction::forward);

[[nodiscard]] std::array<std::uint8_t, header_size> encode_header(const client_header& h);
// The header at the start of bytes (a TCP stream's first bytes, or a datagram after its prefix);
// nullopt when fewer than min_header_size bytes, or no header flag (a 1.7 or `-C` client's raw
// data) is set.
[[nodiscard]] std::optional<client_header> decode_header(std::span<const std::uint8_t> bytes);
// A TCP stream's first four bytes: the header's flags word (a server reads these before it knows
// how long the header is).
inline constexpr std::size_t flags_size = 4;
[[nodiscard]] std::uint32_t decode_flags(std::span<const std::uint8_t, flags_size> first) noexcept;
// True when flags announce a client header (VERSION1, VERSION2 or EXTEND); false for the raw data
// of a 1.7 or `-C` client, whose first bytes are part of its stream.
[[nodiscard]] bool has_header(std::uint32_t flags) noexcept;
// The header's own length from its flags (what a server reads before the data), at least
// min_header_size and at most 256.
[[nodiscard]] std::size_t header_length(std::uint32_t flags) noexcept;

// The server's 28-byte ack of a TCP client header (sent for EXTEND without VERSION2, or -X).
[[nodiscard]] std::array<std::uint8_t, ack_size> encode_header_ack();
[[nodiscard]] bool wants_ack(const client_header& h) noexcept;

// A datagram's prefix. seq < 0 is a FIN: the negated next sequence number.
struct datagram_prefix {
  std::int64_t seq = 0;
  std::uint32_t sec = 0;
  std::uint32_t usec = 0;
};
void encode_prefix(std::span<std::uint8_t, prefix_size> out, const datagram_prefix& p);
[[nodiscard]] datagram_prefix decode_prefix(std::span<const std::uint8_t, prefix_size> in);

// The UDP server's report of a test.
struct server_report {
  std::uint64_t bytes = 0;  // received, FIN datagram included
  std::chrono::microseconds duration{0};
  std::int64_t lost = 0;  // datagrams missing below the highest sequence
  std::int64_t out_of_order = 0;
  std::int64_t datagrams = 0;  // the highest sequence seen (the FIN's counts)
  std::chrono::microseconds jitter{0};
};
[[nodiscard]] std::array<std::uint8_t, report_size> encode_report(const server_report& r);
// The report in a datagram from the server; nullopt for anything else (a stale header ack, data,
// a report without the 64-bit counters is read from its low words).
[[nodiscard]] std::optional<server_report> decode_report(std::span<const std::uint8_t> datagram);

// What the first bytes of a TCP connection to a shared port are: an iperf3 control connection
// starts with a cookie character ([a-z2-7]); an iperf 2 stream with its header flags (bit 0x20
// of the first byte clear) or, from a `-C` client, with '0'.
enum class first_byte_kind { iperf3, iperf2 };
[[nodiscard]] first_byte_kind classify_first_byte(std::uint8_t b) noexcept;

}  // namespace hil::iperf2
