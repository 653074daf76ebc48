// fuzz_iperf3_extension: the hilperf extension's messages (hil/iperf3/extension.hpp): a client's
// request inside its parameter JSON (decode_request, then validate_request as the server does),
// the server's accept, refuse and results messages as the client reads them (the frame count's
// too), and a data connection's hello with the test's token. Every input is offered to each
// decoder.
//
// Expected outcome: std::system_error(protocol_error) naming the malformed field. Findings: any
// other exception, a crash, a request outside the ranges decode_request promises, an accept or
// results message that does not survive its encoder and a second decode unchanged, and a hello
// accepted with a token other than its own.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "hil/iperf3/extension.hpp"
#include "hil/iperf3/frame_count.hpp"

namespace {

namespace iperf3 = hil::iperf3;
using hil::fuzz::finding;

// Runs decode, treating a protocol_error as the documented refusal; true when it returned.
template <typename Decode>
bool accepted(Decode&& decode, std::string_view name) {
  try {
    decode();
    return true;
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, name);
    return false;
  }
}

// A client's request: decoded within its ranges, and judged by the server.
void check_request(std::string_view json) {
  std::optional<iperf3::extension_request> r;
  if (!accepted([&] { r = iperf3::decode_request(json); }, "decode_request") || !r) return;
  (void)iperf3::validate_request(*r);
  if (r->version != iperf3::extension_version) return;
  const auto& s = r->spec;
  if (s.request_size < 1 || s.request_size > iperf3::max_rr_message || s.response_size < 1 ||
      s.response_size > iperf3::max_rr_message || s.duration.count() < 1 || s.load_streams < 0 ||
      s.load_streams > 128) {
    finding("decode_request returned a request outside the ranges it checks");
  }
}

// The server's accept: the same after encode_accept() and a second decode.
void check_accept(std::string_view json) {
  iperf3::extension_accept_msg m;
  if (!accepted([&] { m = iperf3::decode_accept(json); }, "decode_accept")) return;
  const auto back = iperf3::decode_accept(iperf3::encode_accept(m));
  if (back.version != m.version || back.tcp_port != m.tcp_port || back.udp_port != m.udp_port ||
      back.token != m.token) {
    finding("an accept message that changed through encode_accept");
  }
}

// The server's refusal: its reason survives encode_refuse().
void check_refuse(std::string_view json) {
  std::string reason;
  if (!accepted([&] { reason = iperf3::decode_refuse(json); }, "decode_refuse")) return;
  (void)iperf3::decode_refuse(iperf3::encode_refuse(reason));
}

// The server's counts: the same after encode_ext_results() and a second decode.
void check_results(std::string_view json) {
  iperf3::extension_results r;
  if (!accepted([&] { r = iperf3::decode_ext_results(json); }, "decode_ext_results")) return;
  const auto back = iperf3::decode_ext_results(iperf3::encode_ext_results(r));
  const auto same = [](double a, double b) { return a == b || (a != a && b != b); };
  if (back.transactions != r.transactions || !same(back.cpu_util_total, r.cpu_util_total) ||
      !same(back.cpu_util_user, r.cpu_util_user) ||
      !same(back.cpu_util_system, r.cpu_util_system)) {
    finding("extension results that changed through encode_ext_results");
  }
}

// The frame count's accept and counts: the same after their encoders and a second decode.
void check_frame_count(std::string_view json) {
  iperf3::frame_count_accept a;
  if (accepted([&] { a = iperf3::decode_count_accept(json); }, "decode_count_accept")) {
    const auto back = iperf3::decode_count_accept(iperf3::encode_count_accept(a));
    if (back.version != a.version || back.udp_port != a.udp_port || back.method != a.method ||
        back.attach_mode != a.attach_mode || back.why != a.why) {
      finding("a frame count accept that changed through encode_count_accept");
    }
  }
  iperf3::frame_count_result r;
  if (accepted([&] { r = iperf3::decode_count_results(json); }, "decode_count_results")) {
    const auto back = iperf3::decode_count_results(iperf3::encode_count_results(r));
    if (back.method != r.method || back.frames != r.frames || back.bytes != r.bytes ||
        back.other_frames != r.other_frames || back.rx_packets_delta != r.rx_packets_delta) {
      finding("frame counts that changed through encode_count_results");
    }
  }
}

}  // namespace

// One input, offered to every decoder of the extension.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json = hil::fuzz::as_text(data, size);
  check_request(json);
  check_accept(json);
  check_refuse(json);
  check_results(json);
  check_frame_count(json);
  if (size >= iperf3::hello_size) {
    // The hello against the token it carries (the kind decides) and against another one.
    const std::span<const std::uint8_t, iperf3::hello_size> hello(data, iperf3::hello_size);
    iperf3::data_token token{};
    std::copy_n(data + 4, token.size(), token.begin());
    if (const auto kind = iperf3::decode_hello(hello, token)) {
      if (!std::equal(hello.begin(), hello.end(), iperf3::encode_hello(*kind, token).begin())) {
        finding("a hello that does not encode back to its bytes");
      }
    }
    token[0] ^= 1U;
    if (iperf3::decode_hello(hello, token)) finding("a hello accepted with another test's token");
  }
  return 0;
}
