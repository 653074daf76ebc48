// Client of the hilperf extension's FRAME_COUNT (docs/hilperf-extension.md §11): asks a
// hilperf-peer to count the frames of a trial the caller sends, and gets the counts back over the
// control connection. The caller's send() runs between the peer's accept and TEST_END, blocking
// this thread; nothing crosses the control connection meanwhile.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "hil/iperf3/frame_count.hpp"
#include "hil/session/client_auth.hpp"

namespace hil::session {

struct frame_count_options {
  std::string host;                     // the peer
  std::uint16_t port = 5201;            // its iperf3 control port
  iperf3::frame_count_request request;  // how long the frames take; XDP or the socket's count
  std::optional<client_auth> auth;
  std::string bind_device;  // the control connection's interface (SO_BINDTODEVICE), if any
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds refused_retry{3'000};
  std::chrono::milliseconds busy_retry{1'000};
  std::chrono::milliseconds control_timeout{30'000};
};

// Where the frames go and how the peer counts them, handed to send().
struct frame_count_target {
  std::string address;                // the peer's address the control connection reached (numeric)
  iperf3::frame_count_accept accept;  // udp_port, the method, the attach mode, why
};

// What came back.
struct frame_count_outcome {
  iperf3::frame_count_accept accept;
  iperf3::frame_count_result counted;
};

// Negotiates the count, calls send(target), ends the test and returns the peer's counts. Throws
// extension_unsupported (workload_client.hpp) for a stock iperf3 server or a peer of another
// extension version (its refusal names both versions), std::system_error otherwise; what send
// throws is rethrown after the peer has been told CLIENT_TERMINATE.
frame_count_outcome run_frame_count(const frame_count_options& options,
                                    const std::function<void(const frame_count_target&)>& send);

}  // namespace hil::session
