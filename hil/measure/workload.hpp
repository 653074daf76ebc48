// netperf's workloads in hilperf's terms (procedure 003, docs/checks.md): what each one measures
// and its typed result.
//
//   TCP_STREAM  the DUT sends on one TCP connection          iperf3 protocol (any peer)
//   TCP_MAERTS  the peer sends ("STREAM" reversed)          iperf3 protocol, -R
//   UDP_STREAM  the DUT sends UDP unpaced; receiver's rate   iperf3 protocol, -u -b 0
//   TCP_RR      request/response on one TCP connection      hilperf extension (hilperf-peer only)
//   TCP_CRR     connect, request, response, close each time hilperf extension
//   UDP_RR      request/response datagrams                  hilperf extension
//
// An RR run can carry load: TCP streams in both directions saturating the link while the
// transactions run (flent's RRUL), for latency under load.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/results.hpp"

namespace hil::measure {

enum class workload { tcp_stream, tcp_maerts, udp_stream, tcp_rr, tcp_crr, udp_rr };

// netperf's name: "TCP_STREAM", "TCP_RR", …
[[nodiscard]] std::string_view workload_name(workload w);
// The workload named name (netperf's spelling, case-insensitive); nullopt for anything else.
[[nodiscard]] std::optional<workload> workload_from_name(std::string_view name);
// True for TCP_RR, TCP_CRR and UDP_RR (transactions per second, latency).
[[nodiscard]] constexpr bool is_request_response(workload w) {
  return w == workload::tcp_rr || w == workload::tcp_crr || w == workload::udp_rr;
}

// One request/response run.
struct rr_spec {
  workload kind = workload::tcp_rr;  // tcp_rr, tcp_crr or udp_rr
  std::uint32_t request_size = 1;    // bytes per request (netperf -r 1,1)
  std::uint32_t response_size = 1;   // bytes per response
  std::chrono::milliseconds duration{10'000};
  // A transaction unanswered this long: TCP fails the run ("the peer stopped answering"); UDP
  // counts the request as lost and sends the next.
  std::chrono::milliseconds response_timeout{1'000};
  int load_streams = 0;     // RRUL load: TCP streams per direction while the RR runs (0 = idle)
  std::string bind_device;  // SO_BINDTODEVICE for every socket, as `ping -I eth0`
};

// What an RR run measured.
struct rr_result {
  rr_spec spec;
  std::uint64_t transactions = 0;       // completed request/response pairs
  std::uint64_t lost = 0;               // UDP_RR: requests with no response within response_timeout
  double seconds = 0;                   // the measured period
  latency_histogram latency;            // one sample per completed transaction
  std::uint64_t peer_transactions = 0;  // responses the peer reported sending
  // RRUL load, receiver-side goodput while the transactions ran (0 without load):
  double load_up_bps = 0;    // DUT → peer
  double load_down_bps = 0;  // peer → DUT
  cpu_usage local_cpu;
  cpu_usage remote_cpu;

  [[nodiscard]] double transactions_per_second() const {
    return seconds > 0 ? static_cast<double>(transactions) / seconds : 0.0;
  }
};

}  // namespace hil::measure
