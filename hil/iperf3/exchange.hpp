// The EXCHANGE_RESULTS messages: after TEST_END each side tells the other what it measured, as
// compact JSON in one length-prefixed frame (wire.hpp). The client writes first:
//
//   client                                                       server
//     | --- 0x04 TEST_END ---------------------------------------> |
//     | <------------------------------- 0x0D EXCHANGE_RESULTS --- |
//     | --- u32 BE len + {"cpu_util_total":..,"cpu_util_user":..,"cpu_util_system":..,
//     |                   "sender_has_retransmits":1|0|-1,["congestion_used":".."],
//     |                   "streams":[{"id":1,"bytes":..,"retransmits":..|-1,"jitter":s,
//     |                               "errors":..,"packets":..,"start_time":0,"end_time":s}]}
//     | <----------------------------- u32 BE len + the same, server's view (may carry
//     |                                server_output_json / server_output_text) --- |
//     | <-------------------------------- 0x0E DISPLAY_RESULTS --- |
//
// Streams are matched by id (1, 3, 4, 5, ...: iperf3 skips 2). A sender reports bytes sent and
// packets sent; a receiver bytes received, jitter, lost packets (errors) and the highest
// sequence number seen (packets).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hil::iperf3 {

// One stream's line of the results message.
struct exchange_stream {
  int id = 0;
  std::uint64_t bytes = 0;
  std::int64_t retransmits = -1;  // TCP sender with tcp_info only; -1 = not available
  double jitter_s = 0;            // receiver's RFC 3550 jitter, seconds
  std::int64_t errors = 0;        // receiver's lost-packet count, since the test started
  std::int64_t packets = 0;  // sender: packets sent; receiver: highest sequence seen; since start
  double start_time = 0;     // seconds; iperf3 always sends 0
  double end_time = 0;       // seconds the stream ran
  // iperf3 3.14+: errors and packets as they stood when -O's omitted period ended (0 without
  // -O), so the reader subtracts them. Both or neither: a 3.12 peer sends neither.
  std::optional<std::int64_t> omitted_errors;
  std::optional<std::int64_t> omitted_packets;
};

// One side's results message.
struct exchange_results {
  double cpu_util_total = 0;        // percent of one CPU, may exceed 100
  double cpu_util_user = 0;         // percent
  double cpu_util_system = 0;       // percent
  int sender_has_retransmits = -1;  // 1 TCP sender with counts, 0 other sender, -1 receiver
  std::string congestion_used;      // TCP congestion control; empty = unknown, not sent
  // A server asked for --get-server-output: its own output of the test, as text (a server
  // without -J) or as its -J document (the JSON object's text). Empty = not sent.
  std::string server_output_text;
  std::string server_output_json;
  std::vector<exchange_stream> streams;
};

// The compact JSON iperf3 sends for r: keys, order and types as src/iperf_api.c send_results(),
// numbers printed as 3.12's cJSON prints them, congestion_used only when non-empty, -1 as -1
// (not 3.12's 18446744073709551615), server_output_json or _text before the streams when set,
// omitted_errors/omitted_packets after errors/packets when
// the stream has them (3.14+; a 3.12 reader ignores them). Non-finite doubles are sent as 0
// (cJSON would send null, which iperf3 3.18+ rejects).
[[nodiscard]] std::string encode_results(const exchange_results& r);

// Reads a peer's results JSON as iperf3's get_results() does: the cpu_util_*,
// sender_has_retransmits and streams keys and per stream id, bytes, retransmits, jitter, errors
// and packets are required; start_time/end_time default to 0; omitted_errors and
// omitted_packets are read when present (both or neither); server_output_text (a string) and
// server_output_json (an object, kept as its text) when present; unknown keys are ignored; integers
// >= 2^63 read as -1. Throws std::system_error (protocol_error) naming the missing or mistyped key.
[[nodiscard]] exchange_results decode_results(std::string_view json);

}  // namespace hil::iperf3
