// fuzz_iperf3_results: a peer's EXCHANGE_RESULTS message as both our client and our server read
// it (hil/iperf3/exchange.hpp decode_results): any JSON, any types, any values.
//
// Expected outcome: std::system_error(protocol_error) naming the missing or mistyped key.
// Findings: any other exception, a crash, and results that do not survive encode_results() and a
// second decode (integers exactly, numbers to cJSON's 15 digits, non-finite ones as 0).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

#include "fuzz_support.hpp"
#include "hil/iperf3/exchange.hpp"

namespace {

namespace iperf3 = hil::iperf3;
using hil::fuzz::finding;

// The results in json, or nullopt when they were refused as the contract says.
std::optional<iperf3::exchange_results> decode(std::string_view json) {
  try {
    return iperf3::decode_results(json);
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "decode_results");
    return std::nullopt;
  }
}

// Whether b is a as encode_results() sends it: equal, within cJSON's 15 significant digits, or 0
// for a non-finite a.
bool same_number(double a, double b) {
  if (!std::isfinite(a)) return b == 0;
  const double tolerance = 4 * std::numeric_limits<double>::epsilon();
  return a == b || std::fabs(a - b) <= std::max(std::fabs(a), std::fabs(b)) * tolerance;
}

// Whether stream b is stream a as encode_results() sends it.
bool same_stream(const iperf3::exchange_stream& a, const iperf3::exchange_stream& b) {
  return a.id == b.id && a.bytes == b.bytes && a.retransmits == b.retransmits &&
         same_number(a.jitter_s, b.jitter_s) && a.errors == b.errors && a.packets == b.packets &&
         same_number(a.start_time, b.start_time) && same_number(a.end_time, b.end_time) &&
         a.omitted_errors == b.omitted_errors && a.omitted_packets == b.omitted_packets;
}

// Whether results b are results a as encode_results() sends them.
bool same_results(const iperf3::exchange_results& a, const iperf3::exchange_results& b) {
  // encode_results sends server_output_json or, without it, server_output_text.
  const bool text_sent = a.server_output_json.empty();
  return same_number(a.cpu_util_total, b.cpu_util_total) &&
         same_number(a.cpu_util_user, b.cpu_util_user) &&
         same_number(a.cpu_util_system, b.cpu_util_system) &&
         a.sender_has_retransmits == b.sender_has_retransmits &&
         a.congestion_used == b.congestion_used && a.server_output_json == b.server_output_json &&
         (!text_sent || a.server_output_text == b.server_output_text) &&
         std::equal(a.streams.begin(), a.streams.end(), b.streams.begin(), b.streams.end(),
                    same_stream);
}

}  // namespace

// One input: a results message.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto first = decode(hil::fuzz::as_text(data, size));
  if (!first) return 0;
  const auto second = decode(iperf3::encode_results(*first));
  if (!second) finding("encode_results wrote a message decode_results refuses");
  if (!same_results(*first, *second)) finding("results that changed through encode_results");
  return 0;
}
