// How a peer protocol frames the data the engine moves. The engine knows no protocol: the session
// that negotiated a test (iperf3 today; iperf 2 and netperf are to be its siblings) hands these to
// the flows and the request/response engine.
//
//   datagram_format   the header of every UDP datagram: sequence number and sender timestamp,
//                     written by a sending flow, read by a receiving one (iperf3: 12 or 16 bytes,
//                     docs/iperf3-protocol.md §5)
//   connection_hello  the first bytes of each request/response data connection, saying what it is
//                     for, and of each UDP_RR request (the hilperf extension: 'H' 'X' 2 kind and
//                     the test's token; the token before each request, docs/hilperf-extension.md
//                     §6)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace hil::traffic {

// What a datagram header carries.
struct datagram_stamp {
  std::uint32_t sec = 0;   // the sender's clock (CLOCK_MONOTONIC), seconds
  std::uint32_t usec = 0;  // and microseconds
  std::uint64_t seq = 0;   // 1 for a stream's first datagram
};

class datagram_format {
 public:
  virtual ~datagram_format() = default;
  // Bytes of header at the start of every datagram; a datagram is at least this long.
  [[nodiscard]] virtual std::size_t header_size() const = 0;
  // Writes s at the start of datagram (at least header_size() bytes).
  virtual void write(std::span<std::uint8_t> datagram, const datagram_stamp& s) const = 0;
  // The stamp of a received datagram; nullopt when it is too short to carry one.
  [[nodiscard]] virtual std::optional<datagram_stamp> read(
      std::span<const std::uint8_t> datagram) const = 0;
  // True when sequence numbers are 64-bit on the wire; false: 32-bit, wrapping.
  [[nodiscard]] virtual bool wide_sequence() const = 0;
  // When datagram is the sender's end-of-stream marker (iperf 2's FIN), the number of data
  // datagrams it sent; nullopt for any other datagram. Asked only of datagrams read() rejects;
  // protocols whose streams end out of band (iperf3) keep this default.
  [[nodiscard]] virtual std::optional<std::uint64_t> end_marker(
      std::span<const std::uint8_t> /*datagram*/) const {
    return std::nullopt;
  }
};

// What a request/response data connection is for.
enum class rr_connection {
  rr,      // transactions until the client closes (TCP_RR)
  crr,     // one transaction, then the peer closes (TCP_CRR)
  sink,    // load: the client sends, the peer discards
  source,  // load: the peer sends until the client closes
};

class connection_hello {
 public:
  virtual ~connection_hello() = default;
  // Bytes of every hello.
  [[nodiscard]] virtual std::size_t size() const = 0;
  // The hello that opens a connection for purpose.
  [[nodiscard]] virtual std::vector<std::uint8_t> encode(rr_connection purpose) const = 0;
  // The purpose a received hello (size() bytes) announces; nullopt for anything else (another
  // protocol, another test's).
  [[nodiscard]] virtual std::optional<rr_connection> decode(
      std::span<const std::uint8_t> hello) const = 0;
  // The bytes every UDP_RR request starts with, before the request itself; a responder answers
  // no datagram that does not start with them.
  [[nodiscard]] virtual std::vector<std::uint8_t> datagram_prefix() const = 0;
};

}  // namespace hil::traffic
