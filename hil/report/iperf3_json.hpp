// iperf3 -J JSON: our typed results serialised exactly as iperf3 3.12 lays them out, so existing
// iperf3 JSON consumers read ours, and a defensive reader of stock (and our) -J output for
// comparisons. Reporters only serialise (docs/code-style.md rule 9): nothing here measures or
// decides.
//
// Layout rules taken from iperf3 3.12 (src/iperf_api.c) and checked against captures of the stock
// binary (hil/tests/data/iperf3-3.12-*.json):
//   * streams are grouped by direction: the "forward" group (client -> server) comes first, then
//     the reverse group; only --bidir has both. The forward group's sums are `sum`, `sum_sent`,
//     `sum_received`; with --bidir the server -> client group's sums get `_bidir_reverse`.
//   * every "sender" boolean is the local end's point of view (true when this end sends on that
//     stream), except UDP `end.sum_sent` (always true) and `end.sum_received` (always false).
//   * end.streams[].receiver.seconds is the local end's duration (iperf3 quirk), its `end` and
//     bits_per_second use the receiver's duration.
//   * UDP lost_percent = 100 * lost / packets with the sender's packet count as total (receiver's
//     count when the sender's is unknown); intervals use the interval's own packet count.
// Deliberate differences from stock 3.12:
//   * -1 ("not available") is emitted as -1, never as 18446744073709551615.
//   * a server's output carries the client's numbers too (a 3.12 server prints before the results
//     exchange and shows zeros there); the remote sender's TCP_INFO extremes are -1, not 0.
//   * end times are per stream and per side (3.12 reuses the first stream's times for all).
//   * keys come out sorted (nlohmann::json objects are ordered maps); JSON readers do not care.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hil/measure/results.hpp"

namespace hil::report {

// The whole -J document for one test: start, intervals, end, and `error` when r.error is set.
// `version` is ours ("0.1.0" becomes "hilperf 0.1.0 (iperf3 3.12 compatible)"); `system_info` is
// the `uname -a`-style line (see local_system_info()). Pure: same inputs, same document.
[[nodiscard]] nlohmann::json to_iperf3_json(const measure::test_result& r, std::string_view version,
                                            std::string_view system_info);

// One direction's streams at the end of a test, summed the way iperf3 sums them; shared by the
// JSON and text reporters so both print the same totals. Points into the test_result it came from.
struct direction_totals {
  bool forward = true;       // client -> server
  bool local_sends = false;  // this end sends in this direction
  std::vector<const measure::stream_result*> streams;
  std::uint64_t sent_bytes = 0, received_bytes = 0;
  std::int64_t retransmits = -1;  // sum of the known values; -1 when none is known
  std::int64_t sender_packets = 0, receiver_packets = 0;
  std::int64_t packets = 0;  // per stream the sender's count, else the receiver's (iperf3's total)
  std::int64_t lost_packets = 0;
  double jitter_ms = 0;                             // mean of the streams' receiver jitter
  double sender_seconds = 0, receiver_seconds = 0;  // the direction's first stream (as iperf3)
};

// r.streams split by direction in iperf3's order: forward first; one entry without --bidir.
[[nodiscard]] std::vector<direction_totals> end_directions(const measure::test_result& r);

// One interval's streams split the same way (forward first); empty groups are left out.
[[nodiscard]] std::vector<std::vector<const measure::stream_interval*>> interval_directions(
    const measure::interval_sample& sample, bool is_client);

// This machine's line as iperf3 prints it: "sysname nodename release version machine" (uname(2)),
// or "unknown" when uname fails.
[[nodiscard]] std::string local_system_info();

// The numbers a comparison needs from one -J document (stock iperf3 or ours).
struct iperf3_summary {
  measure::protocol proto = measure::protocol::tcp;
  bool reverse = false;
  bool bidir = false;     // test_start.bidir (3.13+) or *_bidir_reverse sums (3.12)
  int num_streams = 0;    // streams per direction (-P)
  double duration_s = 0;  // measured: end.sum_sent.seconds (else test_start.duration)
  std::size_t interval_count = 0;
  // The forward direction (end.sum_sent / end.sum_received); --bidir reverse sums are not here.
  std::uint64_t sent_bytes = 0, received_bytes = 0;
  double sent_bps = 0, received_bps = 0;
  std::int64_t retransmits = -1;  // TCP end.sum_sent.retransmits; -1 when absent / n/a
  // UDP: packets = sender's count (receiver's when the sender's is 0); the rest from sum_received.
  std::int64_t packets = 0, lost_packets = 0;
  double jitter_ms = 0, lost_percent = 0;
  double host_cpu_total = 0, remote_cpu_total = 0;
  std::string error;  // top-level "error"; the other fields are best effort then
};

// Reads the first complete JSON object in `text` (leading non-JSON lines and trailing text such
// as iperf3's late "iperf3: error - …" line are ignored; bare nan/inf values read as 0).
// Integers >= 2^63 (3.12's 18446744073709551615) read as -1. A document with `error` never
// throws for missing sections. Throws std::system_error(std::errc::protocol_error) naming what
// is missing or malformed otherwise.
[[nodiscard]] iperf3_summary parse_iperf3_json(std::string_view text);

}  // namespace hil::report
