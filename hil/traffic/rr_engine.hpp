// The client side of the request/response workloads (TCP_RR, TCP_CRR, UDP_RR) and of RRUL load,
// against a peer serving the hilperf extension's data plane (hil/iperf3/extension.hpp).
//
//   load (optional): N sink + N source TCP connections, one thread each, started first and given
//   a warm-up so the queues are full ──▶ transactions for spec.duration, one at a time, each
//   timed from the first byte sent to the last byte received ──▶ load stopped.
//
// Latency is the full round trip as the application sees it (netperf's and sockperf's RTT, not
// half of it).
#pragma once

#include <chrono>

#include "hil/measure/workload.hpp"
#include "hil/traffic/rr_io.hpp"

namespace hil::traffic {

// How long load runs before the transactions start, so the link is saturated when they do.
inline constexpr std::chrono::milliseconds load_warmup{1'000};

// Runs spec against the peer's data listeners: tcp (port of its TCP listener) and udp (its UDP
// socket). Throws std::system_error when the run cannot complete: the peer stopped answering
// (after spec.response_timeout, TCP), refused or reset a connection, with the transaction number.
measure::rr_result run_rr(const measure::rr_spec& spec, const socket_address& tcp,
                          const socket_address& udp);

}  // namespace hil::traffic
