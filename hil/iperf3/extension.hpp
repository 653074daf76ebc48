// The hilperf extension, version 3: netperf's request/response workloads (TCP_RR, TCP_CRR, UDP_RR,
// optionally under RRUL load) and the peer's count of a trial's frames (FRAME_COUNT, in XDP where
// it can: frame_count.hpp) negotiated on an ordinary iperf3 control connection, so one port and
// one peer serve both. Pure functions over JSON text; the state machines are
// hil/session/workload_client.cpp and iperf3_server.cpp. The protocol is described in full in
// docs/hilperf-extension.md.
//
//   client                                                      hilperf-peer
//     | --- TCP connect, cookie -------------------------------------> |
//     | <---------------------------------------- 0x09 PARAM_EXCHANGE - |
//     | --- params: a valid iperf3 TCP test, plus                        |
//     |     "hilperf":{"version":1,"workload":"TCP_RR","request_size":1, |
//     |      "response_size":1,"duration_ms":10000,"load_streams":0} --> |
//     | <--- 0x40 EXTENSION_ACCEPT + frame {"version":2,                 |
//     |           "tcp_port":40123,"udp_port":40124,                     |  data listeners, port 0
//     |           "token":"9f86d081884c7d65"}                            |  random, per test
//     |      (or 0x41 EXTENSION_REFUSE + frame {"version":1,"error":".."})
//     | ~~~ data (below) to tcp_port / udp_port ~~~~~~~~~~~~~~~~~~~~~~~~ |
//     | --- 0x04 TEST_END -------------------------------------------> |
//     | <--- 0x0D EXCHANGE_RESULTS + frame {"transactions":N,            |
//     |        "cpu_util_total":..,"cpu_util_user":..,"cpu_util_system":..}
//     | --- 0x10 IPERF_DONE, close ----------------------------------> |
//
//   A stock iperf3 server ignores the unknown "hilperf" key and answers CREATE_STREAMS: the client
//   then sends CLIENT_TERMINATE (the server is free again at once) and reports "not offered".
//   Stock clients never send the key, so they never see 0x40/0x41.
//
//   Data connections (TCP) start with a 12-byte hello: 'H' 'X' version kind, then the test's 8-byte
//   token (the peer drops a connection without it, or from another host than the control
//   connection's), where kind is
//     'R' request/response: requests of request_size, each answered with response_size bytes
//     'C' one transaction (TCP_CRR): the request follows the hello; response, then the peer closes
//     'S' load sink: the peer reads and discards until EOF          (RRUL upload)
//     'D' load source: the peer writes until the connection closes (RRUL download)
//   UDP_RR: each datagram to udp_port is the token and a request of request_size bytes, answered
//   (only when the token is right and it comes from the control connection's host) with
//   response_size bytes whose first min(request, response, 8) bytes repeat the request's (a
//   sequence number, so a late answer is never taken for the current one).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "hil/measure/workload.hpp"

namespace hil::iperf3 {

inline constexpr int extension_version = 3;
// Control states outside iperf3's table (wire.hpp); only sent to a client that asked.
inline constexpr std::uint8_t extension_accept = 0x40;
inline constexpr std::uint8_t extension_refuse = 0x41;
// Largest request or response (bytes) a peer accepts.
inline constexpr std::uint32_t max_rr_message = 1U << 20;

// Kinds of data connection (the hello's fourth byte).
enum class data_kind : char { rr = 'R', crr = 'C', sink = 'S', source = 'D' };

// The per-test secret of the accept message, which every data connection and UDP_RR datagram
// carries: the peer serves nothing of a test to anyone who did not see its control exchange.
using data_token = std::array<std::uint8_t, 8>;
inline constexpr std::size_t hello_size = 4 + std::tuple_size_v<data_token>;

// The hello that opens a data connection of kind k for the test of token.
[[nodiscard]] std::array<std::uint8_t, hello_size> encode_hello(data_kind k,
                                                                const data_token& token);
// The kind a hello announces; nullopt for anything that is not a hello of this version carrying
// token.
[[nodiscard]] std::optional<data_kind> decode_hello(std::span<const std::uint8_t, hello_size> bytes,
                                                    const data_token& token);

// A FRAME_COUNT request: the peer counts the UDP datagrams (frames) sent to a port it announces,
// until TEST_END, and sends the counts back (frame_count.hpp).
struct frame_count_request {
  std::chrono::milliseconds duration{1000};  // how long the frames take (the peer's guard)
  bool xdp = true;  // count in XDP where the peer can; false: on its socket
};

// What a client asks for: a request/response workload, or (frames set) a frame count.
struct extension_request {
  int version = extension_version;
  measure::rr_spec spec;  // kind, sizes, duration, load_streams (response_timeout is local)
  std::optional<frame_count_request> frames;
};

// The parameter JSON of an extension request: encode_params() of a plain TCP test of the same
// duration (so the message is a valid iperf3 request, with the authtoken when one is given) plus
// the "hilperf" object.
[[nodiscard]] std::string encode_request_params(const measure::rr_spec& spec,
                                                std::string_view authtoken = {});

// The extension request in a client's parameter JSON; nullopt when there is no "hilperf" key (an
// ordinary iperf3 test). Throws std::system_error (protocol_error) naming a malformed field; a
// version other than extension_version is returned as is, for the server to refuse.
[[nodiscard]] std::optional<extension_request> decode_request(std::string_view params_json);

// The server's answer to an accepted request.
struct extension_accept_msg {
  int version = extension_version;
  std::uint16_t tcp_port = 0;
  std::uint16_t udp_port = 0;
  data_token token{};  // on the wire: 16 lowercase hex digits
};
[[nodiscard]] std::string encode_accept(const extension_accept_msg& m);
[[nodiscard]] extension_accept_msg decode_accept(std::string_view json);

// The server's refusal (unsupported version or workload, bad sizes), as text for the user.
[[nodiscard]] std::string encode_refuse(std::string_view error);
[[nodiscard]] std::string decode_refuse(std::string_view json);

// What the server counted, sent after TEST_END.
struct extension_results {
  std::uint64_t transactions = 0;  // responses sent
  double cpu_util_total = 0;
  double cpu_util_user = 0;
  double cpu_util_system = 0;
};
[[nodiscard]] std::string encode_ext_results(const extension_results& r);
[[nodiscard]] extension_results decode_ext_results(std::string_view json);

// Why a request cannot be served by this version, or empty when it can.
[[nodiscard]] std::string validate_request(const extension_request& r);

namespace detail {
// j[key], a required integer in lo..hi, or protocol_error naming where and key.
[[nodiscard]] std::int64_t required_int(const nlohmann::json& j, const char* key,
                                        std::string_view where, std::int64_t lo, std::int64_t hi);
}  // namespace detail

}  // namespace hil::iperf3
