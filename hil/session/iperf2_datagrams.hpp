// iperf 2's UDP datagrams as the engine reads and writes them (docs/iperf2-protocol.md §3):
//
//   client → server   prefix (seq, sec, usec, seq high) | the test's header | payload
//   server → client   prefix | payload                     (-R and --full-duplex)
//   end               one datagram whose sequence is the negated next one: the FIN
//
// iperf 2 stamps wall-clock time, and a stock receiver's jitter filter starts from the first
// transit time, so the engine's monotonic stamps are moved onto the wall clock (one offset,
// taken at construction: the intervals stay monotonic).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "hil/iperf2/wire.hpp"
#include "hil/traffic/data_framing.hpp"

namespace hil::session {

class iperf2_datagrams final : public traffic::datagram_format {
 public:
  // A client's stream carries header in every datagram; a server's stream (nullopt) does not.
  explicit iperf2_datagrams(std::optional<iperf2::client_header> header);

  [[nodiscard]] std::size_t header_size() const override;
  void write(std::span<std::uint8_t> datagram, const traffic::datagram_stamp& s) const override;
  [[nodiscard]] std::optional<traffic::datagram_stamp> read(
      std::span<const std::uint8_t> datagram) const override;
  [[nodiscard]] bool wide_sequence() const override { return true; }
  // A FIN says −(sent + 1): sent is the number of data datagrams.
  [[nodiscard]] std::optional<std::uint64_t> end_marker(
      std::span<const std::uint8_t> datagram) const override;

  // The FIN after `sent` data datagrams (its sequence −(sent + 1) − extra, for a stock client's
  // retries), stamped now, len bytes (at least header_size()).
  [[nodiscard]] std::vector<std::uint8_t> fin(std::int64_t sent, std::int64_t extra,
                                              std::size_t len) const;

 private:
  std::optional<std::array<std::uint8_t, iperf2::header_size>> header_;
  std::chrono::microseconds wall_offset_;  // wall clock − monotonic clock
};

// The first payload seed from `from` on whose block does not begin with 0x09: the first byte a
// client reads from an iperf 2 server's -R stream then never looks like an iperf3 server's
// PARAM_EXCHANGE (which is how a client tells it met iperf3).
[[nodiscard]] std::uint64_t iperf2_payload_seed(std::uint64_t from);

}  // namespace hil::session
