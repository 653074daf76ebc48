// A client of stock netperf's `netserver` (2.7): runs one of netperf's six tests against it, as
// `netperf -H host -t TEST -l seconds` would, and returns both ends' figures as typed values.
// The codec is hil/netperf/omni.hpp; what hilperf relies on is docs/netserver-protocol.md.
//
//   control (asio, every read bounded)          data: the engine's workloads
//                                               (traffic/workloads.hpp, every call bounded)
//   connect host:12865 ── DO_OMNI ──▶
//                      ◀── OMNI_RESPONSE: data port
//                                               run_workload: connect / send to <data port>
//                                               run for the duration, end as the test ends:
//                                                 TCP_STREAM, TCP_RR: shutdown(SHUT_WR), EOF
//                                                 TCP_MAERTS: read until netserver closes
//                                                 UDP_STREAM, UDP_RR: 3 zero-length datagrams
//                                                 TCP_CRR: stop connecting
//                      ◀── results (TCP_CRR: ~4 s later, on netserver's timer)
//   shutdown(SHUT_WR), EOF ──▶ close
//
// One control connection per test, as netperf: netserver never clears its buffers between two.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/workload.hpp"

namespace hil::session {

struct netserver_options {
  std::string host;            // netserver's address (numeric IPv4/IPv6, or a name)
  std::uint16_t port = 12865;  // its control port (netserver -p)
  measure::workload kind = measure::workload::tcp_stream;
  std::uint32_t request_size = 1;   // RR tests: bytes per request (netperf -- -r req,rsp)
  std::uint32_t response_size = 1;  // RR tests: bytes per response
  // Bytes per send() (TCP_STREAM) or per datagram (UDP_STREAM); 0: netperf's default, the data
  // socket's SO_SNDBUF before connecting (16384 on a default Linux TCP socket), for UDP at most
  // 65507. netperf -- -m.
  std::uint32_t send_size = 0;
  std::chrono::milliseconds duration{10'000};  // netperf -l: whole seconds, a fraction rounds up
  std::string bind_device;  // SO_BINDTODEVICE for every socket, as `ping -I eth0`
  std::chrono::milliseconds connect_timeout{10'000};
};

// Both ends' figures for one test. "local" is this client, "remote" netserver's results message.
struct netserver_result {
  measure::workload kind = measure::workload::tcp_stream;
  double seconds = 0;  // local elapsed: from before the data connection to the end of the test
  std::uint64_t local_bytes_sent = 0;
  std::uint64_t local_bytes_received = 0;
  std::uint64_t local_transactions = 0;  // RR tests: completed request/response pairs
  std::uint64_t remote_bytes_received = 0;
  std::uint64_t remote_bytes_sent = 0;
  std::uint64_t remote_recv_calls = 0;    // UDP_STREAM: datagrams netserver received
  std::uint64_t remote_transactions = 0;  // RR tests: responses netserver sent
  double remote_seconds = 0;              // netserver's own elapsed time
  measure::latency_histogram latency;     // RR tests: one round trip per transaction
  // STREAM tests: the sender's bytes per send() — ours (TCP_STREAM) or per datagram (UDP_STREAM),
  // netserver's for TCP_MAERTS (from its response).
  std::uint32_t send_size = 0;
  std::uint64_t local_send_failures = 0;  // UDP_STREAM: datagrams the kernel refused (ENOBUFS)
  std::uint64_t local_lost = 0;           // UDP_RR: requests unanswered within 1 s, resent
  std::string remote_congestion;          // TCP: netserver's congestion control at the end

  // Mbit/s (10^6 bits) as netperf prints it: TCP_STREAM and UDP_STREAM from the bytes netserver
  // received, TCP_MAERTS from the bytes received here, over the local elapsed time; 0 for RR.
  [[nodiscard]] double throughput_mbps() const;
  // Local transactions per local second, netperf's "Trans. Rate per sec"; 0 for stream tests.
  [[nodiscard]] double transactions_per_second() const;
};

// Runs one test. Throws std::system_error when no result comes: nothing listening ("is
// `netserver` running there?"), a peer that is not netserver, netserver refusing the test, a data
// connection that fails, or no results within the test's length plus 15 s. A test whose
// duration or sizes netserver cannot run throws invalid_argument.
netserver_result run_netserver_test(const netserver_options& options);

}  // namespace hil::session
