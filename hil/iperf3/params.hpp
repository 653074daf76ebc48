// The PARAM_EXCHANGE message: the test a client asks an iperf3 server to run, as compact JSON in
// one length-prefixed frame (wire.hpp). Key order and JSON types are those of a 3.12 client:
//
//   client                                          server
//     | <--------------------- 0x09 PARAM_EXCHANGE --- |
//     | --- 00 00 00 89 {"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":2,
//     |                  "reverse":true,"len":65536,"pacing_timer":1000,"client_version":"3.12"}
//     | <--------------------- 0x0A CREATE_STREAMS --- |   (or 0xFE SERVER_ERROR + 8 bytes)
//
//   key order: tcp|udp, omit, time, num, blockcount, [MSS], [nodelay], parallel, [reverse],
//   [bidirectional], [window], len, [bandwidth], pacing_timer, [TOS], [udp_counters_64bit],
//   [dont_fragment], [authtoken], client_version   ([...] only when set; booleans only as true)
//   authtoken: iperf3's RSA authentication (auth.hpp), as 3.12–3.21 place it
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "hil/measure/test_spec.hpp"

namespace hil::iperf3 {

// An iperf3 test: the protocol-free test and what only iperf3 asks, its extra flags and the
// version a client announces. A measure::test_spec converts to one with iperf3's defaults.
struct test_params : measure::test_spec {
  test_params() = default;
  // Implicit: any test runs as an iperf3 test with iperf3's defaults for the rest.
  test_params(measure::test_spec s) : measure::test_spec(std::move(s)) {}

  bool udp_counters_64bit = false;      // --udp-counters-64bit: 64-bit UDP sequence numbers
  bool get_server_output = false;       // --get-server-output: the server's output comes back
  std::string client_version = "3.12";  // what a client announces in the parameter exchange
};

// The parameter JSON a 3.12 client sends for s (without the length prefix). `time` is 0 when
// s.bytes or s.blocks ends the test, as iperf3 -n/-k sends it. Throws std::system_error
// (invalid_argument) listing every value a stock server would reject.
// authtoken, when not empty, is sent as the "authtoken" key (auth.hpp make_authtoken()).
[[nodiscard]] std::string encode_params(const test_params& s, std::string_view authtoken = {});

// What our server makes of a client's parameter JSON: unknown keys are ignored, known keys are
// type-checked and range-checked as iperf3 HEAD does. Absent keys keep test_spec's defaults,
// except client_version, which is empty when not sent. Throws std::system_error
// (protocol_error) naming the offending keys.
[[nodiscard]] test_params decode_params(std::string_view json);

// The same, with the client's authtoken beside the test (absent when it sent none).
struct client_params {
  test_params spec;
  std::optional<std::string> authtoken;
};
[[nodiscard]] client_params decode_client_params(std::string_view json);

}  // namespace hil::iperf3
