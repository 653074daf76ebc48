// The data plane's table of workloads: every loop that moves or counts test traffic, by shape. A
// session negotiates a test on its control connection, hands the engine the protocol's framing
// (data_framing.hpp, or the few framing facts of a workload_plan) and calls one of these; it never
// moves test data itself.
//
//   shape                       loop                                          sessions
//   ─────────────────────────── ───────────────────────────────────────────── ──────────────────
//   stream send                 flow (tcp_send); run_workload: timed, then    iperf3, iperf 2,
//                               half-close and wait for the peer's close       netserver
//   stream receive              flow (tcp_receive); run_workload: until the    iperf3, iperf 2,
//                               peer's close; stream_receiver: per second      netserver
//   paced datagrams             flow (udp_send, paced or not, the protocol's   iperf3, iperf 2
//                               header in each); run_workload: as fast as the  netserver
//                               socket takes them, then empty end markers
//   request/response            request_response_loop (rr_engine, run_workload) hilperf, netserver
//   connect/request/response    connect_request_response (rr_engine, run_…)   hilperf, netserver
//   datagram request/response   rr_engine (tagged), run_workload (untagged)    hilperf, netserver
//   turnaround                  test_run: a send and a receive flow on the     iperf 2 -R,
//                               client's own connection                        --full-duplex
//
// run_workload's loops are blocking with every call bounded (connect and I/O timeouts); the
// flows run on their own threads (flow.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "hil/measure/latency_histogram.hpp"
#include "hil/traffic/rr_io.hpp"

namespace hil::traffic {

// The shapes run_workload runs on a blocking socket of its own.
enum class workload_shape {
  stream_send,                // TCP: blocks for the length, half-close, the peer's close
  stream_receive,             // TCP: read until the peer closes
  datagrams,                  // UDP: datagrams as fast as the socket takes them, end markers
  request_response,           // TCP: one transaction at a time on one connection
  connect_request_response,   // TCP: a connection per transaction, closed by the peer
  datagram_request_response,  // UDP: one datagram each way per transaction
};

// Where and how a workload runs. The framing facts (end markers, fill bytes) and the peer's name
// for messages come from the session.
struct workload_plan {
  workload_shape shape = workload_shape::stream_send;
  socket_address to;   // the peer's data address
  std::string device;  // SO_BINDTODEVICE when not empty
  std::chrono::milliseconds connect_timeout{5000};
  // A data socket blocked this long (the peer not reading, not answering, not closing) fails it.
  std::chrono::milliseconds io_timeout{5000};
  // Datagram request/response: a response this late is lost; max_unanswered in a row end the run.
  std::chrono::milliseconds response_timeout{1000};
  int max_unanswered = 3;
  std::chrono::steady_clock::duration length{};  // how long the test runs
  // Stream receive: how long past length the peer may go on sending before it is an error.
  std::chrono::steady_clock::duration receive_grace{};
  std::uint32_t send_size = 0;  // stream send / datagrams: bytes per send (> 0)
  std::uint32_t request_size = 0;
  std::uint32_t response_size = 0;
  int end_markers = 0;            // datagrams (and datagram RR): empty datagrams that end the test
  bool nodelay = false;           // TCP_NODELAY on TCP data connections
  std::string peer = "the peer";  // who is at `to`, for messages ("netserver")
};

// What a workload measured at this end.
struct workload_figures {
  double seconds = 0;  // from before the first data connection to the end of the last
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t transactions = 0;
  std::uint64_t send_failures = 0;  // datagrams the kernel had no room for
  std::uint64_t lost = 0;           // requests without a response in time
  measure::latency_histogram latency;
};

// Runs p. Throws std::system_error naming what failed (timed_out for a silent peer,
// connection_refused when nothing listens, protocol_error when the peer sent too much); f holds
// what was measured up to the failure (its transactions say which one failed).
void run_workload(const workload_plan& p, workload_figures& f);

// Called after each completed transaction with how long it took.
using transaction_done = std::function<void(std::chrono::steady_clock::duration took)>;

// Request/response on connected fd: request out, response in, one at a time until end; each
// timed from its first byte sent to its last received. Throws std::system_error from the I/O.
void request_response_loop(int fd, std::span<const char> request, std::span<char> response,
                           std::chrono::steady_clock::time_point end, const transaction_done& done);

// One connect/request/response transaction on fd (just connected): the request, the response
// (response.size() - 1 bytes; the last byte is room to see more) and the peer's close. Throws
// std::system_error; protocol_error "<peer> sent more than the response" when more came.
void connect_request_response(sys::unique_fd fd, std::span<const char> request,
                              std::span<char> response, const std::string& peer);

}  // namespace hil::traffic
