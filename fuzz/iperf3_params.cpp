// fuzz_iperf3_params: a client's PARAM_EXCHANGE message as our server reads it
// (hil/iperf3/params.hpp decode_client_params, decode_params): any JSON, any types, any values.
//
// Expected outcome: std::system_error(protocol_error) naming the offending keys. Findings: any
// other exception, a crash, decode_params and decode_client_params disagreeing, and a message that
// decodes but whose test does not survive encode_params() and a second decode unchanged (the
// server accepting what our own client would refuse to send, or a value changing on the way).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_support.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

namespace iperf3 = hil::iperf3;
using hil::fuzz::finding;
using test_spec = hil::iperf3::test_params;

// The message decoded, or nullopt when it was refused as its contract says.
std::optional<iperf3::client_params> decode(std::string_view json) {
  try {
    return iperf3::decode_client_params(json);
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "decode_client_params");
    return std::nullopt;
  }
}

// Whether a and b ask for the same test, as far as the wire carries it (b went through it once).
bool same_test(const test_spec& a, const test_spec& b) {
  const bool counted = a.bytes != 0 || a.blocks != 0;  // -n/-k: time goes as 0
  return a.proto == b.proto && (counted || a.duration == b.duration) && a.bytes == b.bytes &&
         a.blocks == b.blocks && a.omit == b.omit && a.parallel == b.parallel &&
         a.reverse == b.reverse && a.bidirectional == b.bidirectional &&
         a.effective_block_len() == b.effective_block_len() &&
         a.effective_bitrate() == b.effective_bitrate() && a.window == b.window && a.mss == b.mss &&
         a.nodelay == b.nodelay && a.tos == b.tos && a.dont_fragment == b.dont_fragment &&
         a.udp_counters_64bit == b.udp_counters_64bit &&
         a.get_server_output == b.get_server_output && a.client_version == b.client_version;
}

}  // namespace

// One input: a parameter message.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json = hil::fuzz::as_text(data, size);
  const auto first = decode(json);
  bool plain_refused = false;
  try {
    (void)iperf3::decode_params(json);
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "decode_params");
    plain_refused = true;
  }
  if (plain_refused == first.has_value())
    finding("decode_params and decode_client_params disagree");
  if (!first) return 0;

  std::string again;
  try {
    again = iperf3::encode_params(first->spec, first->authtoken.value_or(""));
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::invalid_argument, "encode_params");
    // Only the size limit may refuse what was read: the keys a 3.12 client always sends can push
    // a long client_version or authtoken past 8 KiB.
    const std::size_t text =
        first->spec.client_version.size() + first->authtoken.value_or("").size();
    if (text + 512 < iperf3::max_param_json) finding("a decoded test that encode_params refuses");
    return 0;
  }
  const auto second = decode(again);
  if (!second) finding("encode_params wrote a message decode_client_params refuses");
  if (!same_test(first->spec, second->spec) ||
      first->authtoken.value_or("") != second->authtoken.value_or("")) {
    finding("a test that changed on its way through encode_params");
  }
  return 0;
}
