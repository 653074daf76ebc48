// fuzz_iperf3_wire: what an iperf3 peer's control connection and UDP datagrams carry before any
// JSON is typed (hil/iperf3/wire.hpp): the length-prefixed frames, read in pieces of any size as
// a socket delivers them, each body parsed as the JSON object it must be; the state bytes; the
// cookie; the SERVER_ERROR payload; the UDP header and the connect reply.
//
//   input: [chunking byte] [stream of frames …]
//   the chunking byte picks the frame limit (8 KiB parameters, 4 MiB results, a 64-byte one that
//   the fuzzer can exceed) and the size of the pieces (1 to 16 bytes, or everything at once).
//
// Expected outcomes: std::system_error(protocol_error) from feed() (a length of 0 or above the
// limit) and from parse_json_object(). Findings: any other exception, a crash, a frame body of
// another length than announced, a piece consumed beyond the bytes given, a UDP header that does
// not encode back to its bytes.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

namespace iperf3 = hil::iperf3;
using hil::fuzz::finding;

// Feeds stream to a decoder in pieces of `piece` bytes (0: all at once) and parses every body;
// each body must be the bytes its header announced, as they followed it.
void decode_frames(std::string_view stream, std::size_t max_len, std::size_t piece) {
  iperf3::frame_decoder decoder(max_len, "fuzz message");
  std::string_view frame = stream;  // from the current frame's header on
  while (!stream.empty()) {
    const std::size_t offer = piece == 0 ? stream.size() : std::min(piece, stream.size());
    if (decoder.bytes_needed() == 0) finding("an incomplete frame that needs no bytes");
    std::size_t used = 0;
    try {
      used = decoder.feed(stream.data(), offer);
    } catch (const std::system_error& e) {
      hil::fuzz::expect_code(e, std::errc::protocol_error, "frame_decoder::feed");
      return;  // the connection is dropped
    }
    if (used > offer) finding("feed() consumed more bytes than it was given");
    stream.remove_prefix(used);
    if (!decoder.complete()) continue;
    if (decoder.bytes_needed() != 0) finding("a complete frame that still needs bytes");
    const std::string body = decoder.take();
    const auto* h = reinterpret_cast<const std::uint8_t*>(frame.data());
    const std::size_t announced = (std::size_t{h[0]} << 24U) | (std::size_t{h[1]} << 16U) |
                                  (std::size_t{h[2]} << 8U) | std::size_t{h[3]};
    if (body.size() != announced || frame.substr(4, announced) != body) {
      finding("a frame body other than the bytes its header announced");
    }
    frame = stream;
    try {
      (void)iperf3::detail::parse_json_object(body, max_len, "fuzz message");
    } catch (const std::system_error& e) {
      hil::fuzz::expect_code(e, std::errc::protocol_error, "parse_json_object");
    }
  }
}

// The fixed-size decoders on the first bytes of the input.
void decode_fixed(std::span<const std::uint8_t> in) {
  for (const std::uint8_t b : in.first(std::min<std::size_t>(in.size(), 16))) {
    if (const auto s = iperf3::state_from_byte(b)) {
      if (iperf3::state_to_byte(*s) != b) finding("a state byte that does not encode back");
      if (iperf3::state_name(*s) == "UNKNOWN") finding("a known state without a name");
    }
  }
  (void)iperf3::is_valid_cookie(std::string_view(reinterpret_cast<const char*>(in.data()),
                                                 std::min(in.size(), std::size_t{37})));
  (void)iperf3::is_udp_connect_reply(in.first(std::min<std::size_t>(in.size(), 4)));
  if (in.size() >= 8) {
    const auto e = iperf3::decode_server_error(in.first<8>());
    if (iperf3::encode_server_error(e) !=
        std::array<std::uint8_t, 8>{in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7]}) {
      finding("a SERVER_ERROR payload that does not encode back");
    }
    (void)iperf3::describe_server_error(e);
  }
  for (const bool wide : {false, true}) {
    const auto h = iperf3::decode_udp_header(in, wide);
    if (h.has_value() != (in.size() >= iperf3::udp_header_size(wide))) {
      finding("decode_udp_header's answer does not follow the datagram's size");
    }
    if (!h) continue;
    std::array<std::uint8_t, 16> out{};
    iperf3::encode_udp_header(out, *h, wide);
    if (!std::equal(out.begin(), out.begin() + iperf3::udp_header_size(wide), in.begin())) {
      finding("a UDP header that does not encode back to its bytes");
    }
  }
}

}  // namespace

// One input: the fixed-size decoders on its first bytes, then its rest as a stream of frames.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = hil::fuzz::as_bytes(data, size);
  decode_fixed(in);
  if (size == 0) return 0;
  constexpr std::array<std::size_t, 3> limits{iperf3::max_param_json, iperf3::max_results_json, 64};
  const std::size_t max_len = limits[data[0] % limits.size()];
  const std::size_t piece = (data[0] >> 2U) % 17;  // 0: all at once
  decode_frames(hil::fuzz::as_text(data + 1, size - 1), max_len, piece);
  return 0;
}
